package fakediscord_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestConcurrentClicks(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "clicked by " + ic.Member.User.ID},
		})
	})
	m, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{Content: "roll!", Components: buttons("mf/roll/1/1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := timeout(t, 20*time.Second)
	const clicks = 20
	var wg sync.WaitGroup
	ids := make(chan string, clicks)
	for i := range clicks {
		wg.Go(func() {
			resp, err := fake.Click(ctx, fakediscord.Invocation{User: strconv.Itoa(5000 + i), MessageID: m.ID, CustomID: "mf/roll/1/1"})
			if err != nil {
				t.Error(err)
				return
			}
			ids <- resp.InteractionID
		})
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	got, _ := fake.Message(m.ID)
	if len(seen) != clicks || got.Edits != clicks {
		t.Errorf("%d distinct interactions, %d edits; want %d", len(seen), got.Edits, clicks)
	}
}

// TestParallelGames plays a few turns in 50 channels at once: a command, a
// click answered with a deferred update, a new turn message with a board
// and the old one edited.
func TestParallelGames(t *testing.T) {
	t.Parallel()
	// The subject is the fake's model under 50 games at once, not Discord's
	// 3 s deadline (TestCallbackRules has that): on a loaded machine
	// with the race detector a callback may take longer.
	fake := fakediscord.New(t, fakediscord.WithCallbackDeadline(30*time.Second), noMessageBuckets())
	png := boardPNG(t)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		switch ic.Type {
		case discordgo.InteractionApplicationCommand:
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "turn 0", Components: buttons("roll/" + ic.ChannelID + "/0")},
			})
		case discordgo.InteractionMessageComponent:
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
			var turn int
			fmt.Sscanf(ic.Message.Content, "turn %d", &turn)
			_, err := s.ChannelMessageSendComplex(ic.ChannelID, &discordgo.MessageSend{
				Content:    fmt.Sprintf("turn %d", turn+1),
				Components: buttons(fmt.Sprintf("roll/%s/%d", ic.ChannelID, turn+1)),
				Files:      []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
			})
			if err != nil {
				t.Errorf("new turn: %v", err)
				return
			}
			edit := discordgo.NewMessageEdit(ic.ChannelID, ic.Message.ID).SetContent(fmt.Sprintf("turn %d: done", turn))
			edit.Components = &[]discordgo.MessageComponent{}
			if _, err := s.ChannelMessageEditComplex(edit); err != nil {
				t.Errorf("summary: %v", err)
			}
		}
	})
	register(t, s, fake)
	ctx := timeout(t, 60*time.Second)
	const games, turns = 50, 3
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			ch := strconv.Itoa(7000 + g)
			if _, err := fake.SlashCommand(ctx, fakediscord.Invocation{Channel: ch, Name: "malefiz", Sub: "join"}); err != nil {
				t.Error(err)
				return
			}
			for turn := range turns {
				if err := clickAndWait(ctx, fake, ch, turn); err != nil {
					t.Errorf("channel %s turn %d: %v", ch, turn, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for g := range games {
		ch := strconv.Itoa(7000 + g)
		msgs := fake.ChannelMessages(ch)
		if len(msgs) != turns+1 {
			t.Errorf("channel %s has %d messages, want %d", ch, len(msgs), turns+1)
			continue
		}
		last := msgs[turns]
		if last.Content != fmt.Sprintf("turn %d", turns) || len(last.Attachments) != 1 || msgs[0].Content != "turn 0: done" {
			t.Errorf("channel %s: last %q, first %q", ch, last.Content, msgs[0].Content)
		}
	}
}

// clickAndWait clicks the roll button of turn and waits until the next
// turn's message is there and the clicked one edited.
func clickAndWait(ctx context.Context, fake *fakediscord.Fake, ch string, turn int) error {
	last, ok := fake.LastMessage(ch)
	if !ok {
		return fmt.Errorf("no message")
	}
	resp, err := fake.Click(ctx, fakediscord.Invocation{MessageID: last.ID, CustomID: fmt.Sprintf("roll/%s/%d", ch, turn)})
	if err != nil {
		return err
	}
	// The edit that went through: under load one can be answered 429
	// first, and the session sends it again once the limit allows.
	_, err = fake.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Seq > resp.Call.Seq && c.Route == fakediscord.RouteMessageEdit && c.Param("message") == last.ID && c.OK()
	})
	return err
}
