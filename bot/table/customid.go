package table

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Action is what a button or select menu does.
type Action string

// The component actions. Each custom ID is "mf/ACTION/GAME/TURN[/ARG]".
const (
	ActJoin     Action = "join"    // lobby: take a seat
	ActLeave    Action = "leave"   // lobby: give the seat up
	ActAddBot   Action = "addbot"  // lobby: a computer takes a seat (select menu, value = level)
	ActStart    Action = "start"   // lobby: the host starts the game
	ActCancel   Action = "cancel"  // lobby: the host closes it
	ActRoll     Action = "roll"    // turn: roll the die
	ActPawn     Action = "pawn"    // turn: pick a pawn first (ARG = from square or "home")
	ActMove     Action = "move"    // turn: play a move (ARG = FROM-TO)
	ActBack     Action = "back"    // turn: back to the full list of moves
	ActPlace    Action = "place"   // turn: put the captured barricade (ARG = square; or a select value)
	ActPlaceRow Action = "prow"    // turn: select menu of rows for the barricade
	ActRematch  Action = "rematch" // result: a new lobby with the same options
	ActResign   Action = "resign"  // private question: leave the running game
	ActKeep     Action = "keep"    // private question: keep playing
	ActVoteYes  Action = "voteyes" // cancel vote: agree
	ActVoteNo   Action = "voteno"  // cancel vote: refuse
	ActReview   Action = "review"  // coach's verdict: a player's own review, privately
	ActHint     Action = "hint"    // turn: what the computer would play, privately
	ActBoard    Action = "board"   // card: open the game in the Activity (LAUNCH_ACTIVITY)
)

const (
	idPrefix           = "mf"      // every custom ID of this bot starts with it
	sep                = "/"       // separates the custom ID's fields
	maxCustomID        = 100       // Discord's limit on a custom ID's length
	MaxArgLen          = 40        // longest argument accepted when parsing
	MaxGameID          = 1<<53 - 1 // keeps IDs exact in JSON numbers too
	maxTurnNumber      = 1<<31 - 1 // far beyond any real game
	actionFieldMaxLen  = 8         // longest action name
	customIDFieldCount = 4         // fields before the optional argument
)

var knownActions = map[Action]bool{
	ActJoin: true, ActLeave: true, ActAddBot: true, ActStart: true, ActCancel: true,
	ActRoll: true, ActPawn: true, ActMove: true, ActBack: true, ActPlace: true, ActPlaceRow: true,
	ActRematch: true, ActResign: true, ActKeep: true, ActVoteYes: true, ActVoteNo: true,
	ActReview: true, ActHint: true, ActBoard: true,
}

// ErrBadCustomID is returned for custom IDs this bot did not make.
var ErrBadCustomID = errors.New("bad custom ID")

// CustomID is the typed form of a component's custom ID: which action, on
// which game, at which turn (0 for lobby components), with an optional argument.
type CustomID struct {
	Action Action
	Game   int64
	Turn   int
	Arg    string
}

// String formats the custom ID. It panics if the result would exceed
// Discord's 100-character limit, which only a programming error can cause.
func (c CustomID) String() string {
	s := idPrefix + sep + string(c.Action) + sep + strconv.FormatInt(c.Game, 10) + sep + strconv.Itoa(c.Turn)
	if c.Arg != "" {
		s += sep + c.Arg
	}
	if len(s) > maxCustomID {
		panic(fmt.Sprintf("table: custom ID %q is longer than %d characters", s, maxCustomID))
	}
	return s
}

// ParseCustomID reads a custom ID made by CustomID.String.
func ParseCustomID(s string) (CustomID, error) {
	if len(s) > maxCustomID {
		return CustomID{}, fmt.Errorf("%w: too long", ErrBadCustomID)
	}
	parts := strings.SplitN(s, sep, customIDFieldCount+1)
	if len(parts) < customIDFieldCount || parts[0] != idPrefix {
		return CustomID{}, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	}
	c := CustomID{Action: Action(parts[1])}
	if len(parts[1]) > actionFieldMaxLen || !knownActions[c.Action] {
		return CustomID{}, fmt.Errorf("%w: unknown action in %q", ErrBadCustomID, s)
	}
	game, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || game <= 0 || game > MaxGameID || parts[2] != strconv.FormatInt(game, 10) {
		return CustomID{}, fmt.Errorf("%w: bad game in %q", ErrBadCustomID, s)
	}
	turn, err := strconv.Atoi(parts[3])
	if err != nil || turn < 0 || turn > maxTurnNumber || parts[3] != strconv.Itoa(turn) {
		return CustomID{}, fmt.Errorf("%w: bad turn in %q", ErrBadCustomID, s)
	}
	c.Game, c.Turn = game, turn
	if len(parts) == customIDFieldCount+1 {
		if parts[4] == "" || len(parts[4]) > MaxArgLen {
			return CustomID{}, fmt.Errorf("%w: bad argument in %q", ErrBadCustomID, s)
		}
		c.Arg = parts[4]
	}
	return c, nil
}
