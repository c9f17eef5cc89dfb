package bot

import (
	"context"
	"errors"
	"runtime/debug"

	"github.com/bwmarrin/discordgo"
)

// handler answers one request; it returns an error for fail to turn into
// what the user reads.
type handler func(ctx context.Context, r *request) error

// errPanic stands for a panic recovered while answering.
var errPanic = errors.New("panic while answering (logged with its stack)")

// middleware wraps every route in what concerns them all: a recovered
// panic is logged with its stack and answered privately.
func (b *Bot) middleware(next handler) handler {
	return b.recoverer(next)
}

// recoverer turns a panic in next into errPanic, logged with the stack.
// Changes commit only at the end of an action, so a panic inside one
// leaves the game as it was.
func (b *Bot) recoverer(next handler) handler {
	return func(ctx context.Context, r *request) (err error) {
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("panic while handling an interaction", "panic", p, "interaction", r.i.ID,
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
func (b *Bot) deferred(next handler) handler {
	return func(ctx context.Context, r *request) error {
		if err := b.respond(r, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
			return err
		}
		r.deferred = true
		return next(ctx, r)
	}
}

// bounded lets at most maxHeavy requests run next at once; the others wait
// for their turn (or for ctx).
func (b *Bot) bounded(next handler) handler {
	return func(ctx context.Context, r *request) error {
		select {
		case b.heavy <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-b.heavy }()
		return next(ctx, r)
	}
}
