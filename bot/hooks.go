package bot

import (
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/store"
)

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
