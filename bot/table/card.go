package table

import (
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

// The scoreboard card is the lobby message once the game has started: it
// stays in the channel, edited as the game goes (edits ping nobody), while
// the turns are played in the game's thread.

// CardMessage is the card of a started game: the seats with their colours
// and distance to the goal, whose turn it is and until when, a link to the
// thread while the game runs, and at the end the result with Rematch.
func (t *Table) CardMessage() Message {
	m := Message{Embeds: []Embed{t.cardEmbed()}}
	if t.showsChances() {
		m.Chances = &ChanceFill{Position: t.State.Position(), Rules: t.Rules(), Lang: t.Game.Locale}
	}
	if t.State != nil && t.State.Over() && t.Game.Status != malefiz.StatusCancelled {
		m.Rows = []Row{t.rematchRow()}
	} else if row, ok := t.boardRow(); ok {
		m.Rows = []Row{row}
	}
	return m
}

// rematchRow is the Rematch button of a finished game.
func (t *Table) rematchRow() Row {
	return Row{Buttons: []Button{{Label: tr(t.Game.Locale, locales.ButtonRematch), Style: Success,
		CustomID: CustomID{Action: ActRematch, Game: t.Game.ID}.String(), Emoji: "🔁"}}}
}

func (t *Table) cardEmbed() Embed {
	lang := t.Game.Locale
	sg := t.Game
	var lines []string
	toMove := t.ToMove()
	showChances := t.showsChances()
	for i := range sg.Seats {
		s := &sg.Seats[i]
		who := Mention(s.UserID)
		if s.UserID == "" {
			who = t.seatLabel(s)
		} else if c := SeatColor(s); c.Valid() {
			who = ColorEmoji[c] + " " + who
		}
		marker := "▫️"
		if s == toMove {
			marker = "▶️"
		}
		line := marker + " " + who
		switch {
		case s.Left:
			line += " · " + tr(lang, locales.CardLeft)
		case t.State != nil:
			line += " · " + tr(lang, locales.CardToGo, distance(t.State.Position(), SeatColor(s)))
			if showChances {
				line += " · " + ChanceToken(SeatColor(s))
			}
		}
		lines = append(lines, line)
	}
	lines = append(lines, "")
	title := tr(lang, locales.CardTitle, sg.ID)
	color := 0xE8B923
	switch {
	case sg.Status == malefiz.StatusCancelled:
		title = tr(lang, locales.LobbyClosed)
	case t.State != nil && t.State.Over():
		winner := t.SeatByColor(t.State.Winner())
		title = "🏆 " + tr(lang, locales.GameWinner, t.seatLabel(winner), t.State.TurnNumber())
		if t.State.Forfeit() {
			title = "🏆 " + tr(lang, locales.GameWinnerForfeit, t.seatLabel(winner))
		}
		color = ColorRGB[t.State.Winner()]
	case t.State != nil:
		turn := tr(lang, locales.CardTurn, t.State.TurnNumber(), t.seatLabel(toMove))
		if !sg.Deadline.IsZero() {
			turn += " · " + tr(lang, locales.TurnDeadline, sg.Deadline.Unix())
		}
		lines = append(lines, turn)
		color = ColorRGB[t.State.Turn()]
	}
	if sg.Threaded && sg.LobbyMessageID != "" && t.State != nil && !t.State.Over() && sg.Status.Open() {
		// A thread started from a message has the message's ID. Once the
		// game is over, nothing is played there any more.
		lines = append(lines, tr(lang, locales.CardThread, "<#"+sg.LobbyMessageID+">"))
	}
	return Embed{Title: title, Description: strings.Join(lines, "\n"), Color: color,
		Footer: tr(lang, locales.GameFooter, sg.ID)}
}

// distance is how many squares colour c's best pawn is from the goal; a
// pawn at home counts the entry square as its first step.
func distance(p engine.Position, c engine.Color) int {
	best := engine.DistanceToGoal(engine.Entry(c)) + 1
	for _, sq := range p.Pawns(c) {
		best = min(best, engine.DistanceToGoal(sq))
	}
	return best
}
