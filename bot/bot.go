// Package bot is the Discord adapter of Malefiz: the /malefiz command, the
// clicks on its messages, and the timers of games played over hours. The
// game's decisions are its table's (package bot/table); the bot routes,
// commits, answers and delivers.
//
// Every change to a game walks one path (see change.go): route the request
// (router.go, commands.go), take the game's lock, load it with what its
// decisions need in one read (store.LoadGame), let the table decide (no
// I/O), commit the new state, its events and the Discord effects it
// produced in one transaction, answer the interaction, release the lock,
// then hand the effects to delivery (package outbox), which sends them in
// the outbox's order per game. The effects
// wait in the store's outbox until Discord has taken them, so a crash
// between the commit and the delivery sends late, never twice, and never
// loses one; the outbox's loop delivers what is left. The database is
// behind the interfaces of store.go. The table's messages are plain data;
// layout.go makes Discord's Components V2 messages of them (one card per
// turn, the board in a media gallery).
package bot

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// Discord is the part of the Discord API the bot uses. *discordgo.Session
// implements it.
type Discord interface {
	InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, options ...discordgo.RequestOption) error
	InteractionResponse(i *discordgo.Interaction, options ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, options ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseDelete(i *discordgo.Interaction, options ...discordgo.RequestOption) error
	ApplicationCommandBulkOverwrite(appID, guildID string, cmds []*discordgo.ApplicationCommand, options ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
	// RequestWithBucketID and RequestRaw send the outbox's requests as
	// they were stored (with Discord's nonce, which MessageSend lacks).
	RequestWithBucketID(method, urlStr string, data interface{}, bucketID string, options ...discordgo.RequestOption) ([]byte, error)
	RequestRaw(method, urlStr, contentType string, b []byte, bucketID string, sequence int, options ...discordgo.RequestOption) ([]byte, error)
}

var _ Discord = (*discordgo.Session)(nil)

// GameDefaults are the settings of a new game when /malefiz new does not
// say (see game.Defaults).
type GameDefaults = game.Defaults

// Config is what a Bot needs. Store, Discord and Renderer are required.
type Config struct {
	Store    Store
	Discord  Discord
	Renderer *render.Renderer
	Logger   *slog.Logger
	// Dice rolls for the players; nil means a fair random die.
	Dice engine.Dice
	// Draw returns a number in [0, n): who begins, and computer seeds. nil
	// means math/rand/v2.
	Draw func(n int) int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Defaults for new games.
	Defaults GameDefaults
	// Owner names this process in the outbox's claims; "" means the host
	// name and process ID.
	Owner string
	// Hooks are told about interactions, commits and renders (metrics).
	Hooks Hooks
	// CoachOff turns the coach off: no move is graded (RunCoach returns
	// at once).
	CoachOff bool
	// CoachBehind is how long a game may wait for the coach before its
	// waiting moves are skipped (game.Config.CoachBehind).
	CoachBehind time.Duration
	// DeferAfter is how long an interaction delivered over HTTP may take
	// before the endpoint answers "thinking…" and finishes through the
	// webhook; 0 means 2.5 s, inside Discord's 3 s.
	DeferAfter time.Duration
	// Activity: the bot's Activity is served (package activity); the
	// card of a running game gets a Play on the board button.
	Activity bool
}

// Bot answers interactions and runs the games. Create it with New.
type Bot struct {
	db       Store
	dc       Discord
	renderer *render.Renderer
	log      *slog.Logger
	now      func() time.Time
	owner    string
	hooks    Hooks
	deferAt  time.Duration
	activity bool

	games       *game.Service  // every change to a game
	out         *outbox.Sender // delivers the outbox
	panel       *panel         // the subcommands that change no game
	boards      *boards        // draws the boards
	subcommands []subcommand
	heavy       chan struct{}
	inflight    sync.WaitGroup
	handle      handler // the route with its middleware
}

// maxHeavy bounds the heavy answers (replay GIFs) drawn at once.
const maxHeavy = 2

// CardChanceShare is the share of one core the scoreboard cards' chances
// may take (ai.Budget): reading a position's chances plays it out, a
// tenth of a second or more of CPU (ai.CardChances), which the budget
// spreads over four times as long, in the background. A card goes with
// the chances known at once (the learned model's for a position not read
// yet, ai.KnownChances) and is edited again when its own are read; one
// delivered while another's are being read keeps the model's.
const CardChanceShare = 0.25

// CardChancesRead says whether this build's bots read the cards' own
// chances: not under the race detector, where the rollouts run ten times
// slower (see New); the cards keep the model's chances there.
const CardChancesRead = !raceDetector

// BoardWidth is the width of the boards the bot posts: Discord shows an
// embed's image at most about 400 px wide on a phone and 520 px on a
// desktop, so 640 px stays sharp on both at
// about 40 % of the bytes of 1024 px.
const BoardWidth = 640

// New returns a Bot for cfg.
func New(cfg Config) *Bot {
	b := &Bot{
		db: cfg.Store, dc: cfg.Discord, renderer: cfg.Renderer, log: cfg.Logger,
		now: cfg.Now, owner: cfg.Owner, hooks: cfg.Hooks, deferAt: cfg.DeferAfter, activity: cfg.Activity,
		heavy: make(chan struct{}, maxHeavy),
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.renderer == nil {
		b.renderer = render.New(BoardWidth)
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.owner == "" {
		b.owner = queue.DefaultOwner()
	}
	if b.deferAt <= 0 {
		b.deferAt = defaultDeferAfter
	}
	b.boards = &boards{renderer: b.renderer, hooks: b.hooks}
	chances := &ai.Budget{Share: CardChanceShare}
	if !CardChancesRead {
		// The rollouts run ten times slower under the race detector: in
		// the tests built with it, with several bots on two cores, they
		// took half the machine (CI 7 to 11 minutes). The cards keep the
		// model's chances there; the tests without it read the card's.
		chances.Share = 0
	}
	b.out = outbox.New(outbox.Config{Store: b.db, Discord: b.dc, Log: b.log, Owner: b.owner,
		Board: b.boards.file, Chart: chartFile, WithoutPicture: withoutPicture, Chances: chanceWords(chances)})
	b.games = game.New(game.Config{Store: b.db, Outbox: b.out, Layout: layout{}, Dice: cfg.Dice, Draw: cfg.Draw, Now: b.now,
		Defaults: cfg.Defaults, Owner: b.owner, Activity: b.activity,
		Observe: b.hooks.observeCommit, Logger: b.log, CoachOff: cfg.CoachOff,
		CoachBehind: cfg.CoachBehind, Tournaments: b.db})
	b.panel = &panel{db: b.db, log: b.log, now: b.now, activity: b.activity}
	b.subcommands = append(gameSubcommands(b), extraSubcommands(b.panel)...)
	b.handle = recoverer(func(ctx context.Context, r *request) error {
		switch r.i.Type {
		case discordgo.InteractionApplicationCommand:
			return b.command(ctx, r)
		case discordgo.InteractionMessageComponent:
			return b.component(ctx, r)
		}
		return nil
	})
	return b
}

// Games is the game service the bot plays through, for the other
// front-ends (the Activity) to play the same games.
func (b *Bot) Games() *game.Service { return b.games }

// Wait blocks until every interaction in flight has been handled, and the
// deliveries the game service left running are done.
func (b *Bot) Wait() {
	b.inflight.Wait()
	b.games.Wait()
}

// HandleInteraction is the discordgo handler for INTERACTION_CREATE events:
// session.AddHandler(bot.HandleInteraction).
func (b *Bot) HandleInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	b.inflight.Add(1)
	defer b.inflight.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b.Handle(ctx, ic.Interaction)
}

// Handle answers one interaction through the REST callback.
func (b *Bot) Handle(ctx context.Context, i *discordgo.Interaction) {
	start := time.Now()
	r := b.newRequest(i)
	if r == nil {
		return
	}
	r.ctx = ctx
	r.answer = func(resp *discordgo.InteractionResponse) error {
		return b.dc.InteractionRespond(i, resp, discordgo.WithContext(ctx))
	}
	b.serve(ctx, r, start)
}

// serve handles a request whose answer is set, turns its error into what
// the user reads and reports it to the hooks; it keeps the user's locale
// first (game.Service.RememberLocale).
func (b *Bot) serve(ctx context.Context, r *request, start time.Time) {
	// The user's locale is kept before the interaction is handled, so that
	// the direct messages its change makes are in their language.
	if err := b.games.RememberLocale(ctx, r.userID, string(r.i.Locale)); err != nil {
		b.log.Warn("could not keep the user's locale", "err", err, "user", r.userID)
	}
	err := b.handle(ctx, r)
	if err != nil {
		r.fail(ctx, err)
	}
	r.tellDMRefused(ctx, b.db)
	b.hooks.observeInteraction(r, err, start)
}

// RunSender delivers the outbox until ctx ends: what could not be delivered
// at once, the card edits, and what another process left behind. It first
// completes the results an older version committed without their ratings
// (see upgradeRatings), trying again until it can.
func (b *Bot) RunSender(ctx context.Context) {
	for {
		n, err := upgradeRatings(ctx, b.db)
		if err == nil {
			if n > 0 {
				b.log.Info("outbox: results of an older version completed with their ratings", "effects", n)
			}
			break
		}
		b.log.Error("outbox: could not complete the results of an older version", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Second):
		}
	}
	b.out.Run(ctx)
}

// SendPass claims the effects that are due and delivers them; it returns
// how many it took.
func (b *Bot) SendPass(ctx context.Context) (int, error) { return b.out.Pass(ctx) }

// Hooks are told what the bot does, for metrics; every field may be nil.
// They are called from many goroutines at once and must not block.
type Hooks struct {
	// Interaction is called once per interaction handled, with the time
	// from its arrival to its answer (or to the end of its handling when
	// it got none).
	Interaction func(kind InteractionKind, outcome Outcome, latency time.Duration)
	// Commit is called after each transaction that commits a game change.
	Commit func(d time.Duration, err error)
	// Render is called after each board drawn.
	Render func(d time.Duration)
}

// InteractionKind is the kind of an interaction, as metrics label it.
type InteractionKind string

// The interaction kinds.
const (
	KindCommand   InteractionKind = "command"
	KindComponent InteractionKind = "component"
	KindPing      InteractionKind = "ping"
	KindOther     InteractionKind = "other"
)

// kindOf returns the kind of interaction type t.
func kindOf(t discordgo.InteractionType) InteractionKind {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return KindCommand
	case discordgo.InteractionMessageComponent:
		return KindComponent
	case discordgo.InteractionPing:
		return KindPing
	}
	return KindOther
}

// Outcome is how an interaction ended, as metrics label it.
type Outcome string

// The outcomes.
const (
	OutcomeOK       Outcome = "ok"       // handled, the change (if any) kept
	OutcomeRefused  Outcome = "refused"  // the user was told no (not their turn, ...)
	OutcomeConflict Outcome = "conflict" // another change of the game came first
	OutcomeError    Outcome = "error"    // failed: logged, the user got an apology
)

// outcomeOf classifies the error a handler returned.
func outcomeOf(err error) Outcome {
	var ue *userError
	switch {
	case err == nil:
		return OutcomeOK
	case errors.As(err, &ue):
		return OutcomeRefused
	case errors.Is(err, store.ErrConflict):
		return OutcomeConflict
	}
	return OutcomeError
}

// observeInteraction reports a handled interaction.
func (h Hooks) observeInteraction(r *request, err error, start time.Time) {
	if h.Interaction == nil {
		return
	}
	end := r.answeredAt
	if end.IsZero() {
		end = time.Now()
	}
	h.Interaction(kindOf(r.i.Type), outcomeOf(err), end.Sub(start))
}

// observeCommit reports a commit.
func (h Hooks) observeCommit(start time.Time, err error) {
	if h.Commit != nil {
		h.Commit(time.Since(start), err)
	}
}

// observeRender reports a board drawn.
func (h Hooks) observeRender(start time.Time) {
	if h.Render != nil {
		h.Render(time.Since(start))
	}
}
