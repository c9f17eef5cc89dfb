package bot

import (
	"context"

	"github.com/malefiz-discord/malefiz/store"
)

// component handles a click on a button or a choice in a select menu.
func (b *Bot) component(ctx context.Context, r *request) error {
	data := r.i.MessageComponentData()
	id, err := ParseCustomID(data.CustomID)
	if err != nil {
		return refuse(msgUnknownButton)
	}
	if len(data.Values) > 0 {
		if len(data.Values) != 1 || len(data.Values[0]) > maxArgLen {
			return refuse(msgUnknownButton)
		}
		id.Arg = data.Values[0]
	}
	switch id.Action {
	case ActJoin:
		return b.lobbyAction(ctx, r, id.Game, b.join(r))
	case ActLeave:
		return b.lobbyAction(ctx, r, id.Game, b.leave(r))
	case ActAddBot:
		return b.lobbyAction(ctx, r, id.Game, b.addComputer(r, id.Arg))
	case ActStart:
		return b.start(ctx, r, id.Game)
	case ActCancel:
		return b.cancel(ctx, r, id.Game)
	case ActRoll, ActPawn, ActMove, ActBack, ActPlace, ActPlaceRow:
		return b.turnAction(ctx, r, id)
	}
	return refuse(msgUnknownButton)
}

// checkTurn refuses a turn action that is not the clicker's to take now.
func (t *table) checkTurn(userID string, turn int) error {
	switch {
	case t.sg.Status == store.StatusLobby:
		return refuse(msgNotStarted)
	case t.sg.Status != store.StatusRunning || t.g == nil || t.g.Over():
		return refuse(msgGameEnded)
	case turn != t.g.TurnNumber():
		return refuse(msgOldButton)
	}
	i, ok := t.seatOf(userID)
	if !ok {
		return refuse(msgNotInGame)
	}
	if seat := &t.sg.Seats[i]; seat.Color != t.g.Turn().String() || seat.Computer != "" {
		return refuse(msgNotYourTurn)
	}
	return nil
}
