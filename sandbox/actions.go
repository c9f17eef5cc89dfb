package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// archivedRefusal answers a click on a message in an archived thread,
// which Discord's client does not allow.
const archivedRefusal = "This thread is archived: its buttons and menus cannot be used."

// maxSkip bounds one skip of the clock.
const maxSkip = 30 * 24 * time.Hour

// commandRequest is the body of POST /api/command.
type commandRequest struct {
	User    string `json:"user"`
	Channel string `json:"channel"`
	Line    string `json:"line"` // "/malefiz new seats:2 bots:1"
}

// clickRequest is the body of POST /api/click.
type clickRequest struct {
	User     string   `json:"user"`
	Message  string   `json:"message"`
	CustomID string   `json:"custom_id"`
	Values   []string `json:"values,omitempty"`
}

// skipRequest is the body of POST /api/skip.
type skipRequest struct {
	By string `json:"by"` // a Go duration: "15m", "12h"
}

// decode reads a JSON request body into v. The body must be declared as
// JSON: a browser asks before it sends that from another site (CORS), and
// the sandbox never says yes, so other pages cannot play in it.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "send JSON (Content-Type: application/json)")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "bad request: "+err.Error())
		return false
	}
	return true
}

// serveCommand runs a command line as a user: POST /api/command.
func (s *Server) serveCommand(w http.ResponseWriter, r *http.Request) {
	var req commandRequest
	if !decode(w, r, &req) {
		return
	}
	u, ok := s.user(req.User)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown user %q", req.User))
		return
	}
	if req.Channel == "" {
		req.Channel = s.cfg.Fake.ChannelID
	}
	if !s.knownChannel(req.Channel, u.ID) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown channel %q", req.Channel))
		return
	}
	cmd, err := parseCommand(req.Line, s.commands(), s.cfg.Users, u.Locale)
	if err != nil {
		writeError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), ErrCommand.Error()+": "))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), interactionTimeout)
	defer cancel()
	inv := u.invocation()
	inv.Channel, inv.Name, inv.Sub, inv.Options = req.Channel, cmd.name, cmd.sub, cmd.options
	resp, err := s.cfg.Fake.SlashCommand(ctx, inv)
	if resp != nil {
		s.recordLine(resp.InteractionID, strings.Join(strings.Fields(req.Line), " "))
	}
	s.answer(w, resp, err)
}

// serveClick clicks a button or chooses in a select menu as a user: POST
// /api/click.
func (s *Server) serveClick(w http.ResponseWriter, r *http.Request) {
	var req clickRequest
	if !decode(w, r, &req) {
		return
	}
	u, ok := s.user(req.User)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown user %q", req.User))
		return
	}
	m, ok := s.cfg.Fake.Message(req.Message)
	if !ok || m.Deleted || (m.Ephemeral && m.UserID != u.ID) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("there is no message %q", req.Message))
		return
	}
	// Discord's client greys out the buttons and menus of a message in an
	// archived thread: no interaction is sent.
	if s.archivedThread(m.ChannelID) {
		writeError(w, http.StatusConflict, archivedRefusal)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), interactionTimeout)
	defer cancel()
	inv := u.invocation()
	inv.MessageID, inv.CustomID, inv.Values = req.Message, req.CustomID, req.Values
	resp, err := s.cfg.Fake.Click(ctx, inv)
	s.answer(w, resp, err)
}

// archivedThread reports whether a channel is an archived thread.
func (s *Server) archivedThread(id string) bool {
	for _, c := range s.cfg.Fake.Channels() {
		if c.ID == id {
			return c.Thread && c.Archived
		}
	}
	return false
}

// answer reports how an interaction went. Discord's own words are used
// for a bot that fails: "This interaction failed".
func (s *Server) answer(w http.ResponseWriter, resp *fakediscord.Response, err error) {
	switch {
	case errors.Is(err, fakediscord.ErrInvocation):
		writeError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), fakediscord.ErrInvocation.Error()+": "))
	case err != nil:
		s.cfg.Logger.Warn("sandbox: interaction failed", "err", err)
		writeError(w, http.StatusBadGateway, "This interaction failed")
	default:
		out := map[string]any{"interaction": resp.InteractionID}
		if resp.Type == fakediscord.InteractionResponseLaunchActivity {
			out["launch"] = true // the client opens the Activity
		}
		if resp.Message != nil {
			out["message"] = resp.Message.ID
			out["ephemeral"] = resp.Message.Ephemeral
		}
		writeJSON(w, http.StatusOK, out)
	}
}

// serveSkip moves the sandbox clock ahead and runs the timers that are
// due: POST /api/skip.
func (s *Server) serveSkip(w http.ResponseWriter, r *http.Request) {
	var req skipRequest
	if !decode(w, r, &req) {
		return
	}
	d, err := time.ParseDuration(req.By)
	if err != nil || d <= 0 || d > maxSkip {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("skip by %q: want a duration such as 15m or 24h, at most %v", req.By, maxSkip))
		return
	}
	s.skipping.Lock()
	defer s.skipping.Unlock()
	offset := s.cfg.Clock.Skip(d)
	s.notify()
	if s.cfg.Tick != nil {
		ctx, cancel := context.WithTimeout(r.Context(), interactionTimeout)
		defer cancel()
		if err := s.cfg.Tick(ctx); err != nil {
			s.cfg.Logger.Warn("sandbox: timers after a skip", "err", err)
			writeError(w, http.StatusBadGateway, "the timers failed: "+err.Error())
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"offset": offset.Milliseconds(), "now": s.cfg.Clock.Now().UnixMilli()})
}
