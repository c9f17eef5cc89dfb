package game

import (
	"errors"
	"fmt"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// Command is one action on an existing game by a person or a timer: who
// acts, where they act from, on which game, and what they ask.
type Command struct {
	Game int64
	// User is who acts; the zero Actor is a timer.
	User table.Actor
	// Guild is the server a person's command comes from: a game of
	// another server is not found (the command learns nothing of it). A
	// click is checked by its Origin, or by its front-end, instead.
	Guild string
	// Origin is where a click comes from (its message, channel, custom
	// ID), checked against the game before anything is decided; nil for
	// a command, a play on the board, a timer, or a click its front-end
	// checked itself.
	Origin *table.Origin
	// Via is the interaction the command answers, if any.
	Via *Via
	// Action is what is asked.
	Action Action
}

// Action is what a command asks of its game: one of the types of this
// file, each a decision of the game's table.
type Action interface {
	decide(s *Service, t *table.Table, a table.Actor) error
}

// Join takes a seat in a lobby.
type Join struct{}

// Leave gives a lobby's seat up.
type Leave struct{}

// AddComputer seats a computer of Level in a lobby.
type AddComputer struct{ Level string }

// RemoveComputer frees a lobby's seat of Color, held by a computer (the
// host).
type RemoveComputer struct{ Color string }

// Start starts a lobby's game (the host); who begins is drawn.
type Start struct{}

// Cancel closes a lobby, or asks the players to end a running game.
type Cancel struct{}

// Resign leaves a running game.
type Resign struct{}

// Vote answers a cancel vote, clicked in Guild and Channel: the vote's
// message is where the game plays.
type Vote struct {
	Yes            bool
	Guild, Channel string
}

// Turn is a step of a turn clicked on a turn card (roll, pick a pawn,
// move, back, place the barricade, a row of squares): ID is the
// component's custom ID.
type Turn struct{ ID table.CustomID }

// Play is a step of a turn made on the board (roll, move, back, place):
// the decision of the click with the same custom ID, made without a
// message; the thread's card follows.
type Play struct{ ID table.CustomID }

// Hint asks what the computer would play this turn, privately.
type Hint struct{ ID table.CustomID }

// BoardHint asks, on the board, what the computer would play in Turn:
// the outcome's Table.Advice, recorded as a hint asked for, as Hint's.
type BoardHint struct{ Turn int }

// PrivateBoard shows the game to its player privately, playable there;
// InWords: the board in words, without its picture.
type PrivateBoard struct{ InWords bool }

// JoinRematch takes a seat in a rematch's lobby.
type JoinRematch struct{}

// Due runs the game's timer: a deadline, a reminder, a lobby's end.
type Due struct{}

func (Join) decide(_ *Service, t *table.Table, a table.Actor) error {
	return t.ChangeLobby(a, table.Join(a))
}

func (Leave) decide(_ *Service, t *table.Table, a table.Actor) error {
	return t.ChangeLobby(a, table.Leave(a))
}

func (c AddComputer) decide(_ *Service, t *table.Table, a table.Actor) error {
	return t.ChangeLobby(a, table.AddComputer(a, c.Level))
}

func (c RemoveComputer) decide(_ *Service, t *table.Table, a table.Actor) error {
	return t.ChangeLobby(a, table.RemoveComputer(a, c.Color))
}

func (Start) decide(s *Service, t *table.Table, a table.Actor) error {
	return t.Start(a, s.draw(max(len(t.Game.Seats), 1)))
}

func (Cancel) decide(_ *Service, t *table.Table, a table.Actor) error { return t.Cancel(a) }

func (Resign) decide(_ *Service, t *table.Table, a table.Actor) error { return t.Resign(a) }

func (v Vote) decide(_ *Service, t *table.Table, a table.Actor) error {
	if sg := t.Game; v.Guild != sg.GuildID || (v.Channel != sg.ChannelID && v.Channel != sg.ThreadID) {
		return table.Refuse(locales.ErrForeignButton)
	}
	return t.Vote(a, v.Yes)
}

func (c Turn) decide(_ *Service, t *table.Table, a table.Actor) error { return t.Turn(a, c.ID) }

func (c Play) decide(_ *Service, t *table.Table, a table.Actor) error { return t.Play(a, c.ID) }

func (c Hint) decide(_ *Service, t *table.Table, a table.Actor) error { return t.Hint(a, c.ID) }

func (c BoardHint) decide(_ *Service, t *table.Table, a table.Actor) error {
	_, err := t.BoardHint(a, c.Turn)
	return err
}

func (p PrivateBoard) decide(_ *Service, t *table.Table, a table.Actor) error {
	if p.InWords {
		return t.PrivateBoardInWords(a)
	}
	return t.PrivateBoard(a)
}

func (JoinRematch) decide(_ *Service, t *table.Table, a table.Actor) error { return t.JoinRematch(a) }

func (Due) decide(_ *Service, t *table.Table, _ table.Actor) error { return t.Due() }

// inGuild refuses a game that is not of guild as if it did not exist.
func inGuild(t *table.Table, guild string) error {
	if t.Game.GuildID != guild {
		return notHere(t.Game.ID, "of another guild")
	}
	return nil
}

// notHereError is the refusal of a game a person may not read from where
// they are: one that does not exist and one of another guild read alike
// ("There is no game #N on this server"), so that the answer does not
// tell other guilds' games from unused IDs; the error's text, which is
// logged, tells them apart.
type notHereError struct {
	id     int64
	why    string
	refuse error
}

func notHere(id int64, why string) error {
	return &notHereError{id: id, why: why, refuse: table.Refuse(locales.ErrUnknownGame, id)}
}

func (e *notHereError) Error() string { return fmt.Sprintf("game %d not here: %s", e.id, e.why) }

// Unwrap is the refusal the person reads.
func (e *notHereError) Unwrap() error { return e.refuse }

// personal maps the refusal of a game that does not exist to notHere, for
// a person's command from a guild.
func personal(err error, id int64, guild string) error {
	var ref *table.Refusal
	if guild != "" && errors.As(err, &ref) && ref.Key == locales.ErrNoSuchGame {
		return notHere(id, "no such game")
	}
	return err
}
