package bot

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// maxMoveButtons is how many moves are offered as buttons at once; with more,
// the player first picks a pawn.
const maxMoveButtons = 20

// maxSuggestions is how many squares are suggested for a captured barricade.
const maxSuggestions = 5

var (
	colorEmoji = [engine.NumColors]string{"🔴", "🟢", "🟡", "🔵"}
	colorRGB   = [engine.NumColors]int{0xD32F2F, 0x2E7D32, 0xF9A825, 0x1565C0}
	colorName  = [engine.NumColors]msg{locales.ColorRed, locales.ColorGreen, locales.ColorYellow, locales.ColorBlue}
)

// view is a message to send or to show in place of another. Its board is
// drawn only when the message goes out.
type view struct {
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	board      *render.Scene // attached as board.png
	pings      []string
	reference  *discordgo.MessageReference
}

// viewOptions choose what a turn view shows.
type viewOptions struct {
	pawn       engine.Square // with pawnChosen: only this pawn's moves
	pawnChosen bool
	row        int    // placement: the row whose squares the menu lists
	private    bool   // a private look at the board: no ping, buttons only for the mover
	viewer     string // with private: who looks; others read whose turn it is
}

// choices are the moves a player chooses between, one per FROM-TO (a move
// that captures a barricade stands for all its placements), lettered in
// this order as render.Letter letters them on the board.
func choices(g *engine.Game) []engine.Move { return render.Choices(g.LegalMoves()) }

// seatLabel names a seat for messages: colour and name.
func (b *Bot) seatLabel(m *match, s *store.Seat) string {
	if s == nil {
		return "?"
	}
	c := seatColor(s)
	name := quote(s.Name)
	if s.Computer != "" {
		name = tr(m.stored.Locale, locales.Computer, tr(m.stored.Locale, levelName(s.Computer)))
		if s.UserID != "" {
			name = tr(m.stored.Locale, locales.ComputerReplacing, quote(s.Name), name)
		}
	}
	if !c.Valid() {
		return name
	}
	return colorEmoji[c] + " " + name
}

// colorLabel is a colour's emoji and name in lang.
func colorLabel(lang string, c engine.Color) string {
	if !c.Valid() {
		return ""
	}
	return colorEmoji[c] + " " + tr(lang, colorName[c])
}

func moveText(lang string, from, to engine.Square) string {
	f := from.String()
	if from == engine.NoSquare {
		f = tr(lang, locales.Home)
	}
	return f + "→" + to.String()
}

// summary is the one line that tells what happened in turn.
func (b *Bot) summary(m *match, turn int) string { return b.summaryAs(m, turn, "") }

// summaryAs is summary with who, when set, naming the one who rolled (a
// turn played for someone).
func (b *Bot) summaryAs(m *match, turn int, as string) string {
	lang := m.stored.Locale
	var parts []string
	var who string
	for _, rec := range m.game.History() {
		if rec.Turn != turn {
			continue
		}
		who = b.seatLabel(m, m.seatByColor(rec.Color))
		switch rec.Kind {
		case engine.RecordRoll:
			if as != "" {
				who = as
			}
			parts = append(parts, tr(lang, locales.TurnRolled, who, rec.Roll))
		case engine.RecordPass:
			parts = append(parts, tr(lang, locales.TurnNoMove))
		case engine.RecordMove:
			s := moveText(lang, rec.Move.From, rec.Move.To)
			if rec.Captured != engine.NoColor {
				s += ", " + tr(lang, locales.TurnCaptured, b.seatLabel(m, m.seatByColor(rec.Captured)))
			}
			if rec.Move.Place != engine.NoSquare {
				s += ", " + tr(lang, locales.TurnBarricadeTo, rec.Move.Place.String())
			}
			if rec.Move.To == engine.Goal {
				s += " — " + tr(lang, locales.TurnReachedGoal)
			}
			parts = append(parts, s)
		case engine.RecordRemove:
			parts = append(parts, tr(lang, locales.TurnLeftGame, who))
		}
	}
	return tr(lang, locales.TurnPrefix, turn) + " " + strings.Join(parts, " ")
}

// lastMove returns the newest move record, for the board's trail.
func lastMove(g *engine.Game) (engine.Record, bool) {
	h := g.History()
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Kind == engine.RecordMove {
			return h[i], true
		}
	}
	return engine.Record{}, false
}

// scene is the board of a running game with its last move.
func scene(m *match) render.Scene {
	s := render.NewScene(m.game.Position())
	s.Turn = m.game.Turn()
	if m.game.Over() {
		s.Turn, s.Winner = engine.NoColor, m.game.Winner()
	}
	if rec, ok := lastMove(m.game); ok {
		s.LastPath, s.Captured = rec.Path, rec.Captured
	}
	return s
}

// turnView is the message of the turn in progress, for the phase it is in.
func (b *Bot) turnView(m *match, o viewOptions) view {
	lang := m.stored.Locale
	seat := m.toMove()
	color := m.game.Turn()
	sc := scene(m)
	var desc []string
	var comps []discordgo.MessageComponent
	turn := m.game.TurnNumber()
	cid := func(a Action, arg string) string {
		return CustomID{Action: a, Game: m.stored.ID, Turn: turn, Arg: arg}.String()
	}
	// A private look by someone not to move says whose turn it is.
	onlooker := o.private && (seat == nil || seat.UserID != o.viewer || seat.Computer != "")
	if onlooker {
		switch m.game.Phase() {
		case engine.PhaseRoll:
			desc = append(desc, tr(lang, locales.BoardOthersRoll, b.seatLabel(m, seat)))
		default:
			sc.Roll = m.game.Rolled()
			desc = append(desc, tr(lang, locales.BoardOthersMove, b.seatLabel(m, seat), m.game.Rolled()))
		}
	}
	switch phase := m.game.Phase(); {
	case onlooker:
	case phase == engine.PhaseRoll:
		desc = append(desc, tr(lang, locales.TurnPromptRoll))
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(lang, locales.ButtonRoll), Style: discordgo.PrimaryButton, CustomID: cid(ActRoll, ""),
				Emoji: &discordgo.ComponentEmoji{Name: "🎲"}},
		}})
	case phase == engine.PhaseMove:
		sc.Roll = m.game.Rolled()
		all := choices(m.game)
		if len(all) > maxMoveButtons && !o.pawnChosen {
			desc = append(desc, tr(lang, locales.TurnPromptPawn, m.game.Rolled()))
			var buttons []discordgo.MessageComponent
			seen := map[engine.Square]bool{}
			for _, c := range all {
				if seen[c.From] {
					continue
				}
				seen[c.From] = true
				letter := render.Letter(len(buttons))
				arg := "home"
				if c.From != engine.NoSquare {
					arg = c.From.String()
					sc.Origins = append(sc.Origins, render.Label{Square: c.From, Text: letter})
				}
				label := letter + " · " + arg
				if c.From == engine.NoSquare {
					label = letter + " · " + tr(lang, locales.Home)
				}
				buttons = append(buttons, discordgo.Button{Label: label, Style: discordgo.SecondaryButton, CustomID: cid(ActPawn, arg)})
			}
			comps = buttonRows(buttons)
			break
		}
		desc = append(desc, tr(lang, locales.TurnPromptMove, m.game.Rolled()))
		var shown []engine.Move
		for _, c := range all {
			if !o.pawnChosen || c.From == o.pawn {
				shown = append(shown, c)
			}
		}
		var buttons []discordgo.MessageComponent
		for i, c := range shown {
			label := render.Letter(i) + " · " + moveText(lang, c.From, c.To)
			if m.game.Position().At(c.To) == engine.Barricade {
				label += " 🚧"
			}
			style := discordgo.SecondaryButton
			if captures(m.game.Position(), c.To) {
				style = discordgo.DangerButton
			}
			buttons = append(buttons, discordgo.Button{Label: label, Style: style, CustomID: cid(ActMove, c.String())})
		}
		sc.Labels = render.DestinationLabels(shown)
		comps = buttonRows(buttons)
		if o.pawnChosen {
			comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: tr(lang, locales.ButtonBack), Style: discordgo.SecondaryButton, CustomID: cid(ActBack, "")}}})
		}
	case phase == engine.PhasePlace:
		sc.Roll = m.game.Rolled()
		pending, _ := m.game.Pending()
		desc = append(desc, tr(lang, locales.TurnPromptPlace, pending.To.String()))
		squares := m.game.PlacementSquares()
		// Show the move as if made, so the board shows where the pawn now stands.
		pos := m.game.Position()
		preview := pos
		preview.Apply(engine.Move{From: pending.From, To: pending.To, Place: engine.NoSquare})
		sc.Position = preview
		var buttons []discordgo.MessageComponent
		for i, sq := range suggestPlacements(pos, m.game.Turn(), squares) {
			n := strconv.Itoa(i + 1)
			sc.Candidates = append(sc.Candidates, render.Label{Square: sq, Text: n})
			buttons = append(buttons, discordgo.Button{Label: n + " · " + sq.String(), Style: discordgo.PrimaryButton, CustomID: cid(ActPlace, sq.String())})
		}
		comps = buttonRows(buttons)
		comps = append(comps, rowMenu(lang, squares, cid(ActPlaceRow, "")))
		if o.row > 0 {
			// The board letters the row's free squares as the menu does.
			for i, sq := range rowSquares(squares, o.row) {
				sc.Labels = append(sc.Labels, render.Label{Square: sq, Text: render.Letter(i)})
			}
			if menu, ok := squareMenu(lang, squares, o.row, cid(ActPlace, "")); ok {
				comps = append(comps, menu)
			}
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(lang, locales.ButtonBack), Style: discordgo.SecondaryButton, CustomID: cid(ActBack, "")}}})
	}
	if !m.stored.Deadline.IsZero() {
		desc = append(desc, tr(lang, locales.TurnDeadline, m.stored.Deadline.Unix()))
	}
	embed := &discordgo.MessageEmbed{
		Title:       tr(lang, locales.TurnTitle, turn, b.seatLabel(m, seat)),
		Description: strings.Join(desc, "\n"),
		Color:       colorRGB[color],
		Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + boardFileName},
		Footer:      &discordgo.MessageEmbedFooter{Text: tr(lang, locales.GameFooter, m.stored.ID)},
	}
	v := view{embeds: []*discordgo.MessageEmbed{embed}, board: &sc}
	if onlooker {
		return v
	}
	v.components = comps
	if o.private {
		return v // the mover's private copy: the buttons, no ping
	}
	if seat != nil && seat.UserID != "" && seat.Computer == "" {
		v.content = mention(seat.UserID)
		v.pings = []string{seat.UserID}
	}
	return v
}

// captures reports whether ending on to captures an opponent's pawn.
func captures(p engine.Position, to engine.Square) bool {
	piece := p.At(to)
	return piece.IsPawn() && piece.Color() != p.Turn()
}

// buttonRows lays buttons out five to a row.
func buttonRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for len(buttons) > 0 {
		n := min(5, len(buttons))
		rows = append(rows, discordgo.ActionsRow{Components: buttons[:n]})
		buttons = buttons[n:]
	}
	return rows
}

// rowMenu is the select menu of rows that hold a legal square for the barricade.
func rowMenu(lang string, squares []engine.Square, customID string) discordgo.MessageComponent {
	count := map[int]int{}
	for _, sq := range squares {
		count[sq.Row()]++
	}
	var opts []discordgo.SelectMenuOption
	for row := 14; row >= 1; row-- {
		if count[row] > 0 {
			opts = append(opts, discordgo.SelectMenuOption{Label: tr(lang, locales.TurnRowOption, row, count[row]), Value: strconv.Itoa(row)})
		}
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: customID, Placeholder: tr(lang, locales.TurnPickRow), Options: opts},
	}}
}

// squareMenu is the select menu of one row's legal squares.
func squareMenu(lang string, squares []engine.Square, row int, customID string) (discordgo.MessageComponent, bool) {
	var opts []discordgo.SelectMenuOption
	for i, sq := range rowSquares(squares, row) {
		opts = append(opts, discordgo.SelectMenuOption{Label: render.Letter(i) + " · " + sq.String(), Value: sq.String()})
	}
	if len(opts) == 0 {
		return nil, false
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: customID, Placeholder: tr(lang, locales.TurnPickSquare, row), Options: opts},
	}}, true
}

// rowSquares are the squares of row, in the order of squares.
func rowSquares(squares []engine.Square, row int) []engine.Square {
	var out []engine.Square
	for _, sq := range squares {
		if sq.Row() == row {
			out = append(out, sq)
		}
	}
	return out
}

// suggestPlacements picks up to maxSuggestions squares for a captured
// barricade: first the squares just ahead of the opponents' leading pawns on
// their way to the goal, then the free squares closest to the goal.
func suggestPlacements(pos engine.Position, mover engine.Color, legal []engine.Square) []engine.Square {
	ok := map[engine.Square]bool{}
	for _, sq := range legal {
		ok[sq] = true
	}
	var out []engine.Square
	add := func(sq engine.Square) {
		if ok[sq] && len(out) < maxSuggestions {
			ok[sq] = false
			out = append(out, sq)
		}
	}
	type lead struct {
		sq   engine.Square
		dist int
	}
	var leaders []lead
	for _, c := range pos.Players() {
		if c == mover {
			continue
		}
		for _, sq := range pos.Pawns(c) {
			leaders = append(leaders, lead{sq, engine.DistanceToGoal(sq)})
		}
	}
	slices.SortStableFunc(leaders, func(x, y lead) int { return x.dist - y.dist })
	for _, l := range leaders[:min(2, len(leaders))] {
		at, found := l.sq, 0
		for step := 0; step < 8 && at != engine.Goal && found < 2; step++ {
			for _, n := range engine.Neighbors(at) {
				if engine.DistanceToGoal(n) == engine.DistanceToGoal(at)-1 {
					at = n
					break
				}
			}
			if ok[at] {
				add(at)
				found++
			}
		}
	}
	rest := append([]engine.Square(nil), legal...)
	slices.SortStableFunc(rest, func(x, y engine.Square) int { return engine.DistanceToGoal(x) - engine.DistanceToGoal(y) })
	for _, sq := range rest {
		add(sq)
	}
	return out
}

// lobbyEmbed shows the lobby's seats and rules.
func (b *Bot) lobbyEmbed(m *match) *discordgo.MessageEmbed {
	lang := m.stored.Locale
	var lines []string
	lines = append(lines, tr(lang, locales.LobbyHost, mention(m.stored.HostID)), "")
	for i := 0; i < m.stored.Options.Seats; i++ {
		c := colors[i]
		if i < len(m.stored.Seats) {
			s := &m.stored.Seats[i]
			who := mention(s.UserID)
			if s.Computer != "" {
				who = "🤖 " + tr(lang, locales.Computer, tr(lang, levelName(s.Computer)))
			}
			lines = append(lines, colorEmoji[c]+" "+who)
		} else {
			lines = append(lines, colorEmoji[c]+" "+tr(lang, locales.LobbyFreeSeat))
		}
	}
	rules := tr(lang, locales.LobbyRulesStandard)
	var house []string
	if m.stored.Options.SixAgain {
		house = append(house, tr(lang, locales.LobbyRuleSixAgain))
	}
	if m.stored.Options.SafeRow2 {
		house = append(house, tr(lang, locales.LobbyRuleSafeRow2))
	}
	if len(house) > 0 {
		rules = strings.Join(house, ", ")
	}
	lines = append(lines, "", tr(lang, locales.LobbyRules, rules))
	if t := m.turnTimeout(); t > 0 {
		lines = append(lines, tr(lang, locales.LobbyTimeout, formatDuration(lang, t)))
	}
	roll := locales.RollAuto
	if !m.autoRoll() {
		roll = locales.RollButton
	}
	lines = append(lines, tr(lang, locales.LobbyRoll, tr(lang, roll)))
	if m.settings.Threads && !m.stored.Threaded {
		lines = append(lines, "", tr(lang, locales.LobbyNoThreads))
	}
	title := tr(lang, locales.LobbyTitle)
	switch m.stored.Status {
	case store.StatusRunning:
		title = tr(lang, locales.LobbyStarted)
	case store.StatusCancelled, store.StatusFinished:
		title = tr(lang, locales.LobbyClosed)
	}
	return &discordgo.MessageEmbed{Title: title, Description: strings.Join(lines, "\n"), Color: 0xE8B923,
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, locales.GameFooter, m.stored.ID)}}
}

// lobbyView is the lobby's embed and its buttons.
func (b *Bot) lobbyView(m *match) (*discordgo.MessageEmbed, []discordgo.MessageComponent) {
	lang := m.stored.Locale
	cid := func(a Action) string { return CustomID{Action: a, Game: m.stored.ID}.String() }
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, locales.ButtonJoin), Style: discordgo.PrimaryButton, CustomID: cid(ActJoin)},
		discordgo.Button{Label: tr(lang, locales.ButtonLeave), Style: discordgo.SecondaryButton, CustomID: cid(ActLeave)},
		discordgo.Button{Label: tr(lang, locales.ButtonStart), Style: discordgo.SuccessButton, CustomID: cid(ActStart), Disabled: len(m.stored.Seats) < 2},
		discordgo.Button{Label: tr(lang, locales.ButtonCancel), Style: discordgo.DangerButton, CustomID: cid(ActCancel)},
	}}}
	if len(m.stored.Seats) < m.stored.Options.Seats {
		var opts []discordgo.SelectMenuOption
		for _, c := range levelChoices() {
			level := c.Value.(string)
			opts = append(opts, discordgo.SelectMenuOption{Label: tr(lang, levelName(level)), Value: level,
				Description: tr(lang, levelHint(level))})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: cid(ActAddBot), Placeholder: tr(lang, locales.ButtonAddComputer), Options: opts},
		}})
	}
	return b.lobbyEmbed(m), comps
}

// formatDuration writes a turn timeout for people.
func formatDuration(lang string, d time.Duration) string {
	h := d.Hours()
	switch {
	case h >= 24 && h == float64(int(h/24))*24:
		return tr(lang, locales.DurationDays, int(h/24))
	case h >= 1 && h == float64(int(h)):
		return tr(lang, locales.DurationHours, int(h))
	}
	return tr(lang, locales.DurationMinutes, int(h*60+0.5))
}
