package bot

import (
	"context"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// The Activity's lobby actions about computer players (Bot.LobbyComputer),
// beside Bot.Lobby's join, leave and start.
const (
	// LobbyAddComputer seats a computer player of the level its
	// argument names, as the lobby card's menu does (action addbot).
	LobbyAddComputer = string(table.ActAddBot)
	// LobbyRemoveComputer frees the seat of the colour its argument
	// names, held by a computer player: the host's.
	LobbyRemoveComputer = "removebot"
)

// LobbyComputer applies a lobby action about a computer player made in
// the Activity by user on game id: add one of level arg (as the card's
// menu does), or, for the host, remove the one seated at colour arg; the
// lobby decides who may (table.AddComputer, table.RemoveComputer), by
// the one path of every change, and the lobby card in the channel is
// edited as for a command. A game of another guild than guild is not
// found.
func (b *Bot) LobbyComputer(ctx context.Context, id int64, guild string, user table.Actor, act, arg string) error {
	user.Click, user.MessageID = false, ""
	var change table.LobbyChange
	switch act {
	case LobbyAddComputer:
		change = table.AddComputer(user, arg)
	case LobbyRemoveComputer:
		change = table.RemoveComputer(user, arg)
	default:
		return refuse(locales.ErrUnknownButton)
	}
	return b.change(ctx, nil, id, func(t *table.Table) error {
		if err := inGuild(t, guild); err != nil {
			return err
		}
		t.Touch(user.UserID)
		return t.ChangeLobby(user, change)
	})
}

// BoardHint answers user, the player to move in turn on game id, with the
// hint of the turn card's Hint button as the Activity shows it (the
// table's BoardHint): only to them, only on their turn, only where the
// server's hints are on; the hint is recorded, as the button's is, by the
// one path of every change. A game of another guild than guild is not
// found.
func (b *Bot) BoardHint(ctx context.Context, id int64, guild string, user table.Actor, turn int) (table.LiveHint, error) {
	var h table.LiveHint
	err := b.change(ctx, nil, id, func(t *table.Table) error {
		if err := inGuild(t, guild); err != nil {
			return err
		}
		var err error
		h, err = t.BoardHint(user, turn)
		return err
	})
	if err != nil {
		return table.LiveHint{}, err
	}
	return h, nil
}
