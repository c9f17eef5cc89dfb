package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// defaultDeferAfter is how long an interaction delivered over HTTP may take
// before the endpoint defers it: inside Discord's 3 s with room for the
// way back.
const defaultDeferAfter = 2500 * time.Millisecond

// Limits of a request to the interactions endpoint.
const (
	maxInteractionBody = 1 << 20          // Discord's payloads are a few KB
	maxSignatureAge    = 5 * time.Minute  // older timestamps are replays
	maxSignatureAhead  = 30 * time.Second // clocks differ a little
)

// InteractionsHandler returns the handler of the application's Interactions
// Endpoint URL: Discord POSTs every interaction to it instead of sending it
// over the gateway. Each request is verified with the application's public
// key (a bad or missing signature, or a timestamp older than five minutes,
// is answered 401 and nothing else happens); a PING is answered with a PONG;
// a type the bot does not handle (a modal's submit, an autocompletion) is
// 400; a command or a click is handled as one from the gateway, and its answer
// is the HTTP response itself (JSON, or multipart/form-data with
// payload_json and the files when it carries the board). An answer not
// ready within Config.DeferAfter is deferred ("thinking…", or a deferred
// update for a click) and finished through the interaction's webhook.
//
// The work of an interaction outlives its HTTP request (effects are
// delivered after the answer); Wait waits for it.
func (b *Bot) InteractionsHandler(publicKey ed25519.PublicKey) http.Handler {
	return &interactionsEndpoint{b: b, key: publicKey}
}

// interactionsEndpoint is the handler InteractionsHandler returns.
type interactionsEndpoint struct {
	b   *Bot
	key ed25519.PublicKey
}

// ServeHTTP verifies, decodes and answers one interaction.
func (e *interactionsEndpoint) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	req.Body = http.MaxBytesReader(w, req.Body, maxInteractionBody)
	if !freshTimestamp(req.Header.Get("X-Signature-Timestamp"), time.Now()) || !discordgo.VerifyInteraction(req, e.key) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	i, err := decodeInteraction(body)
	if err != nil {
		http.Error(w, "not an interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		_ = writeResponse(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		if e.b.hooks.Interaction != nil {
			e.b.hooks.Interaction(KindPing, OutcomeOK, time.Since(start))
		}
		return
	}
	if i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionMessageComponent {
		// The bot makes no modals and offers no autocompletion: nothing
		// would answer it.
		http.Error(w, "interaction type not handled", http.StatusBadRequest)
		return
	}
	r := e.b.newRequest(i)
	if r == nil {
		http.Error(w, "interaction without a user", http.StatusBadRequest)
		return
	}
	x := &exchange{ready: make(chan struct{}), sent: make(chan struct{}), handled: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r.ctx = ctx
	r.answer = func(resp *discordgo.InteractionResponse) error {
		return e.answer(ctx, x, i, resp)
	}
	e.b.inflight.Add(1)
	go func() {
		defer e.b.inflight.Done()
		defer cancel()
		defer close(x.handled)
		e.b.serve(ctx, r, start)
	}()
	timer := time.NewTimer(e.b.deferAt - time.Since(start))
	defer timer.Stop()
	select {
	case <-x.ready:
	case <-x.handled:
	case <-timer.C:
	case <-req.Context().Done():
	}
	defer close(x.sent)
	resp := x.take(deferralFor(i), isClosed(x.handled))
	if resp == nil {
		x.writeErr = errNoAnswer
		http.Error(w, "the interaction got no answer", http.StatusInternalServerError)
		return
	}
	x.writeErr = writeResponse(w, resp)
}

// errNoAnswer is the write error of an interaction handled without answer.
var errNoAnswer = errors.New("bot: the interaction was handled without an answer")

// isClosed reports whether c is closed.
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// exchange hands an interaction's answer from the goroutine handling it to
// the HTTP response, or tells the goroutine that the endpoint deferred and
// the answer goes through the webhook.
type exchange struct {
	mu       sync.Mutex
	resp     *discordgo.InteractionResponse // the answer, once given
	taken    bool                           // the endpoint has written its response
	deferred bool                           // ... and it was a deferral
	ready    chan struct{}                  // closed when resp is set
	writeErr error                          // the result of writing the response, set before sent is closed
	sent     chan struct{}                  // closed when the response was written
	handled  chan struct{}                  // closed when the handling goroutine is done
}

// take returns what the endpoint writes: the answer if it is there, nil
// if the handling ended without one, else the deferral (and from now on
// answers go through the webhook).
func (x *exchange) take(deferral *discordgo.InteractionResponse, handled bool) *discordgo.InteractionResponse {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.taken = true
	if x.resp != nil || handled {
		return x.resp
	}
	x.deferred = true
	return deferral
}

// answer gives the interaction's answer: to the HTTP response while the
// endpoint waits for it, else through the webhook after the deferral.
func (e *interactionsEndpoint) answer(ctx context.Context, x *exchange, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	x.mu.Lock()
	if !x.taken {
		x.resp = resp
		close(x.ready)
		x.mu.Unlock()
		<-x.sent
		return x.writeErr
	}
	x.mu.Unlock()
	if !x.deferred {
		return fmt.Errorf("bot: interaction %s answered twice", i.ID)
	}
	select {
	case <-x.sent:
	case <-ctx.Done():
		return ctx.Err()
	}
	if x.writeErr != nil {
		return fmt.Errorf("defer: %w", x.writeErr)
	}
	return e.b.finishDeferred(ctx, i, deferralFor(i).Type, resp)
}

// deferralFor is the deferral of interaction i: "thinking…" for a command,
// a deferred update for a click.
func deferralFor(i *discordgo.Interaction) *discordgo.InteractionResponse {
	if i.Type == discordgo.InteractionMessageComponent {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
}

// finishDeferred sends through the webhook the answer that came after the
// endpoint deferred with type deferral: an update or the command's public
// message edits the original message; a new message after a deferred
// update, or a private answer to a command, is a follow-up (the command's
// public "thinking…" deleted first).
func (b *Bot) finishDeferred(ctx context.Context, i *discordgo.Interaction, deferral discordgo.InteractionResponseType, resp *discordgo.InteractionResponse) error {
	d := resp.Data
	if d == nil {
		d = &discordgo.InteractionResponseData{}
	}
	switch {
	case resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource,
		resp.Type == discordgo.InteractionResponseDeferredMessageUpdate:
		return nil // already deferred: the answer that follows edits @original
	case resp.Type == discordgo.InteractionResponseChannelMessageWithSource &&
		(deferral == discordgo.InteractionResponseDeferredMessageUpdate || d.Flags&discordgo.MessageFlagsEphemeral != 0):
		if deferral == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			// The public "thinking…" cannot become private: it goes, and
			// the private answer is a follow-up.
			if err := retryUnknown(ctx, func() error {
				return b.dc.InteractionResponseDelete(i, discordgo.WithContext(ctx))
			}); err != nil {
				b.log.Warn("could not delete the deferred answer", "err", err, "interaction", i.ID)
			}
		}
		return retryUnknown(ctx, func() error {
			_, err := b.dc.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: d.Content, Embeds: d.Embeds,
				Components: d.Components, Files: rewound(d.Files), Flags: d.Flags, AllowedMentions: d.AllowedMentions},
				discordgo.WithContext(ctx))
			return err
		})
	case resp.Type == discordgo.InteractionResponseChannelMessageWithSource,
		resp.Type == discordgo.InteractionResponseUpdateMessage:
		if d.Flags&v2Flags != 0 {
			return retryUnknown(ctx, func() error { return editOriginalV2(ctx, b.dc, i, d, false) })
		}
		edit := &discordgo.WebhookEdit{Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
			AllowedMentions: d.AllowedMentions}
		if len(d.Files) > 0 {
			edit.Attachments = &[]*discordgo.MessageAttachment{} // the new board replaces the old
		}
		return retryUnknown(ctx, func() error {
			edit.Files = rewound(d.Files)
			_, err := b.dc.InteractionResponseEdit(i, edit, discordgo.WithContext(ctx))
			return err
		})
	}
	return fmt.Errorf("bot: an answer of type %d cannot follow a deferral", resp.Type)
}

// rewound returns files whose readers start again at the beginning, so a
// retried request sends them whole.
func rewound(files []*discordgo.File) []*discordgo.File {
	for _, f := range files {
		if s, ok := f.Reader.(io.Seeker); ok {
			_, _ = s.Seek(0, io.SeekStart)
		}
	}
	return files
}

// retryUnknown runs call, and again for a second at most while Discord
// does not know the interaction's webhook yet: the deferral just written
// may not have been taken in when the answer follows it.
func retryUnknown(ctx context.Context, call func() error) error {
	deadline := time.Now().Add(time.Second)
	for {
		err := call()
		if err == nil || time.Now().After(deadline) ||
			!(isDiscordCode(err, discordgo.ErrCodeUnknownWebhook) || isDiscordCode(err, discordgo.ErrCodeUnknownInteraction)) {
			return err
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		}
	}
}

// writeResponse writes an interaction response as the HTTP answer: JSON,
// or multipart/form-data with payload_json and the files.
func writeResponse(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	var (
		contentType = "application/json"
		body        []byte
		err         error
	)
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		contentType, body, err = discordgo.MultipartBodyWithJSON(resp, rewound(resp.Data.Files))
	} else {
		body, err = json.Marshal(resp)
	}
	if err != nil {
		http.Error(w, "could not encode the answer", http.StatusInternalServerError)
		return fmt.Errorf("encode the answer: %w", err)
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

// freshTimestamp reports whether X-Signature-Timestamp (Unix seconds) is
// recent: a signed request replayed later is refused.
func freshTimestamp(stamp string, now time.Time) bool {
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return false
	}
	t := time.Unix(sec, 0)
	return now.Sub(t) <= maxSignatureAge && t.Sub(now) <= maxSignatureAhead
}

// decodeInteraction decodes an interaction as Discord POSTs it to the
// interactions endpoint, as discordgo.Interaction's UnmarshalJSON does
// except for the message a component was used on: of it only what the bot
// reads is kept (its ID, channel, author and flags; see table.CheckOrigin), and
// its components, embeds and attachments are skipped rather than built.
// Building a turn card's layout components was most of the 4 % of the
// bot's CPU per click that decoding interactions took (BenchmarkClickRate's
// profile).
func decodeInteraction(body []byte) (*discordgo.Interaction, error) {
	var w wireInteraction
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	i := discordgo.Interaction(w.interactionFields)
	if m := w.Message; m != nil {
		i.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Author: m.Author, Flags: m.Flags}
	}
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var v discordgo.ApplicationCommandInteractionData
		err = json.Unmarshal(w.Data, &v)
		i.Data = v
	case discordgo.InteractionMessageComponent:
		var v discordgo.MessageComponentInteractionData
		err = json.Unmarshal(w.Data, &v)
		i.Data = v
	case discordgo.InteractionModalSubmit:
		var v discordgo.ModalSubmitInteractionData
		err = json.Unmarshal(w.Data, &v)
		i.Data = v
	}
	if err != nil {
		return nil, err
	}
	return &i, nil
}

// interactionFields are discordgo.Interaction's fields without its
// UnmarshalJSON.
type interactionFields discordgo.Interaction

// wireInteraction is an interaction's JSON: its data is decoded by type
// afterwards, and its message (shallower than interactionFields' own, so
// it wins) in part.
type wireInteraction struct {
	interactionFields
	Data    json.RawMessage `json:"data"`
	Message *wireMessage    `json:"message"`
}

// wireMessage is what decodeInteraction keeps of an interaction's message.
type wireMessage struct {
	ID        string                 `json:"id"`
	ChannelID string                 `json:"channel_id"`
	GuildID   string                 `json:"guild_id"`
	Author    *discordgo.User        `json:"author"`
	Flags     discordgo.MessageFlags `json:"flags"`
}
