package fakediscord_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// pong answers every slash command with "pong <name>".
func pong(name string, count *atomic.Int32) func(*discordgo.Session, *discordgo.InteractionCreate) {
	return func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		count.Add(1)
		_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong " + name},
		})
	}
}

func TestReconnect(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	var first, second atomic.Int32
	s := openBot(t, fake, pong("first", &first))
	register(t, s, fake)
	ctx := timeout(t, 20*time.Second)
	join := fakediscord.Invocation{Name: "malefiz", Sub: "join"}
	if _, err := fake.SlashCommand(ctx, join); err != nil {
		t.Fatal(err)
	}

	// Closing and opening the same session resumes it.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if fake.Resumes() != 1 || len(fake.Identifies()) != 1 {
		t.Errorf("%d resumes, %d identifies; want 1 and 1", fake.Resumes(), len(fake.Identifies()))
	}
	resp, err := fake.SlashCommand(ctx, join)
	if err != nil || resp.Message.Content != "pong first" {
		t.Fatalf("after resume: %+v, %v", resp, err)
	}

	// A restarted bot is a new session that identifies.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	openBot(t, fake, pong("second", &second))
	if n := len(fake.Identifies()); n != 2 {
		t.Errorf("%d identifies, want 2", n)
	}
	resp, err = fake.SlashCommand(ctx, join)
	if err != nil || resp.Message.Content != "pong second" {
		t.Fatalf("after restart: %+v, %v", resp, err)
	}
	if first.Load() != 2 || second.Load() != 1 {
		t.Errorf("first session answered %d, second %d; want 2 and 1", first.Load(), second.Load())
	}
}

// TestDroppedConnectionResumes drops the websocket: discordgo reconnects
// by itself, resumes, and gets the interactions it missed.
func TestDroppedConnectionResumes(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	var n atomic.Int32
	s := openBot(t, fake, pong("bot", &n))
	register(t, s, fake)
	fake.DropConnections()
	resp, err := fake.SlashCommand(timeout(t, 20*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "join"})
	if err != nil || resp.Message.Content != "pong bot" {
		t.Fatalf("after drop: %+v, %v", resp, err)
	}
	if fake.Resumes() != 1 || n.Load() != 1 {
		t.Errorf("%d resumes, %d answers; want 1 and 1", fake.Resumes(), n.Load())
	}
}

func TestIdentifyRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  []fakediscord.Option
		setup func(*discordgo.Session)
		want  string // in the Open error; "" for success
	}{
		{"privileged intent", nil, func(s *discordgo.Session) { s.Identify.Intents |= discordgo.IntentMessageContent }, "4014"},
		{"privileged intent allowed", []fakediscord.Option{fakediscord.WithPrivilegedIntents(discordgo.IntentMessageContent)},
			func(s *discordgo.Session) { s.Identify.Intents |= discordgo.IntentMessageContent }, ""},
		{"wrong token", nil, func(s *discordgo.Session) { s.Identify.Token = "Bot nope" }, "4004"},
		{"uncompressed", nil, func(s *discordgo.Session) { s.Compress = false }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakediscord.New(t, tt.opts...)
			s := newSession(t, fake)
			s.ShouldReconnectOnError = false
			tt.setup(s)
			err := s.Open()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if err := fake.WaitReady(timeout(t, 10*time.Second)); err != nil {
					t.Fatal(err)
				}
				_ = s.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open error %v, want one with %s", err, tt.want)
			}
		})
	}
}
