package bot

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
)

// component handles a click on a button or a choice in a select menu: most
// change the game their custom ID names, by a decision of its table.
func (b *Bot) component(ctx context.Context, r *request) error {
	data := r.i.MessageComponentData()
	id, err := ParseCustomID(data.CustomID)
	if err != nil {
		return refuse(locales.ErrUnknownButton)
	}
	if len(data.Values) > 0 {
		if len(data.Values) != 1 || len(data.Values[0]) > table.MaxArgLen {
			return refuse(locales.ErrUnknownButton)
		}
		id.Arg = data.Values[0]
	}
	if isTournamentAction(id.Action) {
		return b.tournamentClick(ctx, r, id) // tournament.go
	}
	var act game.Action
	switch id.Action {
	case ActJoin:
		act = game.Join{}
	case ActLeave:
		act = game.Leave{}
	case ActAddBot:
		act = game.AddComputer{Level: id.Arg}
	case ActStart:
		act = game.Start{}
	case ActCancel:
		act = game.Cancel{}
	case ActResign:
		act = game.Resign{}
	case ActKeep:
		return keepPlaying(r)
	case ActVoteYes, ActVoteNo:
		// The vote message is the bot's, from where the game plays; its
		// game is in the custom ID.
		msg := r.i.Message
		if msg == nil || msg.Author == nil || msg.Author.ID != r.i.AppID {
			return refuse(locales.ErrForeignButton)
		}
		r.originChecked = true
		act = game.Vote{Yes: id.Action == ActVoteYes, Guild: r.i.GuildID, Channel: r.i.ChannelID}
	case ActRematch:
		return b.rematch(ctx, r, id.Game)
	case ActReview:
		return b.review(ctx, r, id.Game)
	case ActHint:
		act = game.Hint{ID: id}
	case table.ActBoard:
		return launchActivity(r)
	case ActRoll, ActPawn, ActMove, ActBack, ActPlace, ActPlaceRow:
		act = game.Turn{ID: id}
	default:
		return refuse(locales.ErrUnknownButton)
	}
	return b.change(ctx, r, id.Game, act)
}

// onGame is the run of a subcommand about the request's game (see
// openGame): want picks it among several, decide says what to do with it:
// a change, or nil when it answered by itself.
func (b *Bot) onGame(want func(r *request) func(*malefiz.Game) bool, decide func(r *request, sg *malefiz.Game) (game.Action, error)) runFunc {
	return func(ctx context.Context, r *request, _ options) error {
		sg, err := b.games.CommandGame(ctx, r.i.GuildID, r.i.ChannelID, want(r))
		if err != nil {
			return err
		}
		act, err := decide(r, sg)
		if act == nil {
			return err
		}
		return b.change(ctx, r, sg.ID, act)
	}
}

// cmdBoard shows the game privately, with text:true the board in words
// instead of its picture. An option rather than a setting: every board
// picture already carries the same words as alt text, which a screen
// reader reads by itself; the text answer is for the moment one wants the
// board as plain text (a braille display, a client that shows no
// pictures, copying a position), and an option says so where it is used.
func (b *Bot) cmdBoard(ctx context.Context, r *request, opts options) error {
	inWords := opts.bool("text", false)
	return b.onGame(seatedIn, func(*request, *malefiz.Game) (game.Action, error) {
		return game.PrivateBoard{InWords: inWords}, nil
	})(ctx, r, opts)
}

// say is the run of a subcommand that answers with a text, privately.
func say(keys ...msg) runFunc {
	return func(ctx context.Context, r *request, _ options) error {
		var parts []string
		for _, key := range keys {
			parts = append(parts, tr(r.lang, key))
		}
		r.replyPrivate(ctx, strings.Join(parts, "\n\n"))
		return nil
	}
}

// The subcommands about the request's game.
var (
	seatedIn  = func(r *request) func(*malefiz.Game) bool { return game.Seated(r.userID) }
	inLobby   = func(*request) func(*malefiz.Game) bool { return lobby }
	hostedBy  = func(r *request) func(*malefiz.Game) bool { return hosted(r.userID) }
	lobbyOfBy = func(r *request) func(*malefiz.Game) bool {
		return func(sg *malefiz.Game) bool { return lobby(sg) && hosted(r.userID)(sg) }
	}
	joinGame   = func(*request, *malefiz.Game) (game.Action, error) { return game.Join{}, nil }
	startGame  = func(*request, *malefiz.Game) (game.Action, error) { return game.Start{}, nil }
	cancelGame = func(*request, *malefiz.Game) (game.Action, error) { return game.Cancel{}, nil }
	// leaveGame leaves a lobby; a running game asks first (askResign).
	leaveGame = func(r *request, sg *malefiz.Game) (game.Action, error) {
		if sg.Status == malefiz.StatusRunning {
			return nil, askResign(r, sg)
		}
		return game.Leave{}, nil
	}
	// resignGame asks before leaving a running game; a lobby is left.
	resignGame = func(r *request, sg *malefiz.Game) (game.Action, error) {
		if sg.Status != malefiz.StatusLobby {
			return nil, askResign(r, sg)
		}
		return game.Leave{}, nil
	}
)

// handler answers one request; it returns an error for fail to turn into
// what the user reads.
type handler func(ctx context.Context, r *request) error

// errPanic stands for a panic recovered while answering.
var errPanic = errors.New("panic while answering (logged with its stack)")

// recoverer turns a panic in next into errPanic, logged with the stack:
// the middleware around every route. Changes commit only at the end of an
// action, so a panic inside one leaves the game as it was.
func recoverer(next handler) handler {
	return func(ctx context.Context, r *request) (err error) {
		defer func() {
			if p := recover(); p != nil {
				r.log.Error("panic while handling an interaction", "panic", p, "interaction", r.i.ID,
					"user", r.userID, "stack", string(debug.Stack()))
				err = errPanic
			}
		}()
		return next(ctx, r)
	}
}

// deferred answers "thinking…" at once, publicly, before next runs, so that
// a slow answer (a replay GIF) is not cut off by Discord's 3 seconds; next's
// answer then replaces it.
func deferred(next handler) handler {
	return func(ctx context.Context, r *request) error {
		if err := r.respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
			return err
		}
		r.deferred = true
		return next(ctx, r)
	}
}

// bounded lets at most cap(slots) requests run next at once; the others
// wait for their turn (or for ctx).
func bounded(slots chan struct{}, next handler) handler {
	return func(ctx context.Context, r *request) error {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-slots }()
		return next(ctx, r)
	}
}

// The custom IDs of the bot's components are the table's (bot/table):
// these names keep them at hand for the router and the program's tests.
type (
	// Action is table.Action.
	Action = table.Action
	// CustomID is table.CustomID.
	CustomID = table.CustomID
)

// The component actions (see table.Action).
const (
	ActJoin     = table.ActJoin
	ActLeave    = table.ActLeave
	ActAddBot   = table.ActAddBot
	ActStart    = table.ActStart
	ActCancel   = table.ActCancel
	ActRoll     = table.ActRoll
	ActPawn     = table.ActPawn
	ActMove     = table.ActMove
	ActBack     = table.ActBack
	ActPlace    = table.ActPlace
	ActPlaceRow = table.ActPlaceRow
	ActRematch  = table.ActRematch
	ActResign   = table.ActResign
	ActKeep     = table.ActKeep
	ActVoteYes  = table.ActVoteYes
	ActVoteNo   = table.ActVoteNo
	ActReview   = table.ActReview
	ActHint     = table.ActHint
)

// ErrBadCustomID is table.ErrBadCustomID.
var ErrBadCustomID = table.ErrBadCustomID

// ParseCustomID is table.ParseCustomID.
func ParseCustomID(s string) (CustomID, error) { return table.ParseCustomID(s) }
