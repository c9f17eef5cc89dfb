package table

import (
	"slices"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// LobbyLifetime is how long a lobby waits to be started before it closes.
const LobbyLifetime = 24 * time.Hour

// Open fills a new game's lobby: the host's seat, then bots computer seats
// of level. The adapter commits it, then answers with the lobby message.
func (t *Table) Open(host Actor, bots int, level string) {
	t.Game.Seats = append(t.Game.Seats, malefiz.Seat{UserID: host.UserID, Name: host.Name})
	t.record(malefiz.EventJoin, host.UserID, "", "")
	for range bots {
		t.Game.Seats = append(t.Game.Seats, malefiz.Seat{Computer: level, Name: level})
		t.record(malefiz.EventJoin, "", "", "ai:"+level)
	}
	t.recolor()
	t.Wake = true
}

// OpenRematch fills the lobby of a rematch of old: the clicker's seat and
// old's computer seats.
func (t *Table) OpenRematch(host Actor, old *malefiz.Game) {
	t.Game.Seats = append(t.Game.Seats, malefiz.Seat{UserID: host.UserID, Name: host.Name})
	t.record(malefiz.EventJoin, host.UserID, "", "")
	for _, s := range old.Seats {
		if s.UserID == "" && s.Computer != "" {
			t.Game.Seats = append(t.Game.Seats, malefiz.Seat{Computer: s.Computer, Name: s.Computer})
			t.record(malefiz.EventJoin, "", "", "ai:"+s.Computer)
		}
	}
	t.recolor()
	t.Wake = true
}

// AdoptLobby: the answer to the request that opened the lobby is its lobby
// message; its ID is recorded once Discord has made it.
func (t *Table) AdoptLobby() { t.adopt(malefiz.RoleLobby) }

// PostLobby posts the lobby message (a rematch's, once it has its ID).
func (t *Table) PostLobby() { t.post(t.LobbyMessage(), malefiz.RoleLobby) }

// LobbyChange seats or unseats someone in a lobby and returns the event and
// the confirmation the user reads.
type LobbyChange func(t *Table) (malefiz.Event, locales.Key, error)

// ChangeLobby applies change to a lobby and answers with the updated lobby:
// in place for a button, else as a private confirmation plus an edit of the
// lobby message. A lobby nobody is left in closes.
func (t *Table) ChangeLobby(a Actor, change LobbyChange) error {
	if t.Game.Status != malefiz.StatusLobby {
		return Refuse(locales.ErrNotALobby)
	}
	ev, done, err := change(t)
	if err != nil {
		return err
	}
	t.record(ev.Kind, ev.UserID, ev.Color, ev.Data)
	if len(t.Game.Seats) == 0 || t.humans() == 0 {
		// Nobody is left: the lobby closes.
		t.Game.Status = malefiz.StatusCancelled
		t.record(malefiz.EventCancel, "", "", "empty")
		done = locales.LobbyClosedEmpty
	}
	msg := t.LobbyMessage()
	if t.Game.Status == malefiz.StatusCancelled {
		msg = Text(tr(t.Game.Locale, done))
	}
	if a.Click {
		t.answer(Update, msg)
		return nil
	}
	t.answerPrivate(tr(a.Lang, done))
	t.edit(malefiz.RoleLobby, msg, t.Game.Status == malefiz.StatusLobby)
	return nil
}

// JoinRematch seats a in the rematch's lobby: the answer is private, the
// lobby message is edited (posted again if it is gone).
func (t *Table) JoinRematch(a Actor) error {
	ev, _, err := Join(a)(t)
	if err != nil {
		return err
	}
	t.record(ev.Kind, ev.UserID, ev.Color, ev.Data)
	t.answerPrivate(tr(a.Lang, locales.RematchJoined, t.Game.ID, "<#"+t.Game.ChannelID+">"))
	t.edit(malefiz.RoleLobby, t.LobbyMessage(), true)
	return nil
}

// Join seats a.
func Join(a Actor) LobbyChange {
	return func(t *Table) (malefiz.Event, locales.Key, error) {
		if _, ok := t.SeatOf(a.UserID); ok {
			return malefiz.Event{}, "", Refuse(locales.ErrAlreadySeated)
		}
		if len(t.Game.Seats) >= t.Game.Options.Seats {
			return malefiz.Event{}, "", Refuse(locales.ErrLobbyFull)
		}
		t.Game.Seats = append(t.Game.Seats, malefiz.Seat{UserID: a.UserID, Name: a.Name})
		t.recolor()
		return malefiz.Event{Kind: malefiz.EventJoin, UserID: a.UserID}, locales.LobbyJoined, nil
	}
}

// Leave frees a's seat; a leaving host hands the lobby to the next person
// seated.
func Leave(a Actor) LobbyChange {
	return func(t *Table) (malefiz.Event, locales.Key, error) {
		i, ok := t.SeatOf(a.UserID)
		if !ok {
			return malefiz.Event{}, "", Refuse(locales.ErrNotInGame)
		}
		t.Game.Seats = append(t.Game.Seats[:i], t.Game.Seats[i+1:]...)
		t.recolor()
		if t.Game.HostID == a.UserID {
			for _, s := range t.Game.Seats {
				if s.Computer == "" {
					t.Game.HostID = s.UserID
					break
				}
			}
		}
		return malefiz.Event{Kind: malefiz.EventLeave, UserID: a.UserID}, locales.LobbyLeft, nil
	}
}

// AddComputer seats a computer player of level, at a's request.
func AddComputer(a Actor, level string) LobbyChange {
	return func(t *Table) (malefiz.Event, locales.Key, error) {
		if _, err := ai.ParseLevel(level); err != nil {
			return malefiz.Event{}, "", Refuse(locales.ErrBadLevel)
		}
		if _, ok := t.SeatOf(a.UserID); !ok && t.Game.HostID != a.UserID {
			return malefiz.Event{}, "", Refuse(locales.ErrNotInGame)
		}
		if len(t.Game.Seats) >= t.Game.Options.Seats {
			return malefiz.Event{}, "", Refuse(locales.ErrLobbyFull)
		}
		t.Game.Seats = append(t.Game.Seats, malefiz.Seat{Computer: level, Name: level})
		t.recolor()
		return malefiz.Event{Kind: malefiz.EventJoin, UserID: a.UserID, Data: "ai:" + level}, locales.LobbyComputerAdded, nil
	}
}

// RemoveComputer frees the seat of colour that a computer player holds,
// at the request of a, the host: the lobby's seats are theirs to fill. A
// colour that names no computer's seat (a person's, a free one, or one
// taken since the page was drawn) is refused, nothing changed.
func RemoveComputer(a Actor, color string) LobbyChange {
	return func(t *Table) (malefiz.Event, locales.Key, error) {
		if t.Game.HostID != a.UserID || a.UserID == "" {
			return malefiz.Event{}, "", Refuse(locales.ErrOnlyHostRemoves)
		}
		i := slices.IndexFunc(t.Game.Seats, func(s malefiz.Seat) bool { return s.Color == color && color != "" })
		if i < 0 || t.Game.Seats[i].Computer == "" || t.Game.Seats[i].UserID != "" {
			return malefiz.Event{}, "", Refuse(locales.ErrNoComputerThere)
		}
		level := t.Game.Seats[i].Computer
		t.Game.Seats = slices.Delete(t.Game.Seats, i, i+1)
		t.recolor()
		return malefiz.Event{Kind: malefiz.EventLeave, UserID: a.UserID, Data: "ai:" + level}, locales.LobbyComputerRemoved, nil
	}
}

// Start turns the lobby into a running game; first is the index of the
// seat that begins (drawn by the adapter).
func (t *Table) Start(a Actor, first int) error {
	switch {
	case t.Game.Status == malefiz.StatusRunning:
		return Refuse(locales.ErrAlreadyStarted)
	case t.Game.Status != malefiz.StatusLobby:
		return Refuse(locales.ErrGameEnded)
	case t.Game.HostID != a.UserID:
		return Refuse(locales.ErrOnlyHostStarts)
	case len(t.Game.Seats) < 2:
		return Refuse(locales.ErrNeedTwo)
	}
	var players []engine.Color
	for _, s := range t.Game.Seats {
		players = append(players, SeatColor(&s))
	}
	g, err := engine.NewGame(players, players[first], t.Rules())
	if err != nil {
		return err
	}
	t.State = g
	t.Game.Status = malefiz.StatusRunning
	t.record(malefiz.EventStart, a.UserID, players[first].String(), "")
	if t.Game.LobbyMessageID == "" && a.Click && a.MessageID != "" {
		// Clicked before the lobby's ID was recorded: the click names
		// it (for the card's link; the store keeps the recorded one).
		t.Game.LobbyMessageID = a.MessageID
	}
	t.beginTurn()
	started := t.CardMessage()
	if a.Click {
		t.answer(Update, started)
	} else {
		t.answerPrivate(tr(a.Lang, locales.LobbyStartedReply))
		t.edit(malefiz.RoleLobby, started, false)
	}
	if t.Game.Threaded {
		t.startThread(t.threadName())
	}
	// The opener: who plays, who begins, and the turns that played
	// themselves before the first turn message.
	lines := []string{t.lineUp(), tr(t.Game.Locale, locales.TurnFirst, t.seatLabel(t.SeatByColor(players[first])))}
	more, err := t.playOn()
	if err != nil {
		return err
	}
	t.post(Text(JoinLines(append(lines, more...))), "")
	t.openNext()
	return nil
}

// lineUp is the opener's line of who plays in which colour.
func (t *Table) lineUp() string {
	var who []string
	for i := range t.Game.Seats {
		s := &t.Game.Seats[i]
		if s.UserID != "" && s.Computer == "" {
			who = append(who, ColorEmoji[SeatColor(s)]+" "+Mention(s.UserID))
		} else {
			who = append(who, t.seatLabel(s))
		}
	}
	return tr(t.Game.Locale, locales.ThreadLineUp, t.Game.ID, strings.Join(who, ", "))
}

// threadName names a game's thread: "Malefiz #12 · Alice, Bob, Carol".
func (t *Table) threadName() string {
	var names []string
	for i := range t.Game.Seats {
		s := &t.Game.Seats[i]
		if s.Computer != "" && s.UserID == "" {
			names = append(names, tr(t.Game.Locale, locales.Computer, tr(t.Game.Locale, locales.Level(s.Computer))))
		} else {
			names = append(names, s.Name)
		}
	}
	name := tr(t.Game.Locale, locales.ThreadName, t.Game.ID, strings.Join(names, ", "))
	if r := []rune(name); len(r) > 100 {
		name = string(r[:99]) + "…"
	}
	return name
}

// Cancel ends a lobby or a running game without a result. Once the first
// turn has been played, a host who is not a manager needs the other
// players' agreement: a vote opens instead.
func (t *Table) Cancel(a Actor) error {
	g := t.Game
	if !g.Status.Open() {
		return Refuse(locales.ErrGameEnded)
	}
	if g.HostID != a.UserID && !a.Manager {
		return Refuse(locales.ErrOnlyHostCancels)
	}
	if !a.Manager && g.Status == malefiz.StatusRunning && t.firstTurnPlayed() && len(t.otherHumans(a.UserID)) > 0 {
		return t.askCancel(a)
	}
	wasLobby := g.Status == malefiz.StatusLobby
	text := tr(g.Locale, locales.GameCancelledBy, Quote(a.Name))
	closed := Text(text)
	if a.Click {
		t.answer(Update, closed)
	} else {
		t.answer(Public, closed)
	}
	if wasLobby {
		g.Status = malefiz.StatusCancelled
		g.WakeAt, g.Deadline, g.RemindAt = time.Time{}, time.Time{}, time.Time{}
		t.record(malefiz.EventCancel, a.UserID, "", "")
		if !a.Click {
			t.edit(malefiz.RoleLobby, closed, false)
		}
		return nil
	}
	t.edit(malefiz.RoleTurn, closed, false)
	t.endWithoutResult(a.UserID, "")
	return nil
}

// endWithoutResult cancels the running game: the reminder goes, the card
// says so, the thread is archived.
func (t *Table) endWithoutResult(by, why string) {
	g := t.Game
	g.Status = malefiz.StatusCancelled
	g.WakeAt, g.Deadline, g.RemindAt = time.Time{}, time.Time{}, time.Time{}
	g.Options.CancelVote = nil
	t.record(malefiz.EventCancel, by, "", why)
	t.dropReminder()
	t.flushReminder()
	t.edit(malefiz.RoleLobby, t.CardMessage(), false)
	t.archive()
}

// LobbyMessage is the lobby message: seats, rules and buttons.
func (t *Table) LobbyMessage() Message {
	return Message{Embeds: []Embed{t.lobbyEmbed()}, Rows: t.lobbyRows()}
}

// lobbyEmbed shows the lobby's seats and rules.
func (t *Table) lobbyEmbed() Embed {
	lang := t.Game.Locale
	var lines []string
	lines = append(lines, tr(lang, locales.LobbyHost, Mention(t.Game.HostID)), "")
	for i := 0; i < t.Game.Options.Seats; i++ {
		c := Colors[i]
		if i < len(t.Game.Seats) {
			s := &t.Game.Seats[i]
			who := Mention(s.UserID)
			if s.Computer != "" {
				who = "🤖 " + tr(lang, locales.Computer, tr(lang, locales.Level(s.Computer)))
			}
			lines = append(lines, ColorEmoji[c]+" "+who)
		} else {
			lines = append(lines, ColorEmoji[c]+" "+tr(lang, locales.LobbyFreeSeat))
		}
	}
	lines = append(lines, "")
	lines = append(lines, t.lobbyOptions(lang)...)
	if t.Settings.Threads && !t.Game.Threaded {
		lines = append(lines, "", tr(lang, locales.LobbyNoThreads))
	}
	title := tr(lang, locales.LobbyTitle)
	switch t.Game.Status {
	case malefiz.StatusRunning:
		title = tr(lang, locales.LobbyStarted)
	case malefiz.StatusCancelled, malefiz.StatusFinished:
		title = tr(lang, locales.LobbyClosed)
	}
	return Embed{Title: title, Description: strings.Join(lines, "\n"), Color: 0xE8B923,
		Footer: tr(lang, locales.GameFooter, t.Game.ID)}
}

// lobbyOptions are the lobby's options in lang, a line each, as its
// card says them: the rules (standard, or the house rules), the time per
// turn when there is one, and the die.
func (t *Table) lobbyOptions(lang string) []string {
	rules := tr(lang, locales.LobbyRulesStandard)
	var house []string
	if t.Game.Options.SixAgain {
		house = append(house, tr(lang, locales.LobbyRuleSixAgain))
	}
	if t.Game.Options.SafeRow2 {
		house = append(house, tr(lang, locales.LobbyRuleSafeRow2))
	}
	if len(house) > 0 {
		rules = strings.Join(house, ", ")
	}
	lines := []string{tr(lang, locales.LobbyRules, rules)}
	if d := t.TurnTimeout(); d > 0 {
		lines = append(lines, tr(lang, locales.LobbyTimeout, FormatDuration(lang, d)))
	}
	roll := locales.RollAuto
	if !t.autoRoll() {
		roll = locales.RollButton
	}
	return append(lines, tr(lang, locales.LobbyRoll, tr(lang, roll)))
}

// levelOptions are the computer players' levels a lobby offers, in lang:
// the menu's options of the card, the choices of the Activity's.
func levelOptions(lang string) []Option {
	var opts []Option
	for _, l := range ai.Levels() {
		level := string(l)
		opts = append(opts, Option{Label: tr(lang, locales.Level(level)), Value: level,
			Description: tr(lang, locales.LevelHint(level))})
	}
	return opts
}

// lobbyRows are the lobby's buttons and its menu of computer players.
func (t *Table) lobbyRows() []Row {
	lang := t.Game.Locale
	cid := func(a Action) string { return CustomID{Action: a, Game: t.Game.ID}.String() }
	rows := []Row{{Buttons: []Button{
		{Label: tr(lang, locales.ButtonJoin), Style: Primary, CustomID: cid(ActJoin)},
		{Label: tr(lang, locales.ButtonLeave), Style: Secondary, CustomID: cid(ActLeave)},
		{Label: tr(lang, locales.ButtonStart), Style: Success, CustomID: cid(ActStart), Disabled: len(t.Game.Seats) < 2},
		{Label: tr(lang, locales.ButtonCancel), Style: Danger, CustomID: cid(ActCancel)},
	}}}
	// The lobby can be joined and started in the Activity too.
	if b, ok := t.boardButton(Secondary); ok {
		rows[0].Buttons = append(rows[0].Buttons, b)
	}
	if len(t.Game.Seats) < t.Game.Options.Seats {
		rows = append(rows, Row{Menu: &Menu{CustomID: cid(ActAddBot), Placeholder: tr(lang, locales.ButtonAddComputer), Options: levelOptions(lang)}})
	}
	return rows
}

// FormatDuration writes a turn timeout for people.
func FormatDuration(lang string, d time.Duration) string {
	h := d.Hours()
	switch {
	case h >= 24 && h == float64(int(h/24))*24:
		return tr(lang, locales.DurationDays, int(h/24))
	case h >= 1 && h == float64(int(h)):
		return tr(lang, locales.DurationHours, int(h))
	}
	return tr(lang, locales.DurationMinutes, int(h*60+0.5))
}

// LobbyCaps bound the open lobbies (games not started yet), each a card
// that delays its channel's other messages: PerUser hosted by one user in
// all of a server's channels, PerChannel in one channel. 0 or less is no
// bound. A started game is no longer a lobby and counts for neither.
type LobbyCaps struct {
	PerUser, PerChannel int
}

// CheckOpen decides whether a user who hosts hosted lobbies in the server
// may open one more in a channel whose open games are open: refused, in
// the command's words, once the user hosts PerUser lobbies or the channel
// has PerChannel.
func (c LobbyCaps) CheckOpen(open []*malefiz.Game, hosted int) error {
	lobbies := 0
	for _, g := range open {
		if g.Status == malefiz.StatusLobby {
			lobbies++
		}
	}
	if c.PerUser > 0 && hosted >= c.PerUser {
		return Refuse(locales.ErrTooManyLobbies, c.PerUser)
	}
	if c.PerChannel > 0 && lobbies >= c.PerChannel {
		return Refuse(locales.ErrChannelLobbiesFull, c.PerChannel)
	}
	return nil
}
