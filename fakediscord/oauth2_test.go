package fakediscord_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// postToken posts a token request and returns the status and the body.
func postToken(t *testing.T, f *fakediscord.Fake, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(f.URL()+"/api/v10/oauth2/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp.StatusCode, body
}

// me reads /users/@me with an authorization header.
func me(t *testing.T, f *fakediscord.Fake, auth string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.URL()+"/api/v10/users/@me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp.StatusCode, body
}

func TestOAuth2CodeExchange(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	f := fakediscord.New(t, fakediscord.WithClock(func() time.Time { return now }))
	alice := fakediscord.OAuth2User{ID: "1001", Name: "Alice", Locale: "de"}
	form := func(code string) url.Values {
		return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {f.AppID}, "client_secret": {f.ClientSecret()}}
	}

	code, err := f.Authorize(f.AppID, alice, []string{"identify"})
	require.NoError(t, err)
	status, body := postToken(t, f, form(code))
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "Bearer", body["token_type"])
	assert.Equal(t, "identify", body["scope"])
	token, _ := body["access_token"].(string)
	require.NotEmpty(t, token)

	status, user := me(t, f, "Bearer "+token)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "1001", user["id"])
	assert.Equal(t, "Alice", user["global_name"])
	assert.Equal(t, "de", user["locale"])

	status, bot := me(t, f, "Bot "+f.Token())
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, f.AppID, bot["id"])

	// The code is good once.
	status, body = postToken(t, f, form(code))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "invalid_grant", body["error"])

	// A week later the token is dead.
	now = now.Add(fakediscord.TokenLifetime)
	status, _ = me(t, f, "Bearer "+token)
	assert.Equal(t, http.StatusUnauthorized, status)
}

func TestOAuth2Refusals(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	f := fakediscord.New(t, fakediscord.WithClock(func() time.Time { return now }))
	alice := fakediscord.OAuth2User{ID: "1001", Name: "Alice"}
	newCode := func(scopes ...string) string {
		code, err := f.Authorize(f.AppID, alice, scopes)
		require.NoError(t, err)
		return code
	}
	tests := []struct {
		name   string
		form   func() url.Values
		status int
		error  string
	}{
		{"wrong secret", func() url.Values {
			return url.Values{"grant_type": {"authorization_code"}, "code": {newCode("identify")}, "client_id": {f.AppID}, "client_secret": {"guess"}}
		}, http.StatusUnauthorized, "invalid_client"},
		{"other client", func() url.Values {
			return url.Values{"grant_type": {"authorization_code"}, "code": {newCode("identify")}, "client_id": {"42"}, "client_secret": {f.ClientSecret()}}
		}, http.StatusUnauthorized, "invalid_client"},
		{"unknown code", func() url.Values {
			return url.Values{"grant_type": {"authorization_code"}, "code": {"code.forged"}, "client_id": {f.AppID}, "client_secret": {f.ClientSecret()}}
		}, http.StatusBadRequest, "invalid_grant"},
		{"expired code", func() url.Values {
			code := newCode("identify")
			now = now.Add(fakediscord.CodeLifetime)
			return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {f.AppID}, "client_secret": {f.ClientSecret()}}
		}, http.StatusBadRequest, "invalid_grant"},
		{"other grant", func() url.Values {
			return url.Values{"grant_type": {"client_credentials"}, "client_id": {f.AppID}, "client_secret": {f.ClientSecret()}}
		}, http.StatusBadRequest, "unsupported_grant_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := postToken(t, f, tt.form())
			assert.Equal(t, tt.status, status)
			assert.Equal(t, tt.error, body["error"])
		})
	}

	t.Run("no identify scope", func(t *testing.T) {
		status, body := postToken(t, f, url.Values{"grant_type": {"authorization_code"}, "code": {newCode("guilds")}, "client_id": {f.AppID}, "client_secret": {f.ClientSecret()}})
		require.Equal(t, http.StatusOK, status)
		status, _ = me(t, f, "Bearer "+body["access_token"].(string))
		assert.Equal(t, http.StatusUnauthorized, status)
	})
	t.Run("authorize refusals", func(t *testing.T) {
		_, err := f.Authorize("42", alice, []string{"identify"})
		require.ErrorIs(t, err, fakediscord.ErrOAuth2)
		_, err = f.Authorize(f.AppID, alice, nil)
		require.ErrorIs(t, err, fakediscord.ErrOAuth2)
		_, err = f.Authorize(f.AppID, alice, []string{"email.everything"})
		require.ErrorIs(t, err, fakediscord.ErrOAuth2)
	})
	t.Run("forged bearer", func(t *testing.T) {
		status, _ := me(t, f, "Bearer access.forged")
		assert.Equal(t, http.StatusUnauthorized, status)
	})
}

func TestLaunchActivity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		flags int
		code  string // "" when accepted
	}{
		{"activities on", fakediscord.ApplicationFlagEmbedded, ""},
		{"activities off", 0, "50234"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakediscord.New(t, fakediscord.WithApplicationFlags(tt.flags))
			errs := make(chan error, 1)
			s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
				errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: fakediscord.InteractionResponseLaunchActivity})
			})
			register(t, s, fake)
			resp, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "join"})
			botErr := <-errs
			if tt.code == "" {
				require.NoError(t, err)
				require.NoError(t, botErr)
				assert.Equal(t, fakediscord.InteractionResponseLaunchActivity, resp.Type)
				assert.Nil(t, resp.Message, "a launch posts no message")
				return
			}
			require.Error(t, botErr)
			assert.Contains(t, botErr.Error(), tt.code)
		})
	}
}

// putCommands overwrites the commands of scope ("" global) as the bot.
func putCommands(t *testing.T, f *fakediscord.Fake, guild string, cmds []map[string]any) (int, map[string]any) {
	t.Helper()
	path := "/api/v10/applications/" + f.AppID + "/commands"
	if guild != "" {
		path = "/api/v10/applications/" + f.AppID + "/guilds/" + guild + "/commands"
	}
	body, _ := json.Marshal(cmds)
	req, err := http.NewRequest(http.MethodPut, f.URL()+path, strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+f.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out) // an array when it succeeds
	return resp.StatusCode, out
}

func TestEntryPointCommand(t *testing.T) {
	f := fakediscord.New(t, fakediscord.WithApplicationFlags(fakediscord.ApplicationFlagEmbedded))
	global := f.Commands("")
	require.Len(t, global, 1, "Discord creates the Entry Point when Activities are enabled")
	assert.Equal(t, fakediscord.CommandTypePrimaryEntryPoint, global[0].Type)
	entryID := global[0].ID
	chat := map[string]any{"name": "malefiz", "description": "Play", "type": 1}
	entry := map[string]any{"name": "launch", "description": "Open", "type": 4, "handler": fakediscord.EntryPointLaunch}
	tests := []struct {
		name   string
		guild  string
		cmds   []map[string]any
		status int
		code   float64
	}{
		{"global without the Entry Point", "", []map[string]any{chat}, http.StatusBadRequest, 50240},
		{"an Entry Point in a guild", f.GuildID, []map[string]any{chat, entry}, http.StatusBadRequest, 50035},
		{"guild commands alone", f.GuildID, []map[string]any{chat}, http.StatusOK, 0},
		{"global with the Entry Point", "", []map[string]any{chat, entry}, http.StatusOK, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := putCommands(t, f, tt.guild, tt.cmds)
			assert.Equal(t, tt.status, status, "%v", out)
			if tt.code != 0 {
				assert.Equal(t, tt.code, out["code"])
			}
		})
	}
	global = f.Commands("")
	require.Len(t, global, 2)
	assert.Equal(t, entryID, global[1].ID, "the Entry Point keeps its ID")

	plain := fakediscord.New(t)
	assert.Empty(t, plain.Commands(""), "no Entry Point without Activities")
	status, _ := putCommands(t, plain, "", []map[string]any{chat, entry})
	assert.Equal(t, http.StatusBadRequest, status, "an Entry Point needs Activities on")
}
