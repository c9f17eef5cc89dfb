package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/store"
)

// finish records the end of the game and posts the result: the final board
// and the winner. The change commits the results with it (see commit).
func (b *Bot) finish(m *match) { b.finishWith(m, nil) }

// finishWith is finish with lines of what happened before the end, shown
// above the result.
func (b *Bot) finishWith(m *match, lines []string) {
	winner := m.seatByColor(m.game.Winner())
	m.record(store.EventWin, winner.UserID, winner.Color, "")
	v := b.resultView(m)
	v.content = joinLines(lines)
	m.post(v, "")
}

// resultView is the final message: the winner and the final board.
func (b *Bot) resultView(m *match) view {
	lang := m.stored.Locale
	winner := m.seatByColor(m.game.Winner())
	text := tr(lang, msgWinner, b.seatLabel(m, winner), m.game.TurnNumber())
	if m.game.Forfeit() {
		text = tr(lang, msgWinnerForfeit, b.seatLabel(m, winner))
	}
	embed := &discordgo.MessageEmbed{Title: "🏆 " + text, Color: colorRGB[m.game.Winner()],
		Image:  &discordgo.MessageEmbedImage{URL: "attachment://" + boardFileName},
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, msgGameFooter, m.stored.ID)}}
	sc := scene(m)
	return view{embeds: []*discordgo.MessageEmbed{embed}, board: &sc}
}

// resign takes the user out of the running game (rule 10).
func (b *Bot) resign(ctx context.Context, r *request, id int64) error {
	return b.change(ctx, r, id, func(m *match) error {
		if m.stored.Status != store.StatusRunning {
			return refuse(msgGameEnded)
		}
		i, ok := m.seatOf(r.userID)
		if !ok {
			return refuse(msgNotInGame)
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
		m.answer(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
			Content: tr(m.stored.Locale, msgResigned, b.seatLabel(m, seat)), AllowedMentions: &discordgo.MessageAllowedMentions{}}, nil)
		if wasTurn {
			m.edit(store.RoleTurn, summaryData(b.summary(m, turn)), false)
		}
		if m.game.Over() {
			b.finish(m)
			return nil
		}
		if !wasTurn {
			return nil
		}
		m.beginTurn()
		return b.advance(m, nil)
	})
}

func (b *Bot) cmdResign(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r)
	if err != nil {
		return err
	}
	if sg.Status == store.StatusLobby {
		return b.lobbyAction(ctx, r, sg.ID, leave(r))
	}
	return b.resign(ctx, r, sg.ID)
}
