package bot

import "github.com/malefiz-discord/malefiz/bot/table"

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
