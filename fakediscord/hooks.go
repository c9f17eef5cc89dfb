package fakediscord

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// Moment says when a hook runs on a call.
type Moment int

// The moments of a call a hook can run at.
const (
	// BeforeServe runs the hook before the fake serves the call: nothing
	// has changed yet.
	BeforeServe Moment = iota
	// AfterServe runs the hook after the fake served the call (a message
	// is stored, say) but before the answer is written: the caller does
	// not see the answer until the hook returns.
	AfterServe
)

// hook is a function run once on the next call that matches.
type hook struct {
	match Match
	at    Moment
	fn    func(Call) (drop bool)
	once  sync.Once
}

// OnNext runs fn once, at the given moment of the next call that matches.
// Crash tests use it to kill a bot process at a precise point: after a
// message was stored but before the bot learnt its ID, say. When fn returns
// true the call is dropped there: the connection closes without an answer
// (before serving: nothing happens; after: the change is made, the answer
// lost).
func (f *Fake) OnNext(match Match, at Moment, fn func(Call) (drop bool)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hooks = append(f.hooks, &hook{match: match, at: at, fn: fn})
}

// runHooks runs and removes the hooks for c at moment at, and reports
// whether one asked to drop the call.
func (f *Fake) runHooks(c Call, at Moment) (drop bool) {
	f.mu.Lock()
	var run []*hook
	f.hooks = slices.DeleteFunc(f.hooks, func(h *hook) bool {
		if h.at == at && h.match(c) {
			run = append(run, h)
			return true
		}
		return false
	})
	f.mu.Unlock()
	for _, h := range run {
		h.once.Do(func() { drop = h.fn(c) || drop })
	}
	return drop
}

// dropCall closes the connection of a call without answering it.
func (f *Fake) dropCall(w http.ResponseWriter, c *Call) {
	c.Dropped = true
	f.record(c)
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// ForgedClick is a component interaction no Discord client could send: the
// fake dispatches it as given, without checking that the message exists,
// holds the component, or lives in the channel. Tests use it to check that
// a bot refuses clicks that do not belong to the game they name.
type ForgedClick struct {
	Guild   string // "" sends it as from a DM (no guild, no member)
	Channel string
	User    string
	// MessageID and MessageAuthor describe the clicked message as the
	// payload shows it; MessageAuthor "" means the bot.
	MessageID     string
	MessageAuthor string
	CustomID      string
}

// Forge dispatches a forged click and waits for the bot's callback.
func (f *Fake) Forge(ctx context.Context, fc ForgedClick) (*Response, error) {
	f.mu.Lock()
	inv := Invocation{Guild: fc.Guild, Channel: fc.Channel, User: fc.User}
	if inv.User == "" {
		inv.User = f.UserID
	}
	inv.Locale = string(discordgo.EnglishUS)
	inv.Permissions = DefaultMemberPermissions
	dm := fc.Guild == ""
	if !dm {
		if _, ok := f.guild(fc.Guild); !ok {
			f.mu.Unlock()
			return nil, fmt.Errorf("%w: the bot is not in guild %s", ErrInvocation, fc.Guild)
		}
	}
	it := newInteraction(discordgo.InteractionMessageComponent, inv)
	it.source = fc.MessageID
	data := map[string]any{"custom_id": fc.CustomID, "component_type": discordgo.ButtonComponent}
	var w *wireInteraction
	if dm {
		w = &wireInteraction{ID: it.id, ApplicationID: f.AppID, Type: it.typ, Data: data, Token: it.token,
			Version: 1, Locale: inv.Locale, ChannelID: fc.Channel, User: f.wireUser(inv.User),
			AppPermissions: itoa64(DefaultAppPermissions),
			Channel:        map[string]any{"id": fc.Channel, "type": 1},
			Entitlements:   []any{}, Context: 1, AttachmentSizeLimit: maxFileSize}
	} else {
		w = f.wireInteractionLocked(it, inv, data)
	}
	author := f.botUser()
	if fc.MessageAuthor != "" {
		author = wireUserNamed(fc.MessageAuthor, "")
	}
	w.Message = map[string]any{"id": fc.MessageID, "channel_id": fc.Channel, "author": author, "content": "",
		"type": 0, "flags": 0, "embeds": []any{}, "components": []any{}, "attachments": []any{},
		"timestamp": "2026-01-01T12:00:00.000000+00:00", "tts": false, "mention_everyone": false,
		"mentions": []any{}, "mention_roles": []any{}, "pinned": false}
	f.mu.Unlock()
	return f.invoke(ctx, it, w)
}
