package table

import (
	"github.com/malefiz-discord/malefiz/bot/locales"
)

// NotGraded adds to the coach's verdict m (CoachMessage) that the coach
// skipped skipped of the game's total graded rolls: it was too busy to
// grade them in time, and they count in no accuracy (see the game
// service's coach).
func (t *Table) NotGraded(m *Message, skipped, total int) {
	if skipped <= 0 || len(m.Embeds) == 0 {
		return
	}
	e := &m.Embeds[0]
	line := tr(t.Game.Locale, locales.CoachNotGraded, skipped, total)
	if e.Description != "" {
		line = "\n\n" + line
	}
	e.Description += line
}
