package limits

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	gametable "github.com/malefiz-discord/malefiz/bot/table"

	"github.com/gorilla/websocket"
	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestActivityHearsTheOtherReplicas runs the bot with its Activity on
// PostgreSQL, opens the Activity of a game, and commits a change of that
// game through another handle on the database, as another replica would:
// the page connected here gets it pushed (LISTEN/NOTIFY). Skipped without
// PostgreSQL (scripts/test-postgres.sh).
func TestActivityHearsTheOtherReplicas(t *testing.T) {
	dbURL := harness.NewPostgresDB(t)
	fake := fakediscord.New(t, fakediscord.WithApplicationFlags(fakediscord.ApplicationFlagEmbedded))
	cfg := serve.DefaultConfig()
	cfg.Discord.Token, cfg.Discord.APIURL, cfg.Discord.GuildIDs = fake.Token(), fake.URL(), []string{fake.GuildID}
	cfg.Discord.ClientSecret = fake.ClientSecret()
	cfg.Database.Path = dbURL
	cfg.HTTP.Listen = "127.0.0.1:0"
	var logs harness.LogBuffer
	require.NoError(t, fake.AddMember(fake.GuildID, fakediscord.Member{ID: harness.Bob, Name: "bob"}))
	m := &serve.Main{Config: cfg, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	require.NoError(t, m.Run(t.Context()))
	t.Cleanup(func() { assert.NoError(t, m.Close()) })
	require.Eventually(t, func() bool { return len(fake.Commands(fake.GuildID)) > 0 }, 10*time.Second, 10*time.Millisecond)
	tb := openTable(t, fake, dbURL)

	// Bob's Activity, signed in on this replica.
	code, err := fake.Authorize(fake.AppID, fakediscord.OAuth2User{ID: harness.Bob, Name: "Bob"}, []string{"identify"})
	require.NoError(t, err)
	base := "http://" + m.HTTPAddr()
	resp, err := http.Post(base+"/.proxy/api/token", "application/json", strings.NewReader(`{"Code":"`+code+`","Guild":"`+fake.GuildID+`","Channel":"`+fake.ChannelID+`"}`))
	require.NoError(t, err)
	var tok struct{ Session string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&tok))
	resp.Body.Close()
	dialer := websocket.Dialer{Subprotocols: activity.LiveProtocols(tok.Session)}
	conn, _, err := dialer.Dial(fmt.Sprintf("ws%s/.proxy/api/games/%d/live", strings.TrimPrefix(base, "http"), tb.id), nil)
	require.NoError(t, err)
	defer conn.Close()
	var first gametable.Live
	require.NoError(t, conn.ReadJSON(&first))

	// Another replica commits a change of the game.
	sg, err := tb.db.Game(t.Context(), tb.id)
	require.NoError(t, err)
	sg.Seats[1].Name = "Bob (elsewhere)"
	require.NoError(t, tb.db.Commit(t.Context(), &store.Commit{Game: sg, Owner: "another replica", Events: []malefiz.Event{{Kind: malefiz.EventJoin, UserID: harness.Bob}}}))
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	var pushed gametable.Live
	require.NoError(t, conn.ReadJSON(&pushed), "the change committed elsewhere is pushed; logs: %s", logs.String())
	assert.Equal(t, "Bob (elsewhere)", pushed.Seats[1].Name)
}
