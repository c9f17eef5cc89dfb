package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"
)

// Call is one REST request the fake received and what it answered.
type Call struct {
	Seq    int       // 1 for the first call, then increasing
	Time   time.Time // when the request arrived
	Method string
	Path   string // below the API prefix, e.g. "/channels/1/messages"
	Query  url.Values
	Header http.Header

	// Route is the route the request matched, one of the Route*
	// constants, or "" when the fake does not know it (404).
	Route string
	// Params holds the values of the route's {wildcards}, e.g.
	// Params["channel"].
	Params map[string]string
	// Body is the JSON payload: the request body, or the payload_json
	// part of a multipart request.
	Body json.RawMessage
	// Files are the files of a multipart request, in order.
	Files []File

	Status   int             // status code answered
	Response json.RawMessage // body answered, if any
	Fault    bool            // answered by an injected fault (FailNext)
	Dropped  bool            // closed without an answer by a hook (OnNext)
	// Limited is the scope of a 429 answer (ScopeUser, ScopeGlobal,
	// ScopeShared), or ScopeCloudflare for a request refused by a ban;
	// "" for any other answer.
	Limited string

	// InteractionID is the interaction a callback or webhook call
	// belongs to, if any.
	InteractionID string
}

// File is a file uploaded in a multipart request.
type File struct {
	Field       string // form field, e.g. "files[0]"
	Name        string // file name, e.g. "board.png"
	ContentType string
	Data        []byte
}

// Param returns the value of a route wildcard, e.g. c.Param("channel").
func (c Call) Param(name string) string { return c.Params[name] }

// Decode unmarshals the call's JSON payload into v.
func (c Call) Decode(v any) error {
	if len(c.Body) == 0 {
		return errors.New("fakediscord: call has no JSON body")
	}
	return json.Unmarshal(c.Body, v)
}

// OK reports whether the fake answered with a 2xx status.
func (c Call) OK() bool { return c.Status >= 200 && c.Status < 300 }

// record stores c as the next call and wakes waiters.
func (f *Fake) record(c *Call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c.Seq = len(f.calls) + 1
	f.calls = append(f.calls, *c)
	f.notifyLocked()
}

// Calls returns every REST call so far, in order of arrival.
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Call(nil), f.calls...)
}

// Unexpected returns the calls to routes the fake does not know. A bot
// test may assert it is empty.
func (f *Fake) Unexpected() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Call
	for _, c := range f.calls {
		if c.Route == "" {
			out = append(out, c)
		}
	}
	return out
}

// WaitFor returns the first call, past or future, that match accepts.
// It gives up when ctx is done or the fake is closed. To wait for a call
// after a known one, match on Seq. match runs without the fake's lock
// held, so it may call the fake.
func (f *Fake) WaitFor(ctx context.Context, match Match) (Call, error) {
	return f.waitFrom(ctx, 0, match)
}

// waitFrom is WaitFor looking only at calls from index start on.
func (f *Fake) waitFrom(ctx context.Context, start int, match Match) (Call, error) {
	next := start
	for {
		f.mu.Lock()
		batch := f.calls[min(next, len(f.calls)):] // recorded calls never change
		next = len(f.calls)
		closed, changed := f.closed, f.changed
		f.mu.Unlock()
		for _, c := range batch {
			if match(c) {
				return c, nil
			}
		}
		if closed {
			return Call{}, ErrClosed
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return Call{}, ctx.Err()
		}
	}
}

// waitUntil calls cond, with f.mu held, after every change until it
// returns true, ctx is done or the fake closes.
func (f *Fake) waitUntil(ctx context.Context, cond func() bool) error {
	for {
		f.mu.Lock()
		if cond() {
			f.mu.Unlock()
			return nil
		}
		if f.closed {
			f.mu.Unlock()
			return ErrClosed
		}
		changed := f.changed
		f.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
