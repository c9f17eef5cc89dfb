package table

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/render"
)

// Who is winning, and why (issue 20): each seat's chance on the card, a
// computer's reason beside its move, the barricade suggestions with theirs,
// and after the game its turning points and the chart of the chances.

// turningPoints is how many turning points the result lists.
const turningPoints = 3

// Percent formats a chance (0 to 1) as a whole percentage in lang.
func Percent(lang string, chance float64) string {
	return tr(lang, locales.FormatPercent, int(math.Round(100*chance)))
}

// chances are the win chances of the running game's colours, by the
// learned estimator with the tempo taken out (ai.SteadyChances), when the
// server shows them; ok is false otherwise. The live board shows them, the
// same for every viewer at every moment; the card shows the card's (see
// ChanceFill).
func (t *Table) chances() (ch [engine.NumColors]float64, ok bool) {
	if !t.showsChances() {
		return ch, false
	}
	return ai.SteadyChances(t.State.Position(), t.Rules()), true
}

// showsChances reports whether the game shows its chances: the server
// shows them and the game runs.
func (t *Table) showsChances() bool {
	return t.Settings.Chances && t.State != nil && !t.State.Over()
}

// The scoreboard card's chances are read when the card is delivered, not
// when its change is committed: the card's estimator plays the position
// out (ai.CardChances, a tenth of a second or more of CPU), which a click
// must not wait for, and a card edit that a newer one supersedes is never
// sent, so its chances are never read. The card's text holds a
// ChanceToken for each seat's chance, and its Message a ChanceFill that
// says what to put there.

// ChanceToken is what the card's text holds in place of colour c's chance
// until delivery fills it in (ChanceFill.Words).
func ChanceToken(c engine.Color) string { return "{chance:" + string(c.Letter()) + "}" }

// ChanceFill is what a message needs to fill in its chances: the position
// they are of, its house rules and the message's language.
type ChanceFill struct {
	Position engine.Position `json:"position"`
	Rules    engine.Rules    `json:"rules"`
	Lang     string          `json:"lang"`
}

// Words returns each colour's chance in play by est, in f's language, by
// its ChanceToken.
func (f *ChanceFill) Words(est ai.Estimator) map[string]string {
	ch := est(f.Position, f.Rules)
	out := map[string]string{}
	for _, c := range f.Position.Players() {
		out[ChanceToken(c)] = Percent(f.Lang, ch[c])
	}
	return out
}

// fill returns text with each token of words replaced by its words.
func fill(text string, words map[string]string) string {
	for token, w := range words {
		text = strings.ReplaceAll(text, token, w)
	}
	return text
}

// WithChances returns m with its chances filled in by est, for an answer
// that goes at once, not through delivery: the card a click on its
// lobby's Start turns the lobby into, which est must read without
// waiting (ai.KnownChances). A message without chances comes back as it
// is.
func (m Message) WithChances(est ai.Estimator) Message {
	if m.Chances == nil {
		return m
	}
	words := m.Chances.Words(est)
	m.Content = fill(m.Content, words)
	m.Embeds = slices.Clone(m.Embeds)
	for i := range m.Embeds {
		m.Embeds[i].Title = fill(m.Embeds[i].Title, words)
		m.Embeds[i].Description = fill(m.Embeds[i].Description, words)
	}
	m.Chances = nil
	return m
}

// said is what a reason's words already say of a move, for its line to
// leave out.
type said struct {
	captures bool // whose pawn the move captured
}

// maxReasons is how many reasons a computer's line gives at most.
const maxReasons = 2

// why is the reason of the computer's i-th move of turn in words: its main
// reason, and a second one when it weighs at least half as much (a capture
// that also runs for the goal); "" when the move wins, the line saying so.
func (t *Table) why(lang string, turn, i int) (string, said) {
	rs := t.reasons[turn]
	if i >= len(rs) {
		return "", said{}
	}
	var texts []string
	var s said
	for k, r := range rs[i] {
		if k > 0 && (len(texts) == maxReasons || r.Gain < rs[i][0].Gain/2) {
			break
		}
		text := t.reasonText(lang, r)
		if text == "" || slices.Contains(texts, text) {
			continue
		}
		texts = append(texts, text)
		s.captures = s.captures || r.Kind == ai.ReasonCaptures
	}
	return strings.Join(texts, ", "), s
}

// reasonText puts a computer's reason for its move into words in lang; ""
// only for a move that wins (its line says it reached the goal).
func (t *Table) reasonText(lang string, r ai.Reason) string {
	who := func() string { return t.seatLabelIn(lang, t.SeatByColor(r.Color)) }
	switch r.Kind {
	case ai.ReasonCaptures:
		if r.Lead {
			return tr(lang, locales.ReasonCapturesLead, who())
		}
		return tr(lang, locales.ReasonCaptures, who())
	case ai.ReasonBlocks:
		return tr(lang, locales.ReasonSlows, who(), locales.Tenths(r.Turns))
	case ai.ReasonRuns:
		return tr(lang, locales.ReasonRuns)
	case ai.ReasonEnters:
		return tr(lang, locales.ReasonEnters)
	case ai.ReasonClears:
		return tr(lang, locales.ReasonClears)
	case ai.ReasonEscapes:
		return tr(lang, locales.ReasonEscapes, who())
	case ai.ReasonAdvances:
		return tr(lang, locales.ReasonAdvances, r.Steps)
	case ai.ReasonForced:
		return tr(lang, locales.ReasonForced)
	case ai.ReasonWaits, ai.ReasonNone:
		return tr(lang, locales.ReasonWaits)
	}
	return ""
}

// explain records why the computer plays mv, the move it chose for the
// position and roll the game stands at, for the turn's line.
func (t *Table) explain(mv engine.Move) {
	rs := ai.Explain(t.State.Position(), t.State.Rolled(), t.Rules(), mv)
	if t.reasons == nil {
		t.reasons = map[int][][]ai.Reason{}
	}
	turn := t.State.TurnNumber()
	t.reasons[turn] = append(t.reasons[turn], rs[:min(len(rs), maxReasons)])
}

// suggestion is a suggested square for a captured barricade with its
// reason in words.
type suggestion struct {
	Square engine.Square
	Reason string
}

// suggestions are the squares suggested for the barricade the pending move
// captured, best first, by ai.SuggestPlacements, with their reasons in
// lang; a square on the placer's own way comes only after the others.
func (t *Table) suggestions(lang string) []suggestion {
	pending, ok := t.State.Pending()
	if !ok {
		return nil
	}
	ps := t.placements(pending)
	out := make([]suggestion, 0, len(ps))
	for _, p := range ps {
		s := suggestion{Square: p.Square}
		switch p.Kind {
		case ai.PlaceBlocks:
			s.Reason = tr(lang, locales.PlaceSlows, t.plainLabel(t.SeatByColor(p.Color)), locales.Tenths(p.Turns))
		case ai.PlaceOwnWay:
			s.Reason = tr(lang, locales.PlaceOwnCost, locales.Tenths(p.Turns))
		default:
			s.Reason = tr(lang, locales.PlaceAside)
		}
		out = append(out, s)
	}
	return out
}

// advice is the coach's squares for a taken barricade in one position,
// kept so that every view of the position (the turn message, each
// language, the board) asks the coach's search once.
type advice struct {
	pos     engine.Position
	roll    int
	pending engine.Move
	squares []ai.Placement
}

// placements are the squares the coach suggests for the barricade pending
// takes, in the position the game stands at (ai.SuggestPlacements).
func (t *Table) placements(pending engine.Move) []ai.Placement {
	pos, roll := t.State.Position(), t.State.Rolled()
	if a := t.advised; a != nil && a.pos == pos && a.roll == roll && a.pending == pending {
		return a.squares
	}
	ps := ai.SuggestPlacements(pos, t.Rules(), roll, pending, t.State.PlacementSquares(), maxSuggestions)
	t.advised = &advice{pos: pos, roll: roll, pending: pending, squares: ps}
	return ps
}

// plainLabel names a seat where Markdown is not read (a button's label):
// the colour's emoji and the name as chosen.
func (t *Table) plainLabel(s *malefiz.Seat) string {
	if s == nil {
		return "?"
	}
	name := s.Name
	if s.Computer != "" && s.UserID == "" {
		name = tr(t.Game.Locale, locales.Computer, tr(t.Game.Locale, locales.Level(s.Computer)))
	}
	if c := SeatColor(s); c.Valid() {
		return ColorEmoji[c] + " " + name
	}
	return name
}

// maxLabel is the longest button label Discord takes.
const maxLabel = 80

// clip cuts s to at most n characters, with an ellipsis when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Chart is a chart of each seat's chance to win over a game, as plain
// data: drawn with render.ChanceChart and attached as chances.png when its
// message goes out.
type Chart struct {
	Series []render.ChanceSeries `json:"series"`
	// Markers are the turns of the turning points, numbered 1, 2, … in
	// this order on the chart and in the message.
	Markers []int `json:"markers,omitempty"`
}

// PNG draws the chart at render's default size.
func (c *Chart) PNG() ([]byte, error) { return render.ChanceChart(c.Series, c.Markers, 0, 0) }

// Conclude completes the change that finished the game from its whole log,
// events (the stored ones; the change's own are added): each seat's
// results, and the result message's turning points and chance chart (the
// snapshot keeps only what the present needs, so the game's course comes
// from the log). The adapter calls it before it commits a finished game.
func (t *Table) Conclude(events []malefiz.Event) ([]malefiz.Result, error) {
	g, err := t.replayed(events)
	if err != nil {
		return nil, err
	}
	for i := range t.effects {
		if e := &t.effects[i]; e.Kind == Post && e.Result && e.Message != nil {
			t.addAnalysis(e.Message, ai.Analyse(g, nil, turningPoints))
		}
	}
	return t.results(g), nil
}

// addAnalysis adds to the result msg the turning points of analysis a and
// the chart of the chances.
func (t *Table) addAnalysis(msg *Message, a ai.Analysis) {
	lang := t.Game.Locale
	chart := t.chart(a)
	lines := t.turningLines(lang, a)
	desc := tr(lang, locales.ChancesChart)
	if len(lines) > 0 {
		desc = strings.Join(lines, "\n") + "\n\n" + desc
	}
	msg.Embeds = append(msg.Embeds, Embed{Title: tr(lang, locales.ChancesTitle), Description: desc,
		Color: msg.Embeds[0].Color, Chart: true})
	msg.Chart = chart
	msg.ChartAlt = clip(tr(lang, locales.AltChart), MaxAlt)
}

// turningLines are the turning points of a, one line each in lang,
// numbered as the chart's markers: who rolled what, the move and what it
// did, the mover's chance before the roll and after the move, and that
// change split into the roll's luck and the move's choice (what it lost
// against the best move for the roll).
func (t *Table) turningLines(lang string, a ai.Analysis) []string {
	var lines []string
	for i, tp := range a.Turning {
		what := moveLine(lang, tp.Move)
		why := t.reasonText(lang, tp.Why)
		if why == "" && tp.Move.To == engine.Goal {
			why = tr(lang, locales.TurnReachedGoal)
		}
		split := tr(lang, locales.ChancesSplitBest, points(tp.Luck()))
		if lost := points(tp.Choice()); lost != "0" && lost != "+0" {
			split = tr(lang, locales.ChancesSplitLost, points(tp.Luck()), lost, moveLine(lang, tp.Best))
			if tp.Why.Kind == ai.ReasonWaits {
				why = "" // not "the roll allows nothing better" beside a better move
			}
		}
		if why != "" {
			what += " (" + why + ")"
		}
		lines = append(lines, tr(lang, locales.ChancesTurning, i+1, tp.Turn, t.seatLabel(t.SeatByColor(tp.Color)), tp.Roll,
			what, Percent(lang, tp.Prior), Percent(lang, tp.After))+" · "+split)
	}
	return lines
}

// points writes a change of chance (-1 to 1) in whole points, signed:
// "+20", "−8", "0".
func points(d float64) string {
	p := int(math.Round(100 * d))
	switch {
	case p > 0:
		return "+" + strconv.Itoa(p)
	case p < 0:
		return "−" + strconv.Itoa(-p)
	}
	return "0"
}

// chart is the chart of each colour's chance along a, one point a turn,
// with the turning points as markers.
func (t *Table) chart(a ai.Analysis) *Chart {
	chart := &Chart{}
	for _, tp := range a.Turning {
		chart.Markers = append(chart.Markers, tp.Turn)
	}
	for _, c := range a.Colors {
		s := render.ChanceSeries{Color: c}
		if seat := t.SeatByColor(c); seat != nil {
			s.Label = t.plainLabel(seat)
			if c.Valid() {
				s.Label = strings.TrimPrefix(s.Label, ColorEmoji[c]+" ")
			}
		}
		// One point per turn: the chances after the turn's last move.
		for _, p := range a.Points {
			for len(s.Points) <= p.Turn {
				s.Points = append(s.Points, math.NaN())
			}
			s.Points[p.Turn] = p.Chances[c]
		}
		for i := 1; i < len(s.Points); i++ {
			if math.IsNaN(s.Points[i]) {
				s.Points[i] = s.Points[i-1] // a turn without a move
			}
		}
		chart.Series = append(chart.Series, s)
	}
	return chart
}

// moveLine is a move as a history line writes it, with its barricade.
func moveLine(lang string, m engine.Move) string {
	s := moveText(lang, m.From, m.To)
	if m.Place != engine.NoSquare {
		s += ", " + tr(lang, locales.TurnBarricadeTo, m.Place.String())
	}
	return s
}

// ChartOf is the chance chart of a whole game g (a replay), with its
// turning points as markers, and the turning points as the result message
// writes them in the game's language (Markdown), as `malefiz analyse`
// prints them.
func (t *Table) ChartOf(g *engine.Game) (*Chart, []string) {
	a := ai.Analyse(g, nil, turningPoints)
	return t.chart(a), t.turningLines(t.Game.Locale, a)
}

// replayed is the whole game, rebuilt from its log, checked against the
// snapshot.
func (t *Table) replayed(events []malefiz.Event) (*engine.Game, error) {
	g, err := Replay(t.Game, append(events, t.Events...))
	if err != nil {
		return nil, err
	}
	if g == nil || g.Position() != t.State.Position() || g.Winner() != t.State.Winner() {
		return nil, fmt.Errorf("game %d: the event log does not replay to the game's state", t.Game.ID)
	}
	return g, nil
}
