package fakediscord

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The routes the fake serves, as Call.Route reports them. The paths are
// below the API prefix /api/v9 (or /api/v10).
const (
	RouteGateway             = "GET /gateway"
	RouteGatewayBot          = "GET /gateway/bot"
	RouteCurrentUser         = "GET /users/@me"
	RouteCurrentApplication  = "GET /applications/@me"
	RouteOAuth2Application   = "GET /oauth2/applications/@me"
	RouteGlobalCommands      = "PUT /applications/{app}/commands"
	RouteGetGlobalCommands   = "GET /applications/{app}/commands"
	RouteGuildCommands       = "PUT /applications/{app}/guilds/{guild}/commands"
	RouteGetGuildCommands    = "GET /applications/{app}/guilds/{guild}/commands"
	RouteInteractionCallback = "POST /interactions/{interaction}/{token}/callback"
	RouteFollowup            = "POST /webhooks/{app}/{token}"
	RouteWebhookMessage      = "GET /webhooks/{app}/{token}/messages/{message}"
	RouteWebhookMessageEdit  = "PATCH /webhooks/{app}/{token}/messages/{message}"
	RouteWebhookMessageDel   = "DELETE /webhooks/{app}/{token}/messages/{message}"
	RouteMessageCreate       = "POST /channels/{channel}/messages"
	RouteMessage             = "GET /channels/{channel}/messages/{message}"
	RouteMessageEdit         = "PATCH /channels/{channel}/messages/{message}"
	RouteMessageDelete       = "DELETE /channels/{channel}/messages/{message}"
	RouteChannel             = "GET /channels/{channel}"
	RouteChannelEdit         = "PATCH /channels/{channel}"
	RouteThreadStart         = "POST /channels/{channel}/messages/{message}/threads"
	RouteThreadMemberAdd     = "PUT /channels/{channel}/thread-members/{user}"
	RouteThreadMemberRemove  = "DELETE /channels/{channel}/thread-members/{user}"
	RouteThreadMember        = "GET /channels/{channel}/thread-members/{user}"
	RouteThreadMembers       = "GET /channels/{channel}/thread-members"
	RouteDMCreate            = "POST /users/@me/channels"
)

// handler answers a matched call with a status and a JSON body (nil for
// none).
type handler func(c *Call) (int, any)

// callKey carries the *Call being served through the mux.
type callKey struct{}

// routes builds the REST mux.
func (f *Fake) routes() *http.ServeMux {
	m := http.NewServeMux()
	add := func(pattern string, auth bool, h handler) {
		m.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			c := r.Context().Value(callKey{}).(*Call)
			c.Route = pattern
			c.Params = pathParams(pattern, r)
			f.mu.Lock()
			f.autoArchiveLocked()
			f.mu.Unlock()
			f.tagInteraction(c)
			v := f.limit(c, auth)
			for k, vs := range v.header {
				w.Header()[k] = vs
			}
			if v.status != 0 {
				c.Limited = v.scope
				f.write(w, c, v.status, v.body, nil)
				return
			}
			f.answer(w, c, auth, h)
		})
	}
	add(RouteGateway, false, f.getGateway)
	add(RouteGatewayBot, true, f.getGatewayBot)
	add(RouteCurrentUser, false, f.currentUser) // the bot, or a user's bearer token
	add(RouteCurrentApplication, true, f.getApplication)
	add(RouteOAuth2Application, true, f.getApplication)
	add(RouteGlobalCommands, true, f.putCommands)
	add(RouteGetGlobalCommands, true, f.getCommands)
	add(RouteGuildCommands, true, f.putCommands)
	add(RouteGetGuildCommands, true, f.getCommands)
	add(RouteInteractionCallback, false, f.interactionCallback)
	add(RouteFollowup, false, f.followup)
	add(RouteWebhookMessage, false, f.webhookMessage)
	add(RouteWebhookMessageEdit, false, f.webhookMessageEdit)
	add(RouteWebhookMessageDel, false, f.webhookMessageDelete)
	add(RouteMessageCreate, true, f.createMessage)
	add(RouteChannelMessages, true, f.channelMessages) // followup.go
	add(RouteMessage, true, f.getMessage)
	add(RouteMessageEdit, true, f.editMessage)
	add(RouteMessageDelete, true, f.deleteMessage)
	add(RouteChannel, true, f.getChannel)
	add(RouteChannelEdit, true, f.editChannel)
	add(RouteThreadStart, true, f.startThread)
	add(RouteThreadMemberAdd, true, f.addThreadMember)
	add(RouteThreadMemberRemove, true, f.removeThreadMember)
	add(RouteThreadMember, true, f.getThreadMember)
	add(RouteThreadMembers, true, f.listThreadMembers)
	add(RouteDMCreate, true, f.createDM)
	add(RouteGuildMember, true, f.getGuildMember) // members.go
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		c := r.Context().Value(callKey{}).(*Call)
		f.write(w, c, http.StatusNotFound, notFound, nil)
	})
	return m
}

// tagInteraction sets the InteractionID of a callback or webhook call.
func (f *Fake) tagInteraction(c *Call) {
	if id := c.Param("interaction"); id != "" {
		c.InteractionID = id
		return
	}
	if tok := c.Param("token"); tok != "" {
		f.mu.Lock()
		if it := f.interactions[tok]; it != nil {
			c.InteractionID = it.id
		}
		f.mu.Unlock()
	}
}

// apiPrefix matches the versioned API prefix of a request path.
var apiPrefix = regexp.MustCompile(`^/api(/v[0-9]+)?(/.*)$`)

// serve is the fake's HTTP handler: gateway, attachments and REST API.
func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/ws" || p == "/ws/":
		f.serveGateway(w, r)
		return
	case strings.HasPrefix(p, "/attachments/"):
		f.serveAttachment(w, r)
		return
	case tokenPath.MatchString(p): // a form, not JSON (oauth2.go)
		f.serveToken(w, r)
		return
	}
	c := &Call{
		Time:   time.Now(),
		Method: r.Method,
		Path:   p,
		Query:  r.URL.Query(),
		Header: r.Header.Clone(),
	}
	m := apiPrefix.FindStringSubmatch(p)
	if m == nil {
		f.write(w, c, http.StatusNotFound, notFound, nil)
		return
	}
	c.Path = m[2]
	if f.banned() {
		f.refuseBanned(w, c)
		return
	}
	if e := readBody(r, c); e != nil {
		f.write(w, c, e.status, e, nil)
		return
	}
	r2 := r.Clone(context.WithValue(r.Context(), callKey{}, c))
	r2.URL.Path = c.Path
	r2.URL.RawPath = ""
	f.mux.ServeHTTP(w, r2)
}

// answer checks authorization and injected faults, then runs h.
func (f *Fake) answer(w http.ResponseWriter, c *Call, auth bool, h handler) {
	if auth && c.Header.Get("Authorization") != "Bot "+f.token {
		f.write(w, c, http.StatusUnauthorized, &apiError{status: http.StatusUnauthorized, Message: "401: Unauthorized"}, nil)
		return
	}
	if ft, ok := f.takeFault(*c); ok {
		c.Fault = true
		status, body, header := ft.reply()
		f.write(w, c, status, body, header)
		return
	}
	if f.runHooks(*c, BeforeServe) {
		f.dropCall(w, c)
		return
	}
	status, body := h(c)
	if f.runHooks(*c, AfterServe) {
		f.dropCall(w, c)
		return
	}
	f.write(w, c, status, body, nil)
}

// write records c with its answer and sends the answer.
func (f *Fake) write(w http.ResponseWriter, c *Call, status int, body any, header http.Header) {
	var data []byte
	raw, isRaw := body.(rawBody)
	if isRaw {
		data = []byte(raw)
	} else if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			status, data = http.StatusInternalServerError, []byte(`{"message": "fakediscord: `+strconv.Quote(err.Error())+`", "code": 0}`)
		}
	}
	c.Status = status
	c.Response = data
	if c.Limited == "" && status == http.StatusTooManyRequests {
		c.Limited = header.Get("X-RateLimit-Scope")
		if c.Limited == "" {
			c.Limited = ScopeUser
		}
	}
	f.countAnswer(status, c.Limited)
	f.record(c)
	for k, v := range header {
		w.Header()[k] = v
	}
	if data != nil && !isRaw {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// wildcard matches a {name} segment of a route pattern.
var wildcard = regexp.MustCompile(`\{([a-z]+)\}`)

// pathParams returns the wildcard values of pattern in r.
func pathParams(pattern string, r *http.Request) map[string]string {
	out := map[string]string{}
	for _, m := range wildcard.FindAllStringSubmatch(pattern, -1) {
		out[m[1]] = r.PathValue(m[1])
	}
	return out
}

// apiError is a Discord-style error body.
type apiError struct {
	status  int
	Message string         `json:"message"`
	Code    int            `json:"code"`
	Errors  map[string]any `json:"errors,omitempty"`
}

// Error implements error.
func (e *apiError) Error() string {
	return strconv.Itoa(e.status) + " " + e.Message + " (" + strconv.Itoa(e.Code) + ")"
}

// reply returns e as a handler answer.
func (e *apiError) reply() (int, any) { return e.status, e }

// Discord error codes the fake answers with.
const (
	codeUnknownChannel      = 10003
	codeUnknownMember       = 10007
	codeUnknownUser         = 10013
	codeCannotDM            = 50007
	codeWrongChannelType    = 50024
	codeThreadArchived      = 50083
	codeThreadExists        = 160004
	codeUnknownMessage      = 10008
	codeUnknownWebhook      = 10015
	codeUnknownApplication  = 10002
	codeUnknownInteraction  = 10062
	codeMissingAccess       = 50001
	codeEmptyMessage        = 50006
	codeMissingPermissions  = 50013
	codeInvalidFormBody     = 50035
	codeAlreadyAcknowledged = 40060
	codeEntityTooLarge      = 40005
	codeInvalidJSON         = 50109
	codeOldEdits            = 30046
	codeDMsTooFast          = 40003
)

var notFound = &apiError{status: http.StatusNotFound, Message: "404: Not Found"}

func errUnknownMessage() *apiError {
	return &apiError{status: http.StatusNotFound, Code: codeUnknownMessage, Message: "Unknown Message"}
}

func errUnknownWebhook() *apiError {
	return &apiError{status: http.StatusNotFound, Code: codeUnknownWebhook, Message: "Unknown Webhook"}
}

func errUnknownInteraction() *apiError {
	return &apiError{status: http.StatusNotFound, Code: codeUnknownInteraction, Message: "Unknown interaction"}
}

func errMissingPermissions() *apiError {
	return &apiError{status: http.StatusForbidden, Code: codeMissingPermissions, Message: "Missing Permissions"}
}

func errMissingAccess() *apiError {
	return &apiError{status: http.StatusForbidden, Code: codeMissingAccess, Message: "Missing Access"}
}

// formErrors collects the field errors of an "Invalid Form Body" answer,
// nested by path as Discord nests them.
type formErrors map[string]any

// add records an error at path, e.g. ("components", "0", "custom_id").
func (fe formErrors) add(code, message string, path ...string) {
	m := map[string]any(fe)
	for _, p := range path {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	list, _ := m["_errors"].([]any)
	m["_errors"] = append(list, map[string]string{"code": code, "message": message})
}

// err returns the collected errors as an answer, or nil if there are none.
func (fe formErrors) err() *apiError {
	if len(fe) == 0 {
		return nil
	}
	return &apiError{status: http.StatusBadRequest, Code: codeInvalidFormBody, Message: "Invalid Form Body", Errors: fe}
}

// invalidForm returns a one-error "Invalid Form Body" answer.
func invalidForm(code, message string, path ...string) *apiError {
	fe := formErrors{}
	fe.add(code, message, path...)
	return fe.err()
}
