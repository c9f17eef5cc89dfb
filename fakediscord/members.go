package fakediscord

import (
	"fmt"
	"net/http"
	"time"
)

// RouteGuildMember is Discord's Get Guild Member.
const RouteGuildMember = "GET /guilds/{guild}/members/{user}"

// codeUnknownGuild is Discord's JSON error code 10004, Unknown Guild.
const codeUnknownGuild = 10004

// Member is a user who is a member of one of the fake's guilds: whom GET
// /guilds/{guild}/members/{user} answers for. The bot is a member of
// every guild it is in without being listed.
type Member struct {
	ID   string // the user's snowflake
	Name string // the user's name; derived from the ID when empty
	Nick string // the member's nickname in the guild; none when empty
}

// member is a guild member as the fake keeps it.
type member struct {
	Member
	joined time.Time
}

// AddMember makes a user a member of guild, as joining the server does;
// adding a member again changes their name and nickname. It fails for a
// guild the bot is not in or an ID that is no snowflake.
func (f *Fake) AddMember(guild string, m Member) error {
	if !isSnowflake(m.ID) {
		return fmt.Errorf("%w: member ID %q is not a snowflake", ErrInvocation, m.ID)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.guild(guild); !ok {
		return fmt.Errorf("%w: the bot is not in guild %s", ErrInvocation, guild)
	}
	if f.members[guild] == nil {
		f.members[guild] = map[string]member{}
	}
	joined := f.now()
	if old, ok := f.members[guild][m.ID]; ok {
		joined = old.joined
	}
	f.members[guild][m.ID] = member{Member: m, joined: joined}
	return nil
}

// RemoveMember takes a user out of guild, as leaving the server (or a
// kick) does; it reports whether they were a member.
func (f *Fake) RemoveMember(guild, userID string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.members[guild][userID]; !ok {
		return false
	}
	delete(f.members[guild], userID)
	return true
}

// getGuildMember serves GET /guilds/{guild}/members/{user} as Discord
// does (https://discord.com/developers/docs/resources/guild#get-guild-member):
// with the bot's token, 200 and the guild member object for a member
// (the bot among them), 404 Unknown Member (10007) for a user who is not
// one, 404 Unknown Guild (10004) for a guild the bot is not in
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json),
// and 400 for an ID that is no snowflake. It needs no privileged intent:
// only listing the members (GET /guilds/{guild}/members) needs
// GUILD_MEMBERS.
func (f *Fake) getGuildMember(c *Call) (int, any) {
	guild, user := c.Param("guild"), c.Param("user")
	fe := formErrors{}
	if !isSnowflake(guild) {
		fe.add("NUMBER_TYPE_COERCE", "Value \""+guild+"\" is not snowflake.", "guild_id")
	}
	if !isSnowflake(user) {
		fe.add("NUMBER_TYPE_COERCE", "Value \""+user+"\" is not snowflake.", "user_id")
	}
	if len(fe) > 0 {
		return fe.err().reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.guild(guild); !ok {
		return (&apiError{status: http.StatusNotFound, Code: codeUnknownGuild, Message: "Unknown Guild"}).reply()
	}
	if user == f.AppID {
		return http.StatusOK, wireGuildMember(f.AppID, "malefiz-fake", "", time.Time{})
	}
	m, ok := f.members[guild][user]
	if !ok {
		return errUnknownMember().reply()
	}
	return http.StatusOK, wireGuildMember(m.ID, m.Name, m.Nick, m.joined)
}

// wireGuildMember is Discord's guild member object as Get Guild Member
// answers it (no permissions: those come only with an interaction).
func wireGuildMember(id, name, nick string, joined time.Time) map[string]any {
	if joined.IsZero() {
		joined = time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	}
	var n any
	if nick != "" {
		n = nick
	}
	return map[string]any{
		"user": wireUserNamed(id, name), "nick": n, "avatar": nil, "banner": nil, "roles": []string{},
		"joined_at": joined.UTC().Format("2006-01-02T15:04:05.000000+00:00"), "premium_since": nil,
		"deaf": false, "mute": false, "flags": 0, "pending": false, "communication_disabled_until": nil,
	}
}
