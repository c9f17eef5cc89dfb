package table

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

// TestCheckOrigin: where a click may come from, with the turn message of
// the current turn recorded, or posted and not recorded yet (the game's
// lock ends before delivery).
func TestCheckOrigin(t *testing.T) {
	const (
		app, guild, channel = "9", "100", "200"
		lobby, recorded     = "1000", "2000" // the lobby and the recorded turn message
	)
	roll := func(game int64, turn int) string {
		return CustomID{Action: ActRoll, Game: game, Turn: turn}.String()
	}
	for _, tc := range []struct {
		name       string
		threaded   bool   // the game plays in a thread, not recorded yet
		at, msg    string // the click's channel and message
		author     string
		private    bool
		customID   string
		unrecorded bool
		refusal    locales.Key // "" when taken
	}{
		{name: "the recorded turn message", at: channel, msg: recorded, author: app, customID: roll(7, 1)},
		{name: "a newer message with this turn's control", at: channel, msg: "3000", author: app, customID: roll(7, 1), unrecorded: true},
		{name: "a newer message in the thread being made", threaded: true, at: lobby, msg: "3000", author: app,
			customID: roll(7, 1), unrecorded: true},
		{name: "an older message", at: channel, msg: "1500", author: app, customID: roll(7, 1), refusal: locales.ErrOldButton},
		{name: "a newer message with the last turn's control", at: channel, msg: "3000", author: app, customID: roll(7, 0),
			refusal: locales.ErrOldButton},
		{name: "a newer message with another game's control", at: channel, msg: "3000", author: app, customID: roll(8, 1),
			refusal: locales.ErrOldButton},
		{name: "a newer message with a lobby control", at: channel, msg: "3000", author: app,
			customID: CustomID{Action: ActJoin, Game: 7}.String(), refusal: locales.ErrOldButton},
		{name: "a newer message of someone else", at: channel, msg: "3000", author: "5", customID: roll(7, 1),
			refusal: locales.ErrForeignButton},
		{name: "a newer message in another channel", at: "201", msg: "3000", author: app, customID: roll(7, 1),
			refusal: locales.ErrForeignButton},
		{name: "a private message of the bot", at: channel, msg: "1500", author: app, private: true, customID: roll(7, 1)},
		{name: "no message", at: channel, author: app, customID: roll(7, 1), refusal: locales.ErrForeignButton},
		{name: "the lobby, from the thread's place", threaded: true, at: lobby, msg: lobby, author: app,
			customID: roll(7, 1), refusal: locales.ErrForeignButton},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, err := engine.NewGame([]engine.Color{engine.Red, engine.Green}, engine.Red, engine.Rules{})
			require.NoError(t, err)
			sg := &malefiz.Game{ID: 7, GuildID: guild, ChannelID: channel, Status: malefiz.StatusRunning,
				LobbyMessageID: lobby, TurnMessageID: recorded, Threaded: tc.threaded}
			tb := &Table{Game: sg, State: state}
			unrecorded, err := tb.CheckOrigin(Origin{GuildID: guild, ChannelID: tc.at, MessageID: tc.msg,
				FromBot: tc.author == app, Private: tc.private, CustomID: tc.customID})
			if tc.refusal != "" {
				var refusal *Refusal
				require.True(t, errors.As(err, &refusal), "got %v, want a refusal", err)
				assert.Equal(t, tc.refusal, refusal.Key)
				assert.Equal(t, recorded, sg.TurnMessageID, "a refused click names no turn message")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.unrecorded, unrecorded)
			if tc.private {
				assert.Equal(t, recorded, sg.TurnMessageID, "a private message is no turn message")
				return
			}
			assert.Equal(t, tc.msg, sg.TurnMessageID, "the table's turn message is the clicked one")
			if tc.threaded {
				assert.Equal(t, lobby, sg.ThreadID, "the thread has the lobby's ID")
			}
		})
	}
}
