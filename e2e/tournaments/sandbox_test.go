package tournaments

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// TestSandboxSkipStartsATournament runs a tournament in the sandbox: a
// sign-up that starts in an hour, a person and computers, and the page's
// Skip ahead, which reaches the start time: the first round opens by
// itself, its tables games with their threads.
func TestSandboxSkipStartsATournament(t *testing.T) {
	logs := new(harness.LogBuffer)
	app, srv := harness.SeededSandboxLogs(t, logs, 5, nil, "alice", "bob")
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(tail(logs.String(), 3000))
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	resp, err := app.Fake.SlashCommand(ctx, fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "tournament new",
		Options: map[string]any{"name": "Sandbox Cup", "table-size": 2, "start-in": "1h", "computers": true}})
	require.NoError(t, err)
	require.NotNil(t, resp.Message)
	card := *resp.Message
	click := func(a table.Action) {
		t.Helper()
		_, err := app.Fake.Click(ctx, fakediscord.Invocation{User: harness.Alice, MessageID: card.ID, CustomID: control(t, card, a)})
		require.NoError(t, err)
	}
	click(table.ActTourJoin)
	for range 3 {
		click(table.ActTourComputer)
	}
	open, err := app.Main.DB().OpenTournaments(ctx, app.Fake.GuildID, app.Fake.ChannelID)
	require.NoError(t, err)
	require.Len(t, open, 1)
	require.Equal(t, malefiz.TournamentSignUp, open[0].Status, "it waits for its start time")

	skip, err := http.Post(srv.URL+"/api/skip", "application/json", bytes.NewReader([]byte(`{"by":"1h"}`)))
	require.NoError(t, err)
	skip.Body.Close()
	if skip.StatusCode != http.StatusOK {
		// The skip's own pass of the timers ran out of time (a loaded
		// machine): the sandbox's ticks go on with it.
		t.Logf("skip: %s", skip.Status)
	}

	// The skip ran the timers; on a slow machine the sandbox's own
	// ticks (every second) finish what the skip's did not.
	var tt *malefiz.Tournament
	require.Eventually(t, func() bool {
		tt, err = app.Main.DB().Tournament(ctx, open[0].ID)
		require.NoError(t, err)
		return tt.Status == malefiz.TournamentRunning && len(tt.Rounds) == 1 && tt.Rounds[0].Tables[0].GameID != 0 &&
			tt.Rounds[0].Tables[1].GameID != 0
	}, 25*time.Second, 20*time.Millisecond, "the skip reached the start time")
	require.Len(t, tt.Rounds, 1)
	require.Len(t, tt.Rounds[0].Tables, 2)
	for _, tb := range tt.Rounds[0].Tables {
		assert.NotZero(t, tb.GameID, "table %d opened as a game", tb.Number)
	}
}
