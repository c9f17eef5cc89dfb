package bot

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// trendGames is how many of the last games the rating chart's alt text
// sums up.
const trendGames = 10

// everyGame reports whether s's rating history holds every game of the
// player, so that the chart starts from the initial rating.
func everyGame(s *store.PlayerStats) bool { return len(s.History) >= s.Games }

// altPlayer names s's player in alt text: the name, or a computer's level
// in words, without Markdown or emoji for a screen reader to spell out.
func altPlayer(lang string, s *store.PlayerStats, name string) string {
	if s.Computer {
		return tr(lang, locales.Computer, tr(lang, levelName(strings.TrimPrefix(s.Player, "ai:"))))
	}
	return name
}

// ratingAlt is the alt text of the rating chart of s's player, named
// name, in lang: what the chart spans (all games from the initial rating,
// or the last ones), the rating now, its highest and lowest after a game
// shown and when, and the change over the last trendGames games with
// their wins and losses. At most table.MaxAlt characters.
func ratingAlt(lang, name string, s *store.PlayerStats) string {
	h := s.History
	if len(h) == 0 {
		return ""
	}
	first, last := h[0], h[len(h)-1]
	when := tr(lang, locales.AltRatingFromTo, longDate(lang, first.At), longDate(lang, last.At))
	if sameDay(first.At, last.At) {
		when = tr(lang, locales.AltRatingOn, longDate(lang, last.At))
	}
	var parts []string
	if everyGame(s) {
		parts = append(parts, tr(lang, locales.AltRatingAll, len(h), name, when, rounded(store.InitialRating)))
	} else {
		parts = append(parts, tr(lang, locales.AltRatingLast, len(h), name, when))
	}
	parts = append(parts, tr(lang, locales.AltRatingNow, rounded(s.Rating)))

	// The highest and lowest, each the last time it was reached.
	hi, lo := first, first
	for _, p := range h {
		if rounded(p.Rating) >= rounded(hi.Rating) {
			hi = p
		}
		if rounded(p.Rating) <= rounded(lo.Rating) {
			lo = p
		}
	}
	if rounded(hi.Rating) != rounded(lo.Rating) {
		parts = append(parts, tr(lang, locales.AltRatingRange, rounded(hi.Rating), longDate(lang, hi.At), rounded(lo.Rating), longDate(lang, lo.At)))
	}

	// The trend: the last games against the rating before them.
	k := min(trendGames, len(h))
	before := store.InitialRating
	switch {
	case len(h) > k:
		before = h[len(h)-k-1].Rating
	case !everyGame(s):
		k-- // the first game shown has no rating before it here
		before = first.Rating
	}
	if k >= 2 {
		won := 0
		for _, p := range h[len(h)-k:] {
			if p.Won {
				won++
			}
		}
		change := tr(lang, locales.AltRatingSteady)
		switch d := rounded(last.Rating) - rounded(before); {
		case d > 0:
			change = tr(lang, locales.AltRatingUp, d)
		case d < 0:
			change = tr(lang, locales.AltRatingDown, -d)
		}
		parts = append(parts, tr(lang, locales.AltRatingTrend, k, change, tr(lang, locales.AltRatingRecord, won, k-won)))
	}
	text := strings.Join(parts, " ")
	if utf8.RuneCountInString(text) > table.MaxAlt {
		text = string([]rune(text)[:table.MaxAlt-1]) + "…"
	}
	return text
}

// rounded is a rating as the answers write it, to the nearest point.
func rounded(r float64) int { return int(r + 0.5) }

// sameDay reports whether a and b fall on the same day (in UTC, as the
// chart's dates).
func sameDay(a, b time.Time) bool {
	a, b = a.UTC(), b.UTC()
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}

// longDate writes t's day in words in lang ("March 14, 2025"), for a
// screen reader, which reads a written date better than an abbreviation.
func longDate(lang string, t time.Time) string {
	t = t.UTC()
	month := t.Month().String()
	if months := strings.Fields(tr(lang, locales.DateMonthsLong)); len(months) == 12 {
		month = months[t.Month()-1]
	}
	day := strconv.Itoa(t.Day())
	if t.Day() == 1 {
		day = tr(lang, locales.DateFirst)
	}
	return tr(lang, locales.DateLong, day, month, t.Year())
}
