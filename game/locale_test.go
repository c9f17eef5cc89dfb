package game

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/store"
)

// countingLocales counts the locales written through to the store.
type countingLocales struct {
	*store.DB
	writes int
}

func (c *countingLocales) SetUserLocale(ctx context.Context, userID, locale string) error {
	c.writes++
	return c.DB.SetUserLocale(ctx, userID, locale)
}

// TestRememberLocaleWritesOnlyNews: the first interaction of a user keeps
// their locale; the same one again writes nothing until it is no longer
// fresh; a new one is written at once; an empty one is no news.
func TestRememberLocaleWritesOnlyNews(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var db *countingLocales
	e := newEnv(t, func(c *Config) {
		db = &countingLocales{DB: c.Store.(*store.DB)}
		c.Store, c.Now = db, func() time.Time { return now }
	})
	ctx := t.Context()
	for _, step := range []struct {
		name, locale string
		after        time.Duration
		writes       int
		stored       string
	}{
		{"first", "de", 0, 1, "de"},
		{"the same", "de", time.Minute, 1, "de"},
		{"no locale", "", time.Minute, 1, "de"},
		{"another", "fr", time.Minute, 2, "fr"},
		{"the same, later", "fr", localeFresh, 3, "fr"},
	} {
		now = now.Add(step.after)
		require.NoError(t, e.s.RememberLocale(ctx, ben.UserID, step.locale), step.name)
		assert.Equal(t, step.writes, db.writes, step.name)
		us, err := e.db.UserSettings(ctx, ben.UserID)
		require.NoError(t, err)
		assert.Equal(t, step.stored, us.Locale, step.name)
	}
}
