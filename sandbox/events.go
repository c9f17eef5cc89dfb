package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

const (
	// settle is how long the stream waits after a change for the ones
	// that follow it (an answer often comes with an edit and a file).
	settle = 30 * time.Millisecond
	// keepAlive is how often an idle stream sends a comment, so that
	// proxies and browsers keep it open.
	keepAlive = 15 * time.Second
	// clockRefresh is how often an idle stream sends the state again so
	// that relative times ("in 5 minutes") stay right.
	clockRefresh = 30 * time.Second
)

// viewParams reads and checks the user and channel of a view request.
func (s *Server) viewParams(w http.ResponseWriter, r *http.Request) (user, channel string, ok bool) {
	user, channel = r.URL.Query().Get("user"), r.URL.Query().Get("channel")
	if _, known := s.user(user); !known {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown user %q", user))
		return "", "", false
	}
	if channel == "" {
		channel = s.cfg.Fake.ChannelID
	}
	if !s.knownChannel(channel, user) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown channel %q", channel))
		return "", "", false
	}
	return user, channel, true
}

// serveState answers with the view of one channel for one user, once.
func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	user, channel, ok := s.viewParams(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, s.state(user, channel))
}

// serveEvents streams the view of one channel for one user as
// server-sent events: an event "state" with the whole view now and after
// every change.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	user, channel, ok := s.viewParams(w, r)
	if !ok {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming is not supported")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	var last []byte
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	refresh := time.NewTicker(clockRefresh)
	defer refresh.Stop()
	for {
		fake, local := s.cfg.Fake.Changed(), s.localChange()
		st := s.state(user, channel)
		now := st.Now
		st.Now = 0 // the clock moves on every call; compare the rest
		key, err := json.Marshal(st)
		if err != nil {
			s.cfg.Logger.Error("sandbox: encode the view", "err", err)
			return
		}
		if !bytes.Equal(key, last) {
			st.Now = now
			data, _ := json.Marshal(st)
			if _, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", data); err != nil {
				return
			}
			flusher.Flush()
			last = key
		}
		select {
		case <-ctx.Done():
			return
		case <-fake:
		case <-local:
		case <-refresh.C:
			last = nil
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			flusher.Flush()
			continue // the view is read again, and sent only if it changed
		}
		// Let the changes that come together arrive together.
		select {
		case <-ctx.Done():
			return
		case <-time.After(settle):
		}
	}
}

// writeJSON writes v as the JSON answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
