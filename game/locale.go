package game

import (
	"context"
	"sync"
	"time"
)

// Each player in their own language (issue 39): every interaction and the
// Activity's sign-in tell the service the user's Discord locale, which the
// store keeps with the user's settings; the table writes a user's direct
// messages, made when no interaction of theirs is at hand, in it.

// localeFresh is how long the service trusts the locale it last stored
// for a user: an interaction within it with the same locale writes
// nothing. Another replica may store a newer one meanwhile; after this
// long, the next interaction writes it again.
const localeFresh = 10 * time.Minute

// maxLocales bounds the users whose stored locale the service remembers;
// past it, it forgets them all (the next interactions write again).
const maxLocales = 100_000

// Locales is what the store keeps of a user's language.
type Locales interface {
	SetUserLocale(ctx context.Context, userID, locale string) error
}

// knownLocales are the locales the service stored, by user, with when.
type knownLocales struct {
	mu    sync.Mutex
	users map[string]knownLocale
}

type knownLocale struct {
	locale string
	at     time.Time
}

// RememberLocale stores userID's Discord locale ("de", "pt-BR") unless it
// stored the same one in the last localeFresh. An empty locale or user is
// no news.
func (s *Service) RememberLocale(ctx context.Context, userID, locale string) error {
	if userID == "" || locale == "" {
		return nil
	}
	now := s.now()
	k := &s.locales
	k.mu.Lock()
	if known, ok := k.users[userID]; ok && known.locale == locale && now.Sub(known.at) < localeFresh {
		k.mu.Unlock()
		return nil
	}
	k.mu.Unlock()
	if err := s.db.SetUserLocale(ctx, userID, locale); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.users == nil || len(k.users) >= maxLocales {
		k.users = map[string]knownLocale{}
	}
	k.users[userID] = knownLocale{locale: locale, at: now}
	return nil
}
