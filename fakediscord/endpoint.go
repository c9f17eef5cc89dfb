package fakediscord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// RouteHTTPInteraction is the Route of the calls that record an
// interaction delivered to an interactions endpoint and the HTTP answer
// the bot gave; they are no REST calls. Path is the endpoint's URL, Body
// and Files the callback the answer carried, Header the answer's headers.
// Status is the endpoint's status when it is not 2xx, 0 when it gave no
// answer in time, and otherwise what the fake made of the callback: 204
// when it was applied, or the error status a REST callback with the same
// body would get (the error in Response).
const RouteHTTPInteraction = "POST {interactions endpoint}"

// webhookDelivery is how the fake delivers interactions over HTTP; its
// fields are guarded by Fake.mu.
type webhookDelivery struct {
	endpoints []string
	next      int
}

// pickLocked returns the endpoint for an interaction: the one asked for,
// else the next one in turn, or "" for the gateway.
func (w *webhookDelivery) pickLocked(asked string) string {
	if asked != "" || len(w.endpoints) == 0 {
		return asked
	}
	e := w.endpoints[w.next%len(w.endpoints)]
	w.next++
	return e
}

// webhookClient posts interactions; it never uses a proxy.
var webhookClient = &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64}}

// WithHTTPInteractions delivers interactions to interactions endpoints
// (the application's Interactions Endpoint URL) instead of the gateway:
// each SlashCommand and Click is POSTed to the next endpoint in turn (or
// to Invocation.Endpoint), signed with key as Discord signs
// (X-Signature-Ed25519 is the hex Ed25519 signature of
// X-Signature-Timestamp followed by the body). The HTTP answer is the
// callback: JSON, or multipart/form-data with payload_json and files[n];
// it is checked and applied like a REST callback, within the callback
// deadline. A nil key means a generated one; PublicKey returns it.
// Endpoints may also be set later with SetInteractionEndpoints.
func WithHTTPInteractions(key ed25519.PrivateKey, endpoints ...string) Option {
	return func(c *config) {
		if key != nil {
			c.key = key
		}
		c.endpoints = append([]string(nil), endpoints...)
	}
}

// DefaultHTTPResponseDelay is a realistic time between an interactions
// endpoint's answer and the message Discord makes of it (see
// WithResponseDelay): issue 23 saw @original still unknown right after
// the answer.
const DefaultHTTPResponseDelay = 30 * time.Millisecond

// defaultHTTPResponseDelay is the delay used when WithResponseDelay is
// not given: DefaultHTTPResponseDelay, so that every test in HTTP mode
// meets the race of issue 23 (the bot retries an @original that is not
// there yet).
const defaultHTTPResponseDelay = DefaultHTTPResponseDelay

// WithResponseDelay sets how long after an interactions endpoint's
// answer of type 4 or 5 the message it creates is made, as on Discord,
// where the message exists a little after the HTTP response: until then
// GET, PATCH and DELETE /webhooks/{app}/{token}/messages/@original answer
// 404 with code 10015 "Unknown Webhook". The message is in the fake's
// model (Response.Message, ChannelMessages) at once. Callbacks over REST
// (gateway mode) make their message before they are answered, as on
// Discord, and have no delay. The default is DefaultHTTPResponseDelay;
// WithResponseDelay(0) makes the message at once.
func WithResponseDelay(d time.Duration) Option {
	return func(c *config) { c.responseDelay = &d }
}

// httpResponseDelay returns the delay of WithResponseDelay or its default.
func (f *Fake) httpResponseDelay() time.Duration {
	if d := f.cfg.responseDelay; d != nil {
		return *d
	}
	return defaultHTTPResponseDelay
}

// PublicKey returns the application's public key, which verifies the
// signatures of interactions delivered over HTTP (verify_key in GET
// /applications/@me, hex encoded).
func (f *Fake) PublicKey() ed25519.PublicKey {
	return f.cfg.key.Public().(ed25519.PublicKey)
}

// SetInteractionEndpoints replaces the interactions endpoints the fake
// delivers to in turn; none means the gateway.
func (f *Fake) SetInteractionEndpoints(urls ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.web = webhookDelivery{endpoints: append([]string(nil), urls...)}
}

// signedRequest returns a POST of body to endpoint with Discord's headers,
// signed with key at ts.
func signedRequest(ctx context.Context, endpoint string, body []byte, key ed25519.PrivateKey, ts time.Time) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	stamp := strconv.FormatInt(ts.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), body...))))
	return req, nil
}

// post sends a signed interaction and reads the answer into a call
// recorded with RouteHTTPInteraction. It returns the call and, if the
// endpoint answered 2xx, true.
func (f *Fake) post(ctx context.Context, endpoint string, body []byte, interactionID string) (*Call, bool) {
	c := &Call{Method: http.MethodPost, Path: endpoint, Route: RouteHTTPInteraction, InteractionID: interactionID, Params: map[string]string{}}
	req, err := signedRequest(ctx, endpoint, body, f.cfg.key, time.Now())
	if err != nil {
		return f.noAnswer(c, err), false
	}
	res, err := webhookClient.Do(req)
	if err != nil {
		return f.noAnswer(c, err), false
	}
	defer func() { _ = res.Body.Close() }()
	c.Time = time.Now()
	c.Header = res.Header.Clone()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		data, _ := io.ReadAll(res.Body)
		c.Status, c.Response = res.StatusCode, asJSON(data)
		return c, false
	}
	if e := readPayload(res.Header.Get("Content-Type"), res.Body, c); e != nil {
		c.Status, c.Response = e.status, mustJSON(e)
		return c, false
	}
	return c, true
}

// noAnswer fills c for an endpoint that gave no answer.
func (f *Fake) noAnswer(c *Call, err error) *Call {
	c.Time = time.Now()
	c.Status, c.Response = 0, mustJSON("no answer: "+err.Error())
	return c
}

// asJSON returns data if it is JSON, else data as a JSON string.
func asJSON(data []byte) json.RawMessage {
	if len(data) > 0 && json.Valid(data) {
		return data
	}
	return mustJSON(string(data))
}

// mustJSON encodes v, which always encodes.
func mustJSON(v any) json.RawMessage {
	data, _ := json.Marshal(v)
	return data
}

// invokeHTTP delivers an interaction to an endpoint and applies the
// callback its answer carries.
func (f *Fake) invokeHTTP(ctx context.Context, it *interaction, payload any, endpoint string) (*Response, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("interaction %s: %w", it.id, err)
	}
	f.mu.Lock()
	it.dispatched, it.born = time.Now(), f.now()
	f.interactions[it.token] = it
	f.mu.Unlock()
	reqCtx := ctx
	if d := f.cfg.callbackDeadline; d > 0 {
		var cancel context.CancelFunc
		reqCtx, cancel = context.WithDeadline(ctx, it.dispatched.Add(d))
		defer cancel()
	}
	c, ok := f.post(reqCtx, endpoint, body, it.id)
	if ok {
		c.Status, c.Response = f.answerHTTP(it, c)
	}
	f.record(c)
	f.mu.Lock()
	resp := it.resp
	f.mu.Unlock()
	if resp == nil {
		resp = &Response{InteractionID: it.id, Token: it.token, Data: c.Body, Files: c.Files, Latency: c.Time.Sub(it.dispatched)}
	}
	resp.Call = *c
	if !c.OK() {
		return resp, fmt.Errorf("interaction %s: endpoint %s: answer refused with %d after %v: %s", it.id, endpoint, c.Status, resp.Latency, c.Response)
	}
	return resp, nil
}

// answerHTTP applies the callback of an endpoint's answer and returns the
// status and error body a REST callback would get.
func (f *Fake) answerHTTP(it *interaction, c *Call) (int, json.RawMessage) {
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if c.Decode(&body) != nil {
		e := invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
		return e.status, mustJSON(e)
	}
	data, e := fields(body.Data)
	if e != nil {
		return e.status, mustJSON(e)
	}
	f.mu.Lock()
	status, ans := f.answerLocked(it, c, body.Type, body.Data, data)
	if status/100 == 2 && (body.Type == discordgo.InteractionResponseChannelMessageWithSource ||
		body.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource) {
		it.readyAt = time.Now().Add(f.httpResponseDelay())
	}
	f.mu.Unlock()
	if ans == nil {
		return status, nil
	}
	return status, mustJSON(ans)
}

// Ping sends a PING interaction (type 1), as Discord does when the
// Interactions Endpoint URL is saved, to endpoint ("" for the next one in
// turn), and checks that the answer is a PONG: 200 with {"type": 1}. The
// exchange is recorded as a call with RouteHTTPInteraction.
func (f *Fake) Ping(ctx context.Context, endpoint string) error {
	f.mu.Lock()
	endpoint = f.web.pickLocked(endpoint)
	f.mu.Unlock()
	if endpoint == "" {
		return fmt.Errorf("fakediscord: ping: no interactions endpoint")
	}
	id := newID()
	body := mustJSON(map[string]any{
		"id": id, "application_id": f.AppID, "type": discordgo.InteractionPing,
		"token": newToken("aW50ZXJhY3Rpb24."), "version": 1,
		"user": wireUserNamed("643945264868098049", "discord"),
	})
	c, ok := f.post(ctx, endpoint, body, id)
	if ok {
		var pong struct {
			Type discordgo.InteractionResponseType `json:"type"`
		}
		if c.Decode(&pong) != nil || pong.Type != discordgo.InteractionResponsePong {
			c.Status, c.Response = http.StatusBadRequest, mustJSON(invalidForm("BASE_TYPE_CHOICES", "A PING must be answered with a PONG (type 1).", "type"))
		} else {
			c.Status = http.StatusNoContent
		}
	}
	f.record(c)
	if !c.OK() {
		return fmt.Errorf("fakediscord: ping %s: answer %d: %s", endpoint, c.Status, c.Response)
	}
	return nil
}

// Tamper is a way a request to an interactions endpoint can fail
// verification; see SendTampered.
type Tamper int

// The tampered requests SendTampered sends.
const (
	// TamperWrongKey signs with a key that is not the application's.
	TamperWrongKey Tamper = iota + 1
	// TamperBody signs the payload, then sends it with the invoking
	// user's ID changed.
	TamperBody
	// TamperOldTimestamp signs correctly with a timestamp ten minutes
	// old: a replayed request.
	TamperOldTimestamp
	// TamperNoSignature leaves out X-Signature-Ed25519.
	TamperNoSignature
	// TamperNoTimestamp leaves out X-Signature-Timestamp.
	TamperNoTimestamp
)

// SendTampered builds the interaction inv describes (a click when
// CustomID is set, else a slash command), sends it to an interactions
// endpoint (inv.Endpoint or the next one) with its signature broken the
// way t says, and returns the HTTP status the endpoint answered; a
// verifying bot answers 401. The interaction is not registered: a bot
// that acts on it anyway gets 404 Unknown interaction or Unknown Webhook
// for its callbacks and follow-ups.
func (f *Fake) SendTampered(ctx context.Context, inv Invocation, t Tamper) (int, error) {
	f.mu.Lock()
	var it *interaction
	var payload *wireInteraction
	var err error
	if inv.CustomID != "" {
		it, payload, err = f.componentInteractionLocked(inv)
	} else {
		it, payload, err = f.commandInteractionLocked(inv)
	}
	endpoint := ""
	if err == nil {
		endpoint = f.web.pickLocked(it.endpoint)
	}
	f.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if endpoint == "" {
		return 0, fmt.Errorf("fakediscord: send tampered: no interactions endpoint")
	}
	body := mustJSON(payload)
	key, ts := f.cfg.key, time.Now()
	switch t {
	case TamperWrongKey:
		_, key, _ = ed25519.GenerateKey(nil)
	case TamperOldTimestamp:
		ts = ts.Add(-10 * time.Minute)
	}
	req, err := signedRequest(ctx, endpoint, body, key, ts)
	if err != nil {
		return 0, err
	}
	switch t {
	case TamperBody:
		changed := bytes.ReplaceAll(body, []byte(`"`+it.user+`"`), []byte(`"`+newID()+`"`))
		req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(changed)), int64(len(changed))
		req.GetBody = nil
	case TamperNoSignature:
		req.Header.Del("X-Signature-Ed25519")
	case TamperNoTimestamp:
		req.Header.Del("X-Signature-Timestamp")
	case TamperWrongKey, TamperOldTimestamp:
	default:
		return 0, fmt.Errorf("fakediscord: send tampered: unknown tamper %d", t)
	}
	res, err := webhookClient.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res.StatusCode, nil
}
