package fakediscord_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// TestGetGuildMember asks GET /guilds/{guild}/members/{user} as the
// Activity's sign-in does: a member and the bot are answered with the
// member object, anyone else with 404 Unknown Member, a guild the bot is
// not in with 404 Unknown Guild, a call without the bot's token with 401.
func TestGetGuildMember(t *testing.T) {
	t.Parallel()
	const alice, bob, eve = "1100000000000000001", "1100000000000000002", "1100000000000000099"
	fake := fakediscord.New(t, fakediscord.WithGuild(fakediscord.Guild{ID: "1000000000000000001",
		Members: []fakediscord.Member{{ID: alice, Name: "alice", Nick: "Ali"}}}))
	require.NoError(t, fake.AddMember(fake.GuildID, fakediscord.Member{ID: bob, Name: "bob"}))
	require.Error(t, fake.AddMember("1000000000000000002", fakediscord.Member{ID: eve}), "not a guild of the bot")
	require.Error(t, fake.AddMember(fake.GuildID, fakediscord.Member{ID: "eve"}), "not a snowflake")
	s := newSession(t, fake)

	tests := []struct {
		name         string
		guild, user  string
		status, code int    // 200 and 0 for a member
		wantName     string // the member's user name
		wantNick     string
	}{
		{"a member", fake.GuildID, alice, http.StatusOK, 0, "alice", "Ali"},
		{"a member added later", fake.GuildID, bob, http.StatusOK, 0, "bob", ""},
		{"the bot", fake.GuildID, fake.AppID, http.StatusOK, 0, "malefiz-fake", ""},
		{"not a member", fake.GuildID, eve, http.StatusNotFound, 10007, "", ""},
		{"a guild the bot is not in", "1000000000000000002", alice, http.StatusNotFound, 10004, "", ""},
		{"a user ID that is no snowflake", fake.GuildID, "alice", http.StatusBadRequest, 50035, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := s.GuildMember(tt.guild, tt.user)
			if tt.status != http.StatusOK {
				requireCode(t, err, tt.status, tt.code)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.user, m.User.ID)
			assert.Equal(t, tt.wantName, m.User.Username)
			assert.Equal(t, tt.wantNick, m.Nick)
			assert.Equal(t, tt.guild, m.GuildID, "discordgo fills the guild in")
			assert.False(t, m.JoinedAt.IsZero())
		})
	}

	t.Run("left", func(t *testing.T) {
		assert.True(t, fake.RemoveMember(fake.GuildID, bob))
		assert.False(t, fake.RemoveMember(fake.GuildID, bob), "gone already")
		_, err := s.GuildMember(fake.GuildID, bob)
		requireCode(t, err, http.StatusNotFound, 10007)
	})

	t.Run("without the bot's token", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, fake.URL()+"/api/v10/guilds/"+fake.GuildID+"/members/"+alice, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	})
}
