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
