package bot

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// TestUpgradeRatings: a result an older version committed with "ratings"
// set (the sender was to add them at delivery) is completed once at
// start-up with the lines a commit of this version writes; the rest of
// the outbox is left as it is.
func TestUpgradeRatings(t *testing.T) {
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "malefiz.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	g := &malefiz.Game{GuildID: "g", ChannelID: "c", HostID: "1", Status: malefiz.StatusRunning, Locale: "en",
		Options: malefiz.Options{Seats: 2, TurnTimeout: time.Hour}, State: []byte("s"),
		Seats: []malefiz.Seat{{Color: "red", UserID: "1", Name: "Anna"}, {Color: "green", Computer: "normal", Name: "Computer"}}}
	require.NoError(t, db.CreateGame(t.Context(), g))
	old := `{"op":"post","channel":"c","place":true,"ratings":true,` +
		`"body":{"flags":32768,"components":[{"type":17,"components":[{"type":10,"content":"Anna won"}]}]}}`
	other := `{"op":"post","channel":"c","body":{"content":"hello"}}`
	g.Status = malefiz.StatusFinished
	c := &store.Commit{Game: g, Rate: table.Elo, Results: []malefiz.Result{
		{Player: "1", Name: "Anna", Color: "red", Won: true, Turns: 10, GameTurns: 20},
		{Player: "ai:normal", Name: "Computer", Computer: true, Color: "green", Turns: 10, GameTurns: 20}},
		Effects: []store.Effect{{Kind: "post", Payload: []byte(old)}, {Kind: "post", Payload: []byte(other)}}}
	require.NoError(t, db.Commit(t.Context(), c))

	b := New(Config{Store: db})
	n, err := upgradeRatings(t.Context(), b.db)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	states, err := db.Effects(t.Context(), g.ID)
	require.NoError(t, err)
	var got map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(states[0].Payload, &got))
	assert.NotContains(t, got, "ratings", "nothing is left for delivery to compose")
	var body struct {
		Components []struct {
			Components []struct {
				Content string `json:"content"`
			} `json:"components"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(got["body"], &body))
	require.Len(t, body.Components, 1)
	assert.Equal(t, "Anna won\n🔴 <@1> 1500 → 1516 (+16)\n🟢 Computer (normal) 1500 → 1484 (-16)",
		body.Components[0].Components[0].Content)
	assert.JSONEq(t, other, string(states[1].Payload))

	n, err = upgradeRatings(t.Context(), b.db)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "once")
}
