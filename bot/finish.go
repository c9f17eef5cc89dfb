package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/store"
)

// finish records the end of the game and posts the result: the final board
// and the winner. The card in the channel shows the result and the thread
// is archived after it. The change commits the results with it (see commit).
func (b *Bot) finish(m *match) {
	winner := m.seatByColor(m.game.Winner())
	m.record(store.EventWin, winner.UserID, winner.Color, "")
	m.dropReminder()
	m.post(b.resultView(m), "")
	m.effects[len(m.effects)-1].Ratings = true
	m.edit(store.RoleLobby, b.cardData(m), false)
	for _, s := range m.stored.Seats {
		if s.UserID != "" && !s.Left {
			m.notify(s.UserID, tr(m.stored.Locale, locales.DmEnded, m.stored.ID, b.seatLabel(m, winner), linkPlaceholder), store.RoleLobby)
		}
	}
	m.archive()
}

// resultView is the final message: the winner and the final board.
func (b *Bot) resultView(m *match) view {
	lang := m.stored.Locale
	winner := m.seatByColor(m.game.Winner())
	text := tr(lang, locales.GameWinner, b.seatLabel(m, winner), m.game.TurnNumber())
	if m.game.Forfeit() {
		text = tr(lang, locales.GameWinnerForfeit, b.seatLabel(m, winner))
	}
	embed := &discordgo.MessageEmbed{Title: "🏆 " + text, Color: colorRGB[m.game.Winner()],
		Image:  &discordgo.MessageEmbedImage{URL: "attachment://" + boardFileName},
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, locales.GameFooter, m.stored.ID)}}
	sc := scene(m)
	v := view{embeds: []*discordgo.MessageEmbed{embed}, board: &sc}
	// Everyone who played hears of the end; Rematch opens a new lobby.
	var who []string
	for _, s := range m.stored.Seats {
		if s.UserID != "" && !s.Left {
			v.pings = append(v.pings, s.UserID)
			who = append(who, mention(s.UserID))
		}
	}
	v.content = strings.Join(who, " ")
	v.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, locales.ButtonRematch), Style: discordgo.SuccessButton,
			CustomID: CustomID{Action: ActRematch, Game: m.stored.ID}.String(), Emoji: &discordgo.ComponentEmoji{Name: "🔁"}},
	}}}
	return v
}

// resign takes the user out of the running game (rule 10).
func (b *Bot) resign(ctx context.Context, r *request, id int64) error {
	return b.change(ctx, r, id, func(m *match) error {
		if m.stored.Status != store.StatusRunning {
			return refuse(locales.ErrGameEnded)
		}
		i, ok := m.seatOf(r.userID)
		if !ok {
			return refuse(locales.ErrNotInGame)
		}
		seat := &m.stored.Seats[i]
		c := seatColor(seat)
		turn := m.game.TurnNumber()
		wasTurn := m.game.Turn() == c
		if err := m.game.Remove(c); err != nil {
			return err
		}
		seat.Left = true
		m.record(store.EventResign, r.userID, seat.Color, "")
		line := tr(m.stored.Locale, locales.GameResigned, b.seatLabel(m, seat))
		if r.isClick() {
			// Confirmed on the private question: it says so, and the
			// game's place hears of it.
			m.answer(discordgo.InteractionResponseUpdateMessage, closedData(tr(r.lang, locales.GameResigned, b.seatLabel(m, seat))), nil)
			m.post(view{content: line}, "")
		} else {
			m.answer(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
				Content: line, AllowedMentions: &discordgo.MessageAllowedMentions{}}, nil)
		}
		switch {
		case m.game.Over():
			if wasTurn {
				m.edit(store.RoleTurn, summaryData(b.summary(m, turn)), false)
			}
			b.finish(m)
		case wasTurn:
			at := len(m.effects)
			m.beginTurn()
			more, err := b.advance(m)
			if err != nil {
				return err
			}
			m.insertEdit(at, store.RoleTurn, summaryData(joinLines(append([]string{b.summary(m, turn)}, more...))))
		default:
			m.edit(store.RoleLobby, b.cardData(m), false)
		}
		return nil
	})
}

func (b *Bot) cmdResign(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, seated(r.userID))
	if err != nil {
		return err
	}
	if sg.Status == store.StatusLobby {
		return b.lobbyAction(ctx, r, sg.ID, leave(r))
	}
	return b.askResign(r, sg)
}
