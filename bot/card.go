package bot

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// The scoreboard card is the lobby message once the game has started: it
// stays in the channel, edited as the game goes (edits ping nobody), while
// the turns are played in the game's thread.

// cardData is the card of a started game: the seats with their colours and
// distance to the goal, whose turn it is and until when, a link to the
// thread, and at the end the result.
func (b *Bot) cardData(m *match) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{b.cardEmbed(m)},
		Components: []discordgo.MessageComponent{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

func (b *Bot) cardEmbed(m *match) *discordgo.MessageEmbed {
	lang := m.stored.Locale
	sg := m.stored
	var lines []string
	toMove := m.toMove()
	for i := range sg.Seats {
		s := &sg.Seats[i]
		who := mention(s.UserID)
		if s.UserID == "" {
			who = b.seatLabel(m, s)
		} else if c := seatColor(s); c.Valid() {
			who = colorEmoji[c] + " " + who
		}
		marker := "▫️"
		if s == toMove {
			marker = "▶️"
		}
		line := marker + " " + who
		switch {
		case s.Left:
			line += " · " + tr(lang, locales.CardLeft)
		case m.game != nil:
			line += " · " + tr(lang, locales.CardToGo, distance(m.game.Position(), seatColor(s)))
		}
		lines = append(lines, line)
	}
	lines = append(lines, "")
	title := tr(lang, locales.CardTitle, sg.ID)
	color := 0xE8B923
	switch {
	case sg.Status == store.StatusCancelled:
		title = tr(lang, locales.LobbyClosed)
	case m.game != nil && m.game.Over():
		winner := m.seatByColor(m.game.Winner())
		title = "🏆 " + tr(lang, locales.GameWinner, b.seatLabel(m, winner), m.game.TurnNumber())
		if m.game.Forfeit() {
			title = "🏆 " + tr(lang, locales.GameWinnerForfeit, b.seatLabel(m, winner))
		}
		color = colorRGB[m.game.Winner()]
	case m.game != nil:
		turn := tr(lang, locales.CardTurn, m.game.TurnNumber(), b.seatLabel(m, toMove))
		if !sg.Deadline.IsZero() {
			turn += " · " + tr(lang, locales.TurnDeadline, sg.Deadline.Unix())
		}
		lines = append(lines, turn)
		color = colorRGB[m.game.Turn()]
	}
	if sg.Threaded && sg.LobbyMessageID != "" {
		// A thread started from a message has the message's ID.
		lines = append(lines, tr(lang, locales.CardThread, "<#"+sg.LobbyMessageID+">"))
	}
	return &discordgo.MessageEmbed{Title: title, Description: strings.Join(lines, "\n"), Color: color,
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, locales.GameFooter, sg.ID)}}
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

// threadName names a game's thread: "Malefiz #12 · Alice, Bob, Carol".
func (b *Bot) threadName(m *match) string {
	var names []string
	for i := range m.stored.Seats {
		s := &m.stored.Seats[i]
		if s.Computer != "" && s.UserID == "" {
			names = append(names, tr(m.stored.Locale, locales.Computer, tr(m.stored.Locale, levelName(s.Computer))))
		} else {
			names = append(names, s.Name)
		}
	}
	name := tr(m.stored.Locale, locales.ThreadName, m.stored.ID, strings.Join(names, ", "))
	if r := []rune(name); len(r) > 100 {
		name = string(r[:99]) + "…"
	}
	return name
}
