// Package bot is the Discord adapter of Malefiz: the /malefiz command, the
// lobby and turn messages with their buttons, the turn flow with computer
// players, and the timers of games played over hours. It keeps every game in
// the store, draws boards with render and plays by engine's rules.
package bot

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/engine"
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
	ChannelMessageSendComplex(channelID string, m *discordgo.MessageSend, options ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageEditComplex(m *discordgo.MessageEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	ApplicationCommandBulkOverwrite(appID, guildID string, cmds []*discordgo.ApplicationCommand, options ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
}

var _ Discord = (*discordgo.Session)(nil)

// GameDefaults are the settings of a new game when /malefiz new does not say.
type GameDefaults struct {
	Seats    int    // seats offered in a lobby, 2 to 4
	Level    string // level of computer players added to a lobby
	SixAgain bool   // house rule six-again
	SafeRow2 bool   // house rule safe-row-2
}

// Config is what a Bot needs. Store, Discord and Renderer are required.
type Config struct {
	Store    *store.DB
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
}

// Bot answers interactions and runs the games. Create it with New.
type Bot struct {
	db       *store.DB
	dc       Discord
	renderer *render.Renderer
	log      *slog.Logger
	dice     engine.Dice
	draw     func(n int) int
	now      func() time.Time
	defaults GameDefaults

	locks    gameLocks
	inflight sync.WaitGroup
	wake     chan struct{} // nudges the scheduler when a deadline changes
}

// New returns a Bot for cfg.
func New(cfg Config) *Bot {
	b := &Bot{
		db: cfg.Store, dc: cfg.Discord, renderer: cfg.Renderer, log: cfg.Logger,
		dice: cfg.Dice, draw: cfg.Draw, now: cfg.Now, defaults: cfg.Defaults,
		wake: make(chan struct{}, 1),
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.dice == nil {
		b.dice = engine.DiceFunc(func() int { return rand.IntN(6) + 1 })
	}
	if b.draw == nil {
		b.draw = rand.IntN
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.defaults.Seats < 2 || b.defaults.Seats > 4 {
		b.defaults.Seats = 4
	}
	if b.defaults.Level == "" {
		b.defaults.Level = "normal"
	}
	return b
}

// Wait blocks until every interaction in flight has been handled.
func (b *Bot) Wait() { b.inflight.Wait() }

// HandleInteraction is the discordgo handler for INTERACTION_CREATE events:
// session.AddHandler(bot.HandleInteraction).
func (b *Bot) HandleInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	b.inflight.Add(1)
	defer b.inflight.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b.Handle(ctx, ic.Interaction)
}

// Handle answers one interaction.
func (b *Bot) Handle(ctx context.Context, i *discordgo.Interaction) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("panic while handling an interaction", "panic", r, "interaction", i.ID)
		}
	}()
	req := newRequest(i)
	if req == nil {
		return
	}
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		err = b.command(ctx, req)
	case discordgo.InteractionMessageComponent:
		err = b.component(ctx, req)
	default:
		return
	}
	if err != nil {
		b.fail(req, err)
	}
}

// gameLocks hands out one mutex per game, so that one action at a time runs
// on a game; the store's version check guards against everything else.
type gameLocks struct {
	mu sync.Mutex
	m  map[int64]*gameLock
}

type gameLock struct {
	sync.Mutex
	users int
}

// lock locks game id and returns its unlock function.
func (l *gameLocks) lock(id int64) func() {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[int64]*gameLock{}
	}
	gl := l.m[id]
	if gl == nil {
		gl = &gameLock{}
		l.m[id] = gl
	}
	gl.users++
	l.mu.Unlock()
	gl.Lock()
	return func() {
		gl.Unlock()
		l.mu.Lock()
		gl.users--
		if gl.users == 0 {
			delete(l.m, id)
		}
		l.mu.Unlock()
	}
}
