package fakediscord

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The OAuth2 routes of an Activity (see Authorize): the token exchange,
// form-encoded, and the current user read with the user's bearer token
// (RouteCurrentUser, which also answers the bot's token).
const RouteOAuth2Token = "POST /oauth2/token"

// Lifetimes of what Authorize and the token exchange hand out, as Discord
// gives them: an authorization code is short-lived and good once, an
// access token lasts a week.
const (
	CodeLifetime  = 10 * time.Minute
	TokenLifetime = 7 * 24 * time.Hour
)

// oauth2Scopes are the scopes the fake knows; only identify opens
// /users/@me.
var oauth2Scopes = []string{"identify", "guilds", "guilds.members.read", "rpc.activities.write", "applications.commands"}

// ErrOAuth2 is returned by Authorize for a request Discord's client
// refuses: another application's client ID, no scope or an unknown one.
var ErrOAuth2 = errors.New("fakediscord: authorize refused")

// oauth2 holds the codes and access tokens the fake handed out.
type oauth2 struct {
	once   sync.Once
	secret string
	mu     sync.Mutex
	codes  map[string]*grant
	tokens map[string]*grant
}

// grant is what a code or an access token stands for.
type grant struct {
	user    OAuth2User
	scopes  []string
	expires time.Time
}

// OAuth2User is the user an authorization is for, as /users/@me shows
// them.
type OAuth2User struct {
	ID       string
	Name     string
	Locale   string // default "en-US"
	GlobalID string // display name; default Name
}

func (o *oauth2) init() {
	o.once.Do(func() {
		o.secret = newToken("secret.")
		o.codes, o.tokens = map[string]*grant{}, map[string]*grant{}
	})
}

// ClientSecret returns the application's OAuth2 client secret, which the
// token exchange requires with the client ID (AppID).
func (f *Fake) ClientSecret() string {
	f.oauth.init()
	return f.oauth.secret
}

// Authorize stands in for the Discord client answering an Activity's
// authorize command (the user accepts the prompt): it returns an
// authorization code for user, good once within CodeLifetime, which the
// app's server exchanges at POST /oauth2/token. It refuses another
// application's client ID, no scope and unknown scopes.
func (f *Fake) Authorize(clientID string, user OAuth2User, scopes []string) (string, error) {
	f.oauth.init()
	switch {
	case clientID != f.AppID:
		return "", errors.Join(ErrOAuth2, errors.New("unknown application"))
	case len(scopes) == 0 || user.ID == "":
		return "", errors.Join(ErrOAuth2, errors.New("no scope or no user"))
	}
	for _, s := range scopes {
		if !slices.Contains(oauth2Scopes, s) {
			return "", errors.Join(ErrOAuth2, errors.New("invalid scope "+s))
		}
	}
	if user.Locale == "" {
		user.Locale = "en-US"
	}
	code := newToken("code.")
	f.oauth.mu.Lock()
	f.oauth.codes[code] = &grant{user: user, scopes: slices.Clone(scopes), expires: f.cfg.clock().Add(CodeLifetime)}
	f.oauth.mu.Unlock()
	return code, nil
}

// tokenPath is the token endpoint, with or without the API version.
var tokenPath = regexp.MustCompile(`^/api(/v[0-9]+)?/oauth2/token$`)

// oauth2Error is the error body of the token endpoint (RFC 6749 5.2).
type oauth2Error struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// serveToken answers POST /oauth2/token as Discord does: a form with
// grant_type authorization_code, the code, and the client's ID and secret
// (in the form or as HTTP Basic). A code is good once, before it expires;
// a wrong client is 401 invalid_client.
func (f *Fake) serveToken(w http.ResponseWriter, r *http.Request) {
	f.oauth.init()
	c := &Call{Time: time.Now(), Method: r.Method, Path: "/oauth2/token", Query: r.URL.Query(), Header: r.Header.Clone(), Route: RouteOAuth2Token}
	status, body := f.exchange(r)
	f.write(w, c, status, body, nil)
}

// exchange checks a token request and hands out the access token.
func (f *Fake) exchange(r *http.Request) (int, any) {
	if r.Method != http.MethodPost {
		return http.StatusMethodNotAllowed, &apiError{status: http.StatusMethodNotAllowed, Message: "405: Method Not Allowed"}
	}
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(ct) != "application/x-www-form-urlencoded" {
		return http.StatusBadRequest, oauth2Error{Error: "invalid_request", Description: "the body must be application/x-www-form-urlencoded"}
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 1<<14)
	if err := r.ParseForm(); err != nil {
		return http.StatusBadRequest, oauth2Error{Error: "invalid_request"}
	}
	form := r.PostForm
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	if id != f.AppID || subtle.ConstantTimeCompare([]byte(secret), []byte(f.oauth.secret)) != 1 {
		return http.StatusUnauthorized, oauth2Error{Error: "invalid_client"}
	}
	if form.Get("grant_type") != "authorization_code" {
		return http.StatusBadRequest, oauth2Error{Error: "unsupported_grant_type"}
	}
	code := form.Get("code")
	f.oauth.mu.Lock()
	defer f.oauth.mu.Unlock()
	g := f.oauth.codes[code]
	delete(f.oauth.codes, code) // good once, even when refused
	if g == nil || !f.cfg.clock().Before(g.expires) {
		return http.StatusBadRequest, oauth2Error{Error: "invalid_grant", Description: `Invalid "code" in request.`}
	}
	token := newToken("access.")
	f.oauth.tokens[token] = &grant{user: g.user, scopes: g.scopes, expires: f.cfg.clock().Add(TokenLifetime)}
	return http.StatusOK, map[string]any{
		"access_token": token, "token_type": "Bearer", "expires_in": int(TokenLifetime / time.Second),
		"refresh_token": newToken("refresh."), "scope": strings.Join(g.scopes, " "),
	}
}

// bearer returns the grant of a request's bearer token, if it is known,
// unexpired and has scope.
func (f *Fake) bearer(h http.Header, scope string) (*grant, bool) {
	token, ok := strings.CutPrefix(h.Get("Authorization"), "Bearer ")
	if !ok {
		return nil, false
	}
	f.oauth.init()
	f.oauth.mu.Lock()
	defer f.oauth.mu.Unlock()
	g := f.oauth.tokens[token]
	if g == nil || !f.cfg.clock().Before(g.expires) || !slices.Contains(g.scopes, scope) {
		return nil, false
	}
	return g, true
}

// currentUser serves GET /users/@me: the bot with the bot's token, the
// authorizing user with a bearer token that has the identify scope;
// anything else is 401.
func (f *Fake) currentUser(c *Call) (int, any) {
	if c.Header.Get("Authorization") == "Bot "+f.token {
		return f.getCurrentUser(c)
	}
	g, ok := f.bearer(c.Header, "identify")
	if !ok {
		return http.StatusUnauthorized, &apiError{status: http.StatusUnauthorized, Message: "401: Unauthorized"}
	}
	name := g.user.GlobalID
	if name == "" {
		name = g.user.Name
	}
	return http.StatusOK, map[string]any{
		"id": g.user.ID, "username": strings.ToLower(g.user.Name), "global_name": name, "discriminator": "0",
		"avatar": nil, "bot": false, "locale": g.user.Locale, "mfa_enabled": false, "public_flags": 0, "flags": 0,
	}
}

// ApplicationFlagEmbedded is the application flag of an app with
// Activities enabled (EMBEDDED, 1 << 17); set it with WithApplicationFlags.
const ApplicationFlagEmbedded = 1 << 17

// InteractionResponseLaunchActivity is the LAUNCH_ACTIVITY callback type:
// the client opens the app's Activity for the user; no message.
const InteractionResponseLaunchActivity discordgo.InteractionResponseType = 12

// launchRefusal is Discord's refusal of a LAUNCH_ACTIVITY answer: only an
// app with Activities enabled, and only to a command or a component.
func (f *Fake) launchRefusal(it *interaction) *apiError {
	if f.cfg.appFlags&ApplicationFlagEmbedded == 0 {
		return &apiError{status: http.StatusBadRequest, Code: codeActivitiesDisabled, Message: "Activities are not enabled for this application"}
	}
	if it.typ != discordgo.InteractionApplicationCommand && it.typ != discordgo.InteractionMessageComponent {
		return invalidForm("INTERACTION_RESPONSE_TYPE_INVALID", "This response type is not valid for this interaction", "type")
	}
	return nil
}

// codeActivitiesDisabled is the error code the fake answers a launch of an
// app without Activities with.
const codeActivitiesDisabled = 50234
