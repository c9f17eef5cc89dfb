package table

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
)

// MaxAlt is the most characters Discord takes in a picture's alt text (a
// media gallery item's or an attachment's description).
const MaxAlt = 1024

// alt is a picture's alt text being written: sentences that always come
// (head, then tail) around a list of lettered choices that is cut, with
// "and N more", where the whole would pass MaxAlt. left is how many items
// were left out of items before (counted in "and N more" too).
type alt struct {
	lang  string
	head  []string
	items []string
	tail  []string
	left  int
}

// String is the alt text, at most MaxAlt characters.
func (a alt) String() string {
	for n := len(a.items); n >= 0; n-- {
		if s := a.with(n); utf8.RuneCountInString(s) <= MaxAlt {
			return s
		}
	}
	return clip(a.with(0), MaxAlt)
}

// with is the alt text with the first n items, the others counted in
// "and N more", whatever its length.
func (a alt) with(n int) string {
	parts := append([]string{}, a.head...)
	more := a.left + len(a.items) - n
	if n > 0 || more > 0 {
		list := strings.Join(a.items[:n], "; ")
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

// altSeat names a seat in alt text: the name (a computer's level in
// words), then the colour, with no emoji for a screen reader to spell out.
func altSeat(lang string, s *malefiz.Seat) string {
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
		s += ", " + tr(lang, locales.AltCapturesPawn, altSeat(lang, t.SeatByColor(piece.Color())))
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
			best, who = d, []string{altSeat(lang, s)}
		case d == best:
			who = append(who, altSeat(lang, s))
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

// ReplayAlt is the alt text of the replay of game sg, g being the game
// replayed from its log (Replay), in lang: the game's number and length,
// the players with their colours and who began, how it ended (who won and
// from which turn they led for good, or that it runs still, with the
// command that gives its board in words), who left, the captures by
// player and then those nearest the goal, turn by turn. At most MaxAlt
// characters: the captures listed are cut first, the nearest the goal
// kept.
func ReplayAlt(lang string, sg *malefiz.Game, g *engine.Game) string {
	// A seat is its player's name (a computer's level for a seat the
	// computer held from the start; who took over from whom is the
	// thread's to tell) and its colour, as the animation shows it.
	seat := func(c engine.Color) string {
		for i := range sg.Seats {
			if s := &sg.Seats[i]; SeatColor(s) == c {
				name := s.Name
				if s.Computer != "" && s.UserID == "" {
					name = tr(lang, locales.Computer, tr(lang, locales.Level(s.Computer)))
				}
				return name + " (" + tr(lang, colorName[c]) + ")"
			}
		}
		return tr(lang, colorName[c])
	}
	start := g.StartPosition()
	var names []string
	for _, c := range start.Players() {
		names = append(names, seat(c))
	}
	head := []string{
		tr(lang, locales.AltReplay, sg.ID, g.TurnNumber()),
		tr(lang, locales.AltReplayPlayers, strings.Join(names, ", "), seat(start.Turn())),
	}

	// The game move by move, on the replay's frames (one per move, after
	// the start): the captures, who left, and since which move the
	// winner was nearer the goal than every other player still in.
	frames := render.ReplayScenes(g)
	type capture struct {
		turn   int
		by, of engine.Color
		at     engine.Square
	}
	var (
		caps       []capture
		left       []string
		gone       = map[engine.Color]bool{}
		winner     = g.Winner()
		moves      int
		leadFrom   = -1 // the move since which the winner leads, or -1
		leadTurn   int
		lastTurn   int
		capturesBy [engine.NumColors]int
	)
	for _, r := range g.History() {
		switch r.Kind {
		case engine.RecordRemove:
			gone[r.Color] = true
			left = append(left, tr(lang, locales.AltReplayLeft, seat(r.Color), r.Turn))
		case engine.RecordMove:
			moves++
			lastTurn = r.Turn
			if r.Captured.Valid() {
				caps = append(caps, capture{turn: r.Turn, by: r.Color, of: r.Captured, at: r.Move.To})
				capturesBy[r.Color]++
			}
			if !winner.Valid() || moves >= len(frames) {
				continue
			}
			pos := frames[moves].Position
			ahead := true
			for _, c := range start.Players() {
				if c != winner && !gone[c] && distance(pos, c) <= distance(pos, winner) {
					ahead = false
				}
			}
			switch {
			case !ahead:
				leadFrom = -1
			case leadFrom < 0:
				leadFrom, leadTurn = moves, r.Turn
			}
		}
	}

	var tail []string
	switch {
	case winner.Valid() && g.Forfeit():
		head = append(head, tr(lang, locales.AltReplayForfeit, seat(winner)))
	case winner.Valid() && (leadFrom < 0 || leadFrom == moves):
		head = append(head, tr(lang, locales.AltReplayWonLate, seat(winner), lastTurn))
	case winner.Valid():
		head = append(head, tr(lang, locales.AltReplayWon, seat(winner), leadTurn, lastTurn))
	case sg.Status == malefiz.StatusRunning:
		tail = append(tail, replayLeader(lang, g.Position(), seat), tr(lang, locales.AltReplayRunning))
	default:
		head = append(head, tr(lang, locales.AltReplayCancelled))
	}
	head = append(head, left...)
	if len(caps) == 0 {
		return alt{lang: lang, head: append(head, tr(lang, locales.AltReplayNoCaptures)), tail: tail}.String()
	}
	var by []string
	for _, c := range start.Players() {
		if capturesBy[c] > 0 {
			by = append(by, seat(c)+" "+strconv.Itoa(capturesBy[c]))
		}
	}
	head = append(head, tr(lang, locales.AltReplayCaptures, len(caps), strings.Join(by, ", ")))

	// The captures nearest the goal first: as many as fit, told in the
	// order they were played.
	order := make([]int, len(caps))
	said := make([]string, len(caps))
	for i, c := range caps {
		order[i] = i
		said[i] = tr(lang, locales.AltReplayCapture, c.turn, seat(c.by), seat(c.of), c.at.String())
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := engine.DistanceToGoal(caps[a].at) - engine.DistanceToGoal(caps[b].at); d != 0 {
			return d
		}
		return b - a // of two as near, the later
	})
	for n := len(caps); n > 0; n-- {
		chosen := slices.Sorted(slices.Values(order[:n]))
		items := make([]string, 0, n)
		for _, i := range chosen {
			items = append(items, said[i])
		}
		lead := locales.AltReplayEach
		if n < len(caps) {
			lead = locales.AltReplayNearest
		}
		a := alt{lang: lang, head: append(slices.Clip(head), tr(lang, lead)), items: items, tail: tail, left: len(caps) - n}
		if s := a.with(n); utf8.RuneCountInString(s) <= MaxAlt {
			return s
		}
	}
	return alt{lang: lang, head: head, tail: tail}.String()
}

// replayLeader is the sentence naming who is nearest the goal at p, and
// how far, among the players still in (as altLeader does for a table).
func replayLeader(lang string, p engine.Position, seat func(engine.Color) string) string {
	best := -1
	var who []string
	for _, c := range p.Players() {
		switch d := distance(p, c); {
		case best < 0 || d < best:
			best, who = d, []string{seat(c)}
		case d == best:
			who = append(who, seat(c))
		}
	}
	return tr(lang, locales.AltLeader, best, strings.Join(who, ", "))
}
