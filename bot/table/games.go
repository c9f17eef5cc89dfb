package table

import (
	"fmt"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
)

// GameLine is the game's line of /malefiz games for userID, in lang:
// number and link, players, whose turn it is and until when.
func (t *Table) GameLine(userID, lang string) string {
	sg := t.Game
	var players []string
	for i := range sg.Seats {
		s := &sg.Seats[i]
		if s.Left {
			continue
		}
		if s.UserID != "" {
			who := Mention(s.UserID)
			if c := SeatColor(s); c.Valid() {
				who = ColorEmoji[c] + " " + who // as the card writes a person
			}
			players = append(players, who)
		} else {
			players = append(players, t.seatLabelIn(lang, s))
		}
	}
	link := "https://discord.com/channels/" + sg.GuildID + "/" + sg.ChannelID + "/" + sg.LobbyMessageID
	if sg.TurnMessageID != "" {
		link = JumpLink(sg, sg.TurnMessageID)
	}
	line := fmt.Sprintf("[#%d](%s) · %s", sg.ID, link, strings.Join(players, ", "))
	switch seat := t.ToMove(); {
	case sg.Status == malefiz.StatusLobby:
		line += " · " + tr(lang, locales.GamesLobby)
	case seat != nil && seat.UserID == userID && seat.Computer == "":
		line = "🎲 " + line + " · " + tr(lang, locales.GamesYourTurn, sg.Deadline.Unix())
	case seat != nil:
		line += " · " + tr(lang, locales.GamesTheirTurn, t.seatLabelIn(lang, seat))
	}
	return line
}

// JumpLink links to a message of game g where it plays.
func JumpLink(g *malefiz.Game, messageID string) string {
	place := g.ChannelID
	if g.ThreadID != "" {
		place = g.ThreadID
	}
	return "https://discord.com/channels/" + g.GuildID + "/" + place + "/" + messageID
}

// LobbyLink links to the game's lobby message in its channel.
func LobbyLink(g *malefiz.Game) string {
	return "https://discord.com/channels/" + g.GuildID + "/" + g.ChannelID + "/" + g.LobbyMessageID
}

// PrivateBoard is the answer to /malefiz board: a private copy of the
// lobby (without its buttons, which keep the lobby message the one place
// it changes), or the board as it stands with whose turn it is and a jump
// link to the live turn message, whose buttons the player to move uses;
// the board's texts are in a's language.
func (t *Table) PrivateBoard(a Actor) error {
	switch {
	case t.Game.Status == malefiz.StatusLobby:
		msg := t.LobbyMessage()
		msg.Rows = nil
		if t.Game.LobbyMessageID != "" {
			msg.Embeds[0].Description += "\n" + tr(a.Lang, locales.BoardJumpLobby, LobbyLink(t.Game))
		}
		t.answer(Private, msg)
		return nil
	case t.State == nil || !t.Game.Status.Open():
		return Refuse(locales.ErrNoGameHere)
	}
	v := t.TurnView(TurnOptions{Private: true, Viewer: a.UserID, Lang: a.Lang})
	if id := t.Game.TurnMessageID; id != "" {
		v.Embeds[0].Description += "\n" + tr(a.Lang, locales.BoardJump, JumpLink(t.Game, id))
	}
	t.answerView(a, v, false)
	return nil
}

// PrivateBoardInWords is PrivateBoard with the board in words instead of
// its picture (/malefiz board text:true), for a player who reads the game
// with a screen reader or a braille display, or without pictures.
func (t *Table) PrivateBoardInWords(a Actor) error {
	if err := t.PrivateBoard(a); err != nil {
		return err
	}
	if t.Reply != nil {
		t.Reply.Message = InWords(t.Reply.Message)
	}
	return nil
}
