package fakediscord_test

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// restCode returns the HTTP status and Discord code of a discordgo error.
func restCode(t *testing.T, err error) (int, int) {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T), want a *discordgo.RESTError", err, err)
	}
	if re.Message == nil {
		return re.Response.StatusCode, -1
	}
	return re.Response.StatusCode, re.Message.Code
}

// calls counts the calls to a route.
func calls(fake *fakediscord.Fake, route string) (all, faults int) {
	for _, c := range fake.Calls() {
		if c.Route == route {
			all++
			if c.Fault {
				faults++
			}
		}
	}
	return all, faults
}

func TestRateLimitIsRetried(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	var limited atomic.Int32
	s.AddHandler(func(_ *discordgo.Session, rl *discordgo.RateLimit) { limited.Add(1) })
	fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.RateLimited, 2)

	start := time.Now()
	m, err := s.ChannelMessageSend(fake.ChannelID, "hello")
	if err != nil {
		t.Fatalf("ChannelMessageSend after two 429s: %v", err)
	}
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("took %v, want at least two retry_after waits of 50ms", took)
	}
	if all, faults := calls(fake, fakediscord.RouteMessageCreate); all != 3 || faults != 2 {
		t.Errorf("%d calls, %d faults; want 3 and 2", all, faults)
	}
	if limited.Load() != 2 || fake.PendingFaults() != 0 {
		t.Errorf("%d rate limit events, %d faults pending", limited.Load(), fake.PendingFaults())
	}
	if last, _ := fake.LastMessage(fake.ChannelID); last.ID != m.ID {
		t.Errorf("last message %q, want %q", last.ID, m.ID)
	}
	for _, c := range fake.Calls() {
		if c.Status == http.StatusTooManyRequests && !bytes.Contains(c.Response, []byte(`"retry_after":0.05`)) {
			t.Errorf("429 body %s", c.Response)
		}
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		fault      fakediscord.Fault
		wantStatus int
		wantCode   int
		wantCalls  int
	}{
		{"unknown message", fakediscord.UnknownMessage, 404, 10008, 1},
		{"missing permissions", fakediscord.MissingPermissions, 403, 50013, 1},
		{"server error is not retried", fakediscord.ServerError, 500, 0, 1},
		{"bad gateway is retried", fakediscord.BadGateway, 0, 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakediscord.New(t)
			s := newSession(t, fake)
			m, err := s.ChannelMessageSend(fake.ChannelID, "turn 1")
			if err != nil {
				t.Fatal(err)
			}
			fake.FailNext(fakediscord.And(fakediscord.OnRoute(fakediscord.RouteMessageEdit), fakediscord.OnMessage(m.ID)), tt.fault, 5)
			_, err = s.ChannelMessageEdit(fake.ChannelID, m.ID, "turn 1: done")
			if tt.wantStatus == 0 {
				if err == nil {
					t.Fatal("edit succeeded through 5 faults")
				}
			} else if status, code := restCode(t, err); status != tt.wantStatus || code != tt.wantCode {
				t.Errorf("got %d/%d, want %d/%d", status, code, tt.wantStatus, tt.wantCode)
			}
			if all, _ := calls(fake, fakediscord.RouteMessageEdit); all != tt.wantCalls {
				t.Errorf("%d edit calls, want %d", all, tt.wantCalls)
			}
			if got, _ := fake.Message(m.ID); got.Content != "turn 1" {
				t.Errorf("content %q changed by a refused edit", got.Content)
			}
		})
	}
}

func TestDeletedMessage(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	deleted := make(chan *discordgo.MessageDelete, 1)
	s := openBot(t, fake, func(_ *discordgo.Session, d *discordgo.MessageDelete) { deleted <- d })
	m, err := s.ChannelMessageSend(fake.ChannelID, "turn 1")
	if err != nil {
		t.Fatal(err)
	}
	if !fake.DeleteMessage(fake.ChannelID, m.ID) || fake.DeleteMessage(fake.ChannelID, m.ID) {
		t.Fatal("DeleteMessage should report true once")
	}
	select {
	case d := <-deleted:
		if d.ID != m.ID || d.ChannelID != fake.ChannelID {
			t.Errorf("MESSAGE_DELETE %+v", d.Message)
		}
	case <-time.After(5 * time.Second):
		t.Error("no MESSAGE_DELETE event")
	}
	for name, call := range map[string]func() error{
		"edit": func() error { _, err := s.ChannelMessageEdit(fake.ChannelID, m.ID, "x"); return err },
		"get":  func() error { _, err := s.ChannelMessage(fake.ChannelID, m.ID); return err },
		"del":  func() error { return s.ChannelMessageDelete(fake.ChannelID, m.ID) },
	} {
		if status, code := restCode(t, call()); status != 404 || code != 10008 {
			t.Errorf("%s of a deleted message: %d/%d, want 404/10008", name, status, code)
		}
	}
	if _, ok := fake.LastMessage(fake.ChannelID); ok {
		t.Error("deleted message still visible")
	}
}

func TestChannelPermissions(t *testing.T) {
	t.Parallel()
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: "board.png", Reader: bytes.NewReader([]byte("png"))}}
	}
	tests := []struct {
		name     string
		perms    int64
		send     discordgo.MessageSend
		wantCode int
	}{
		{"no view", discordgo.PermissionSendMessages, discordgo.MessageSend{Content: "x"}, 50001},
		{"no send", discordgo.PermissionViewChannel, discordgo.MessageSend{Content: "x"}, 50013},
		{"no attach", discordgo.PermissionViewChannel | discordgo.PermissionSendMessages, discordgo.MessageSend{Content: "x", Files: file()}, 50013},
		{"no embed links", discordgo.PermissionViewChannel | discordgo.PermissionSendMessages, discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "t"}}}, 50013},
		{"enough", discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles | discordgo.PermissionEmbedLinks,
			discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "t"}}, Files: file()}, 0},
	}
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := strconv.Itoa(1000 + i)
			fake.SetPermissions(ch, tt.perms)
			_, err := s.ChannelMessageSendComplex(ch, &tt.send)
			if tt.wantCode == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if _, code := restCode(t, err); code != tt.wantCode {
				t.Errorf("code %d, want %d", code, tt.wantCode)
			}
		})
	}
}

func TestUnknownRouteIsRecorded(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	_, err := s.GuildMembers(fake.GuildID, "", 10)
	if status, code := restCode(t, err); status != 404 || code != 0 {
		t.Errorf("got %d/%d, want 404/0", status, code)
	}
	u := fake.Unexpected()
	if len(u) != 1 || u[0].Method != http.MethodGet || u[0].Path != "/guilds/"+fake.GuildID+"/members" {
		t.Errorf("unexpected calls %+v", u)
	}
}

func TestWrongTokenIsUnauthorized(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	s.Token = "Bot wrong"
	_, err := s.User("@me")
	if status, _ := restCode(t, err); status != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", status)
	}
	s.Token = "Bot " + fake.Token()
	if u, err := s.User("@me"); err != nil || u.ID != fake.AppID || !u.Bot {
		t.Errorf("User(@me) = %+v, %v", u, err)
	}
}
