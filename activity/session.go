package activity

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// ErrSession is the error of a session token that is missing, forged or
// expired: the page signs in again.
var ErrSession = errors.New("activity: no valid session")

// Session is who a page speaks for: the Discord user its access token
// showed (/users/@me), in their language, until it expires; and where the
// Activity was opened: the guild (checked at sign-in: Discord says the
// user is a member; "" in a DM) and the channel, as the page said. It travels as
// a token signed by the server (see sessions), so that any replica reads
// it and the page cannot change it.
type Session struct {
	UserID  string    `json:"u"`
	Name    string    `json:"n"`
	Lang    string    `json:"l"`
	Guild   string    `json:"g,omitempty"`
	Channel string    `json:"c,omitempty"`
	Thread  bool      `json:"t,omitempty"` // the channel is a thread
	Expires time.Time `json:"e"`
	// Until is the last moment a renewal may reach: the access token's
	// expiry, and at most sessionMax after the sign-in.
	Until time.Time `json:"x,omitzero"`
}

// sessions signs and reads session tokens with a key derived from the
// client secret.
type sessions struct {
	key []byte
	now func() time.Time
}

// newSessions returns the signer of secret.
func newSessions(secret string, now func() time.Time) sessions {
	k := sha256.Sum256([]byte("malefiz activity session\x00" + secret))
	return sessions{key: k[:], now: now}
}

var b64 = base64.RawURLEncoding

// sign returns the token of s.
func (ss sessions) sign(s Session) string {
	body, _ := json.Marshal(s) // a struct of strings and a time: never fails
	p := b64.EncodeToString(body)
	return p + "." + b64.EncodeToString(ss.mac(p))
}

func (ss sessions) mac(p string) []byte {
	m := hmac.New(sha256.New, ss.key)
	m.Write([]byte(p))
	return m.Sum(nil)
}

// lang is the language of a session token signed by ss, expired or not,
// "" for any other token: the refusal of an expired session is in the
// user's language.
func (ss sessions) lang(token string) string {
	p, sig, ok := strings.Cut(token, ".")
	if !ok {
		return ""
	}
	got, err := b64.DecodeString(sig)
	if err != nil || !hmac.Equal(got, ss.mac(p)) {
		return ""
	}
	body, err := b64.DecodeString(p)
	var s Session
	if err != nil || json.Unmarshal(body, &s) != nil {
		return ""
	}
	return s.Lang
}

// read returns the session of token, or ErrSession.
func (ss sessions) read(token string) (Session, error) {
	p, sig, ok := strings.Cut(token, ".")
	if !ok || token == "" {
		return Session{}, ErrSession
	}
	// The signature is compared as written: base64 decodes more than
	// one spelling of the same bytes (the last character's unused bits),
	// and a token verifies only as it was signed.
	if !hmac.Equal([]byte(sig), []byte(b64.EncodeToString(ss.mac(p)))) {
		return Session{}, ErrSession
	}
	body, err := b64.DecodeString(p)
	if err != nil {
		return Session{}, ErrSession
	}
	var s Session
	if json.Unmarshal(body, &s) != nil || s.UserID == "" || !ss.now().Before(s.Expires) {
		return Session{}, ErrSession
	}
	return s, nil
}
