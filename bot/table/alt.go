package table

import (
	"strings"
	"unicode/utf8"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

// MaxAlt is the most characters Discord takes in a picture's alt text (a
// media gallery item's or an attachment's description).
const MaxAlt = 1024

// alt is a picture's alt text being written: sentences that always come
// (head, then tail) around a list of lettered choices that is cut, with
// "and N more", where the whole would pass MaxAlt.
type alt struct {
	lang  string
	head  []string
	items []string
	tail  []string
}

// String is the alt text, at most MaxAlt characters.
func (a alt) String() string {
	join := func(items []string, more int) string {
		parts := append([]string{}, a.head...)
		if len(items) > 0 || more > 0 {
			list := strings.Join(items, "; ")
			if more > 0 {
				if list != "" {
					list += "; "
				}
				list += tr(a.lang, locales.AltMore, more)
			}
			parts = append(parts, list+".")
		}
		return strings.Join(append(parts, a.tail...), " ")
	}
	for n := len(a.items); n >= 0; n-- {
		if s := join(a.items[:n], len(a.items)-n); utf8.RuneCountInString(s) <= MaxAlt {
			return s
		}
	}
	return clip(join(nil, len(a.items)), MaxAlt)
}

// altSeat names a seat in alt text: the name (a computer's level in
// words), then the colour, with no emoji for a screen reader to spell out.
func (t *Table) altSeat(lang string, s *malefiz.Seat) string {
	if s == nil {
		return "?"
	}
	name := seatName(lang, s, func(s string) string { return s })
	if c := SeatColor(s); c.Valid() {
		name += " (" + tr(lang, colorName[c]) + ")"
	}
	return name
}

// altMove is move m, lettered letter, in words: where from and to, what
// it captures, that it wins.
func (t *Table) altMove(lang, letter string, p engine.Position, m engine.Move) string {
	var s string
	switch {
	case m.To == engine.Goal:
		s = tr(lang, locales.AltMoveGoal, letter, m.From.String())
	case m.From == engine.NoSquare:
		s = tr(lang, locales.AltMoveOut, letter, m.To.String())
	default:
		s = tr(lang, locales.AltMove, letter, m.From.String(), m.To.String())
	}
	switch piece := p.At(m.To); {
	case piece == engine.Barricade:
		s += ", " + tr(lang, locales.AltTakesBarricade)
	case captures(p, m.To):
		s += ", " + tr(lang, locales.AltCapturesPawn, t.altSeat(lang, t.SeatByColor(piece.Color())))
	}
	return s
}

// altPawn is the pawn on from (NoSquare: one in the house), lettered
// letter, in words.
func altPawn(lang, letter string, from engine.Square) string {
	if from == engine.NoSquare {
		return tr(lang, locales.AltPawnOut, letter)
	}
	return tr(lang, locales.AltPawn, letter, from.String())
}

// altLeader is the sentence naming who is nearest the goal and how far:
// every seat at that distance.
func (t *Table) altLeader(lang string) string {
	best := -1
	var who []string
	for i := range t.Game.Seats {
		s := &t.Game.Seats[i]
		c := SeatColor(s)
		if !c.Valid() || s.Left {
			continue
		}
		d := distance(t.State.Position(), c)
		switch {
		case best < 0 || d < best:
			best, who = d, []string{t.altSeat(lang, s)}
		case d == best:
			who = append(who, t.altSeat(lang, s))
		}
	}
	if best < 0 {
		return ""
	}
	return tr(lang, locales.AltLeader, best, strings.Join(who, ", "))
}

// InWords is msg with its board as text: the picture dropped, its alt text
// added to the text of the embed that showed it. A message without a board
// is returned as it is.
func InWords(msg Message) Message {
	if msg.Board == nil {
		return msg
	}
	embeds := append([]Embed(nil), msg.Embeds...)
	for i := range embeds {
		if e := &embeds[i]; e.Board {
			e.Board = false
			if msg.BoardAlt != "" {
				e.Description = strings.TrimSpace(e.Description + "\n" + msg.BoardAlt)
			}
		}
	}
	msg.Embeds, msg.Board, msg.BoardAlt = embeds, nil, ""
	return msg
}
