package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// A finished game's result shows each player's rating change. The store
// rates the game inside the commit that finishes it, and the result's
// post is completed there (withRatingsAtCommit): delivery sends it as
// committed.

// ratingLines are the rating changes of a finished game, one per seat:
// "🔴 <@1> 1512 → 1528 (+16)", a computer named as everywhere in lang
// ("🟢 Computer (normal) 1484 → 1468 (-16)").
func ratingLines(lang string, results []malefiz.Result) []string {
	results = slices.Clone(results)
	sort.SliceStable(results, func(i, j int) bool { return colorIndex(results[i].Color) < colorIndex(results[j].Color) })
	var out []string
	for _, r := range results {
		who := table.Mention(r.Player)
		if r.Computer {
			who = tr(lang, locales.Computer, tr(lang, levelName(strings.TrimPrefix(r.Player, "ai:"))))
		}
		if i := colorIndex(r.Color); i >= 0 {
			who = table.ColorEmoji[i] + " " + who
		}
		before, after := int(r.RatingBefore+0.5), int(r.RatingAfter+0.5)
		out = append(out, fmt.Sprintf("%s %d → %d (%+d)", who, before, after, after-before))
	}
	return out
}

// colorIndex is the index of a stored colour name, -1 for none.
func colorIndex(name string) int {
	for i, c := range table.Colors {
		if c.String() == name {
			return i
		}
	}
	return -1
}

// withRatings adds a finished game's rating changes to a result message's
// body (JSON), to its text (its first Text Display).
func withRatings(lang string, results []malefiz.Result, data json.RawMessage) (json.RawMessage, error) {
	if len(results) == 0 {
		return data, nil
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, err
	}
	var comps []any
	if err := json.Unmarshal(body["components"], &comps); err != nil || len(comps) == 0 {
		return data, err
	}
	appendToFirstText(comps, ratingLines(lang, results))
	body["components"] = mustJSON(comps)
	return mustJSON(body), nil
}

// upgradeRatings completes, once at start-up, the result posts that an
// older version committed without their ratings ("ratings": true in the
// payload, which asked the sender to add them at delivery): each gets its
// rating lines written into its stored body, composed as a commit of this
// version composes them, so that delivery never composes anything. It is
// done here in Go, not by a SQL migration, because the lines are words of
// the game's language (the computers' level names) that only the bot's
// locales know. An effect delivered meanwhile (by an older process) is
// left as it is. It returns how many it completed.
func upgradeRatings(ctx context.Context, db Outbox) (int, error) {
	posts, err := db.UndeliveredEffects(ctx, string(queue.Post))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range posts {
		var old struct {
			Ratings bool            `json:"ratings"`
			Body    json.RawMessage `json:"body"`
		}
		if err := json.Unmarshal(e.Payload, &old); err != nil || !old.Ratings {
			continue // an unreadable one is given up by the sender
		}
		results, err := db.GameResults(ctx, e.GameID)
		if err != nil {
			return n, err
		}
		g, err := db.Game(ctx, e.GameID)
		if err != nil {
			return n, err
		}
		var payload map[string]json.RawMessage
		if err := json.Unmarshal(e.Payload, &payload); err != nil {
			continue
		}
		body, err := withRatings(g.Locale, results, old.Body)
		if err != nil {
			return n, fmt.Errorf("effect %d: %w", e.ID, err)
		}
		payload["body"] = body
		delete(payload, "ratings")
		done, err := db.RewriteEffect(ctx, e.ID, mustJSON(payload))
		if err != nil {
			return n, err
		}
		if done {
			n++
		}
	}
	return n, nil
}
