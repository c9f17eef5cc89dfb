package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/malefiz-discord/malefiz/store/storetest"
)

// The two ways into a game: the thread's turn card and its buttons, and
// the Activity's board (its play API).
const (
	wayThread = "thread"
	wayBoard  = "board"
	wayBoth   = "both" // a click and a board play of the same action, at once
)

// twoWaysCase is one scenario: which way plays each action of the game,
// and for how many turns (0: to the game's end).
type twoWaysCase struct {
	name string
	// way picks the way of an action: a move (place false) or the
	// placement of a taken barricade (place true), in the turn-th turn
	// of the game (0 for the first).
	way func(turn int, place bool) string
	// turns bounds the game; 0 plays it to its end.
	turns int
	// barricades is how many barricades the scenario must have seen
	// taken and placed (by the ways its name says) before it ends.
	barricades int
}

// twoWaysCases are the scenarios of the suite. The buttons, the board and
// the alternating ways play whole games; the others play a bounded
// number of turns (the turns the scenario is about come in the first
// few under the racing dice).
var twoWaysCases = []twoWaysCase{
	{name: "buttons", way: func(int, bool) string { return wayThread }},
	{name: "board", way: func(int, bool) string { return wayBoard }},
	{name: "alternating", way: func(turn int, _ bool) string {
		if turn%2 == 0 {
			return wayBoard
		}
		return wayThread
	}},
	{name: "both at once", way: func(int, bool) string { return wayBoth }, turns: 8},
	{name: "barricade taken on the board, placed in the thread", way: func(_ int, place bool) string {
		if place {
			return wayThread
		}
		return wayBoard
	}, turns: 12, barricades: 2},
	{name: "barricade taken in the thread, placed on the board", way: func(_ int, place bool) string {
		if place {
			return wayBoard
		}
		return wayThread
	}, turns: 12, barricades: 2},
}

// twoWaysAtOnce is how many of TestTwoWays's games play at once.
const twoWaysAtOnce = 6

// TestTwoWays plays the same game, with the same dice and the same
// choices, through the thread's buttons only, the board only, and mixed
// (alternating per turn; a click and a board play racing on every turn,
// of which exactly one applies; a barricade taken on one way and placed
// on the other), on SQLite and on PostgreSQL (MALEFIZ_TEST_POSTGRES_URL),
// against the stand-in with Discord's limits on. After every action it
// waits until the action is committed and the thread's messages about it
// are delivered, then checks that the thread, the stored game and the
// board agree: the turn card is the thread's newest message, shows the
// board (board.png), names the board's turn and roll (or the barricade
// taken) and has the buttons of exactly the moves (or squares) the board
// offers the mover, of this turn only; every older message of the thread
// has no turn buttons left; the board serves the stored status, turn,
// phase, roll, pending move, pawns and barricades; and the stored snapshot
// is the state its events replay to. The card in the channel, whose edits
// go out a few seconds apart (store.DefaultQueueGap), must show the game
// once play stops (its turn, or its result). At every step it asserts
// that the stand-in refused no request (no answer of 400 or more, no 429,
// no invalid request counted) and no effect was given up; at the end,
// that every way left the same stored game (version included: nothing
// applied twice), thread history and board at every step as the buttons
// did, and the games played to their end the same card.
//
// It finds the bug of a barricade taken on the board that left the turn
// card in the thread with the old move buttons: the edit uploaded no
// board.png and the stand-in refused it ("No attachment named
// board.png"); with the refusal not checked, the turn card's words and
// buttons still disagree with the board.
func TestTwoWays(t *testing.T) {
	t.Parallel()
	// The board's picture is drawn on a background built once per process
	// and width: seconds under -race, and the games would all wait for it
	// with their first turn card. The start's deliveries then end past
	// their claim's lease (the sender records a batch's deliveries at its
	// end, bot/outbox's deliverInOrder), the outbox's loop creates the
	// thread again, and the stand-in refuses it (400, 160004).
	_, err := render.New(bot.BoardWidth).PNG(render.Scene{})
	require.NoError(t, err)
	// At most twoWaysAtOnce games play at once, over both databases:
	// under -race on two cores twelve at once starved the bot past
	// Discord's 3 s for an answer (Unknown interaction), its answers
	// deferred after 1 s and all.
	slots := make(chan struct{}, twoWaysAtOnce)
	for _, db := range storetest.Backends(t) {
		t.Run(db.Name, func(t *testing.T) {
			t.Parallel()
			var (
				mu     sync.Mutex
				traces = map[string][]twoWaysStep{}
				cards  = map[string]string{} // of the games played to their end
			)
			// The cases run at once (up to twoWaysAtOnce), each in a
			// sandbox of its own: they wait on the stand-in's buckets (a
			// game on the board posts and edits in its thread, 5 of each
			// per 5 s), not on the CPU. They are started from goroutines
			// rather than with t.Parallel, so that -parallel (GOMAXPROCS, 2
			// in CI) does not queue them two by two.
			t.Run("ways", func(t *testing.T) {
				var wg sync.WaitGroup
				defer wg.Wait()
				for _, tc := range twoWaysCases {
					wg.Go(func() {
						t.Run(tc.name, func(t *testing.T) {
							slots <- struct{}{}
							defer func() { <-slots }()
							g := newTwoWaysGame(t, db.NewURL(t))
							trace, card := g.play(tc)
							mu.Lock()
							traces[tc.name] = trace
							if tc.turns == 0 {
								cards[tc.name] = card
							}
							mu.Unlock()
						})
					})
				}
			})
			// Every way leaves the same game at every step as the buttons.
			want, ok := traces["buttons"]
			if !ok {
				return // the buttons failed, and said so
			}
			for _, tc := range twoWaysCases[1:] {
				got, ok := traces[tc.name]
				if !ok {
					continue
				}
				for i := range min(len(got), len(want)) {
					if !assert.Equal(t, want[i], got[i], "%s, step %d: the game differs from the one played with the buttons", tc.name, i) {
						break
					}
				}
				if tc.turns == 0 {
					assert.Len(t, got, len(want), "%s: the game is as long as with the buttons", tc.name)
					assert.Equal(t, cards["buttons"], cards[tc.name], "%s: the card at the end", tc.name)
				}
			}
		})
	}
}

// twoWaysStep is what a step of a game leaves, as the way it was played
// should not change it: the stored game, the thread's history (each
// message's words, buttons and pictures) and the board as a watcher sees
// it. Deadlines are blanked: they follow the clock.
type twoWaysStep struct {
	Version  int64
	Turn     int
	Phase    string
	Roll     int
	Position string
	Thread   []string
	Board    string
}

// twoWaysGame is a running two-seat game in a sandbox (the stand-in with
// Discord's limits, the bot and its Activity): Alice against Bob, both
// signed in to the Activity; Carol signed in as a watcher.
type twoWaysGame struct {
	t        *testing.T
	app      *sandbox.App
	srv      *httptest.Server
	die      *harness.Die
	id       int64
	users    []sandbox.User
	sessions map[string]string // by user ID
	watcher  string            // Carol's session
	// barricades counts the barricades taken and placed.
	barricades int
	// checked counts the stand-in's calls found not refused.
	checked int
	// won counts the races of a click and a board play by the way that
	// applied.
	won map[string]int
}

// newTwoWaysGame starts a sandbox on database dbURL with Discord's
// limits (fakediscord.DefaultLimits) and a die the test sets, and starts
// a game of Alice and Bob in a thread (the server's defaults: threads
// on, the die rolled with the turn card).
func newTwoWaysGame(t *testing.T, dbURL string) *twoWaysGame {
	t.Helper()
	die := harness.NewSeededDie(38, 3)
	logs := new(harness.LogBuffer)
	app, err := sandbox.Start(context.Background(), sandbox.Options{
		DBPath: dbURL,
		Users:  []string{"Alice", "Bob", "Carol"},
		Logger: harness.Logger(logs),
		Bot: func(c *bot.Config) {
			c.Dice = die
			c.Draw = func(int) int { return 0 } // Alice begins
			c.CoachOff = true                   // the result is the thread's last message
			// Under -race on two shared cores an answer can take longer
			// than the 2.5 s production waits before deferring it, and
			// Discord forgets an interaction not answered in 3 s; deferred,
			// it still ends as it would (as in the limits tests).
			c.DeferAfter = time.Second
		},
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the bot's log:\n%s", logs.String())
		}
		assert.NoError(t, app.Close())
	})
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	users := sandbox.Users("Alice", "Bob", "Carol")
	g := &twoWaysGame{t: t, app: app, srv: srv, die: die, users: users, sessions: map[string]string{}, won: map[string]int{}}
	g.id = newActivityGame(t, app, srv, users)
	for _, u := range users[:2] {
		g.sessions[u.ID] = signIn(t, app, srv, u)
	}
	g.watcher = signIn(t, app, srv, users[2])
	return g
}

// play plays the game as tc says, racing (each roll the one that brings
// the mover closest to the goal, the move that ends closest to it, a
// barricade on the first square suggested), checking every step, and
// returns the steps.
func (g *twoWaysGame) play(tc twoWaysCase) ([]twoWaysStep, string) {
	t := g.t
	var trace []twoWaysStep
	step, _ := g.waitInSync(0)
	trace = append(trace, step)
	for turn := 0; tc.turns == 0 || turn < tc.turns; turn++ {
		require.Less(t, turn, 200, "no winner after 200 turns")
		sg, eg := g.stored()
		if eg.Over() {
			break
		}
		mover := g.mover(sg, eg)
		live := liveOf(t, g.srv, g.id, g.sessions[mover])
		move := closestMove(live.Moves)
		m, err := engine.ParseMove(move.From + "-" + move.To)
		require.NoError(t, err)
		barricade := move.Barricade
		if !barricade {
			g.setNextRoll(eg, m)
		}
		g.act(tc.way(turn, false), mover, gametable.CustomID{Action: gametable.ActMove, Game: g.id, Turn: live.Turn, Arg: move.From + "-" + move.To})
		step, eg = g.waitInSync(sg.Version)
		trace = append(trace, step)
		if !barricade {
			continue
		}
		// The barricade taken waits for its square.
		require.Equal(t, engine.PhasePlace, eg.Phase(), "a barricade taken waits for its square")
		live = liveOf(t, g.srv, g.id, g.sessions[mover])
		require.NotEmpty(t, live.Suggested, "squares are suggested for the barricade")
		square := live.Suggested[0].Square
		sq, err := engine.ParseSquare(square)
		require.NoError(t, err)
		m.Place = sq
		g.setNextRoll(eg, m)
		sg, _ = g.stored()
		g.act(tc.way(turn, true), mover, gametable.CustomID{Action: gametable.ActPlace, Game: g.id, Turn: live.Turn, Arg: square})
		step, _ = g.waitInSync(sg.Version)
		trace = append(trace, step)
		g.barricades++
	}
	if tc.turns == 0 {
		_, eg := g.stored()
		require.True(t, eg.Over(), "the game ended")
	}
	assert.GreaterOrEqual(t, g.barricades, tc.barricades, "barricades taken and placed")
	_, eg := g.stored()
	t.Logf("%d steps, %d turns, %d barricades taken and placed, over %v; races won by way: %v",
		len(trace), eg.TurnNumber(), g.barricades, eg.Over(), g.won)
	return trace, g.cardInSync()
}

// cardInSync waits until the card's edits are delivered and the card in
// the channel shows the game as stored (its result, or its turn), and
// returns what it shows.
func (g *twoWaysGame) cardInSync() string {
	t := g.t
	t.Helper()
	var last error
	ok := assert.Eventually(t, func() bool {
		effects, err := g.app.Main.DB().Effects(context.Background(), g.id)
		if err != nil {
			last = err
			return false
		}
		for _, e := range effects {
			if !e.Done {
				last = fmt.Errorf("effect %d (%s %s) not delivered yet", e.ID, e.Queue, e.Kind)
				return false
			}
		}
		sg, err := g.app.Main.DB().Game(context.Background(), g.id)
		if err != nil {
			last = err
			return false
		}
		var eg engine.Game
		if err := eg.UnmarshalSnapshot(sg.State); err != nil {
			last = err
			return false
		}
		card, ok := g.app.Fake.Message(sg.LobbyMessageID)
		switch {
		case !ok:
			last = errors.New("no card in the channel")
		case eg.Over() && !strings.HasPrefix(harness.Title(card), "🏆"):
			last = fmt.Errorf("the card does not show the result: %q", card.Text())
		case !eg.Over() && !strings.Contains(card.Text(), fmt.Sprintf("Turn %d ·", eg.TurnNumber())):
			last = fmt.Errorf("the card does not name turn %d: %q", eg.TurnNumber(), card.Text())
		default:
			return true
		}
		return false
	}, 20*time.Second, 50*time.Millisecond, "the card shows the game")
	if !ok {
		t.Fatalf("the card: %v", last)
	}
	g.refusedNothing()
	sg, _ := g.stored()
	card, _ := g.app.Fake.Message(sg.LobbyMessageID)
	return messageSummary(card)
}

// closestMove is the move of moves that ends closest to the goal (the
// first of equals).
func closestMove(moves []gametable.LiveMove) gametable.LiveMove {
	best, bestDist := gametable.LiveMove{}, 1<<30
	for _, mv := range moves {
		to, err := engine.ParseSquare(mv.To)
		if err != nil {
			continue
		}
		if d := engine.DistanceToGoal(to); d < bestDist {
			best, bestDist = mv, d
		}
	}
	return best
}

// setNextRoll sets the die to the racing roll of the turn after m, which
// ends the current turn of eg: the bot rolls it with that turn's card.
func (g *twoWaysGame) setNextRoll(eg *engine.Game, m engine.Move) {
	p := eg.Position()
	p.Play(m, eg.Rolled(), eg.Rules())
	if p.Over() {
		return
	}
	roll, _ := harness.BestRoll(p, eg.Rules(), false)
	if roll == 0 {
		roll = 6 // nothing is legal: any roll passes
	}
	g.die.Set(roll)
}

// mover is the user ID of the seat to move.
func (g *twoWaysGame) mover(sg *malefiz.Game, eg *engine.Game) string {
	g.t.Helper()
	for _, s := range sg.Seats {
		if s.Color == eg.Turn().String() {
			return s.UserID
		}
	}
	g.t.Fatalf("no seat of %s", eg.Turn())
	return ""
}

// act sends play as user, by way: a click of its button on the turn card
// in the thread, a play on the board, or both at once, of which exactly
// one must apply and the other be refused.
func (g *twoWaysGame) act(way, user string, play gametable.CustomID) {
	t := g.t
	t.Helper()
	switch way {
	case wayThread:
		applied, err := g.click(user, play)
		require.NoError(t, err)
		require.True(t, applied, "the click %s applied", play)
	case wayBoard:
		status, out := g.boardPlay(user, play)
		require.Equal(t, http.StatusOK, status, "the board's play %s: %v", play, out)
	case wayBoth:
		var (
			wg      sync.WaitGroup
			clicked bool
			err     error
			status  int
			out     map[string]any
		)
		card := g.turnCard()
		wg.Go(func() { clicked, err = g.clickOn(card, user, play) })
		wg.Go(func() { status, out = g.boardPlay(user, play) })
		wg.Wait()
		if errors.Is(err, fakediscord.ErrInvocation) {
			// The board's play came first and its edit took the button
			// away before the click reached Discord, which refuses a
			// click on a button no longer on the message.
			clicked, err = false, nil
		}
		require.NoError(t, err)
		require.Contains(t, []int{http.StatusOK, http.StatusConflict}, status, "the board's play %s: %v", play, out)
		assert.NotEqual(t, clicked, status == http.StatusOK, "exactly one of the click (applied %v) and the board's play (%d: %v) applies", clicked, status, out)
		if clicked {
			g.won[wayThread]++
		} else {
			g.won[wayBoard]++
		}
	default:
		t.Fatalf("no way %q", way)
	}
}

// boardPlay sends play to the Activity's play API as user.
func (g *twoWaysGame) boardPlay(user string, play gametable.CustomID) (int, map[string]any) {
	return activityCall(g.t, g.srv, http.MethodPost, fmt.Sprintf("api/games/%d/play", g.id), g.sessions[user],
		map[string]any{"Turn": play.Turn, "Action": string(play.Action), "Arg": play.Arg})
}

// turnCard is the game's turn card in the thread, as the stand-in holds it.
func (g *twoWaysGame) turnCard() fakediscord.Message {
	g.t.Helper()
	sg, _ := g.stored()
	m, ok := g.app.Fake.Message(sg.TurnMessageID)
	require.True(g.t, ok, "the turn card %q is in the thread", sg.TurnMessageID)
	return m
}

// click clicks play's button on the turn card as user (its pawn first
// when the card lists pawns), and reports whether the click applied.
func (g *twoWaysGame) click(user string, play gametable.CustomID) (bool, error) {
	return g.clickOn(g.turnCard(), user, play)
}

// clickOn is click on card. It is safe to call beside the test's
// goroutine: it reports what went wrong rather than failing the test.
func (g *twoWaysGame) clickOn(card fakediscord.Message, user string, play gametable.CustomID) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id := play.String()
	if _, ok := card.Component(id); !ok && play.Action == gametable.ActMove {
		// More moves than buttons: the pawn first, then its moves.
		from, _, _ := strings.Cut(play.Arg, "-")
		pawn := gametable.CustomID{Action: gametable.ActPawn, Game: play.Game, Turn: play.Turn, Arg: from}.String()
		if _, ok := card.Component(pawn); !ok {
			return false, fmt.Errorf("the turn card has neither %s nor %s: %v", id, pawn, card.CustomIDs())
		}
		resp, err := g.app.Fake.Click(ctx, fakediscord.Invocation{User: user, MessageID: card.ID, CustomID: pawn})
		if err != nil {
			return false, err
		}
		if card, err = g.answer(ctx, resp); err != nil {
			return false, err
		}
		if card.Ephemeral {
			return false, nil // refused: the race's board play came first
		}
	}
	if _, ok := card.Component(id); !ok {
		return false, fmt.Errorf("the turn card has no %s: %v", id, card.CustomIDs())
	}
	resp, err := g.app.Fake.Click(ctx, fakediscord.Invocation{User: user, MessageID: card.ID, CustomID: id})
	if err != nil {
		return false, err
	}
	answer, err := g.answer(ctx, resp)
	if err != nil {
		return false, err
	}
	return !answer.Ephemeral, nil
}

// answer is the message that answers a click once the answer is whole:
// the callback's message, or, when the bot deferred it, the message its
// follow-up or edit through the webhook made.
func (g *twoWaysGame) answer(ctx context.Context, resp *fakediscord.Response) (fakediscord.Message, error) {
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource &&
		resp.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		if resp.Message == nil {
			return fakediscord.Message{}, fmt.Errorf("the answer %d has no message", resp.Type)
		}
		return *resp.Message, nil
	}
	call, err := g.app.Fake.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.InteractionID == resp.InteractionID && c.OK() &&
			(c.Route == fakediscord.RouteWebhookMessageEdit || c.Route == fakediscord.RouteFollowup)
	})
	if err != nil {
		return fakediscord.Message{}, fmt.Errorf("the deferred answer never came: %w", err)
	}
	var m discordgo.Message
	if err := json.Unmarshal(call.Response, &m); err != nil {
		return fakediscord.Message{}, err
	}
	got, ok := g.app.Fake.Message(m.ID)
	if !ok {
		return fakediscord.Message{}, fmt.Errorf("no message %s", m.ID)
	}
	return got, nil
}

// stored reads the stored game and its state.
func (g *twoWaysGame) stored() (*malefiz.Game, *engine.Game) {
	g.t.Helper()
	sg, err := g.app.Main.DB().Game(context.Background(), g.id)
	require.NoError(g.t, err)
	var eg engine.Game
	require.NoError(g.t, eg.UnmarshalSnapshot(sg.State), "game %d", g.id)
	return sg, &eg
}

// waitInSync waits until a commit newer than version is stored and
// delivered and the thread, the card, the stored game and the board
// agree (inSync), and returns the step. The stand-in must have refused
// nothing.
func (g *twoWaysGame) waitInSync(version int64) (twoWaysStep, *engine.Game) {
	t := g.t
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		g.refusedNothing()
		step, eg, err := g.inSync(version)
		if err == nil {
			return step, eg
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %d after version %d: the thread, the card, the store and the board disagree: %v", g.id, version, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// refusedNothing fails the test for any request the stand-in answered
// with an error (4xx, 5xx, a 429 included).
func (g *twoWaysGame) refusedNothing() {
	g.t.Helper()
	calls := g.app.Fake.Calls()
	for _, c := range calls[g.checked:] {
		if c.Status >= 400 {
			g.t.Fatalf("the stand-in refused %s %s (%s): %d %s", c.Method, c.Path, c.Route, c.Status, c.Response)
		}
	}
	g.checked = len(calls)
	st := g.app.Fake.LimitStats()
	if st.Invalid > 0 || len(st.Limited) > 0 {
		g.t.Fatalf("the stand-in counted %d invalid requests, 429s %v", st.Invalid, st.Limited)
	}
}

// deadlineMark is a Discord timestamp, which follows the clock.
var deadlineMark = regexp.MustCompile(`<t:\d+(:[a-zA-Z])?>`)

// turnControls are the actions of a turn card's buttons.
var turnControls = []gametable.Action{gametable.ActRoll, gametable.ActPawn, gametable.ActMove, gametable.ActBack,
	gametable.ActPlace, gametable.ActPlaceRow, gametable.ActHint}

// inSync checks that a commit newer than version is stored and
// delivered, and that the thread, the card, the stored game and the
// board agree, and returns the step; the error says what disagrees.
func (g *twoWaysGame) inSync(version int64) (twoWaysStep, *engine.Game, error) {
	// The cheap checks first: most looks end at them, and the others
	// (a replay, two reads of the board) cost the bot CPU it needs
	// under -race.
	ctx := context.Background()
	sg, err := g.app.Main.DB().Game(ctx, g.id)
	if err != nil {
		return twoWaysStep{}, nil, err
	}
	if sg.Version <= version {
		return twoWaysStep{}, nil, fmt.Errorf("version %d not newer than %d", sg.Version, version)
	}
	// What the commit must send to the thread is sent; the card's edits
	// wait in their own queue, a few seconds apart (store.QueueGap), and
	// are checked once the game stops (cardInSync).
	effects, err := g.app.Main.DB().Effects(ctx, g.id)
	if err != nil {
		return twoWaysStep{}, nil, err
	}
	for _, e := range effects {
		if e.Failed {
			g.t.Fatalf("effect %d (%s) was given up: %s", e.ID, e.Kind, e.Result)
		}
		if e.Queue == "" && !e.Done {
			return twoWaysStep{}, nil, fmt.Errorf("effect %d (%s) not delivered yet", e.ID, e.Kind)
		}
	}
	events, err := g.app.Main.DB().Events(ctx, g.id)
	if err != nil {
		return twoWaysStep{}, nil, err
	}
	if int64(len(events)) != sg.LastSeq {
		return twoWaysStep{}, nil, errors.New("a write came between the reads")
	}
	eg, err := bot.Replay(sg, events)
	if err != nil {
		return twoWaysStep{}, nil, err
	}
	var snap engine.Game
	if err := snap.UnmarshalSnapshot(sg.State); err != nil {
		return twoWaysStep{}, nil, err
	}
	if snap.Position() != eg.Position() || snap.Phase() != eg.Phase() || snap.TurnNumber() != eg.TurnNumber() || snap.Rolled() != eg.Rolled() {
		return twoWaysStep{}, nil, fmt.Errorf("the snapshot (turn %d, %s) is not the state the events replay to (turn %d, %s)",
			snap.TurnNumber(), snap.Phase(), eg.TurnNumber(), eg.Phase())
	}

	// The thread: its history, and the turn card last.
	msgs := g.app.Fake.ChannelMessages(sg.ThreadID)
	var thread []fakediscord.Message
	for _, m := range msgs {
		if !m.Ephemeral && !m.Deleted {
			thread = append(thread, m)
		}
	}
	if len(thread) == 0 {
		return twoWaysStep{}, nil, errors.New("the thread is empty")
	}
	last := thread[len(thread)-1]
	for _, m := range thread[:len(thread)-1] {
		if ids := controlsOf(m, turnControls...); len(ids) > 0 {
			return twoWaysStep{}, nil, fmt.Errorf("an older message %s of the thread keeps the turn's buttons %v (%q)", m.ID, ids, m.Text())
		}
	}
	watcher, err := g.live(g.watcher)
	if err != nil {
		return twoWaysStep{}, nil, err
	}
	if err := sameBoard(watcher, sg, eg); err != nil {
		return twoWaysStep{}, nil, fmt.Errorf("the board a watcher sees: %w", err)
	}
	if eg.Over() {
		if !strings.HasPrefix(harness.Title(last), "🏆") {
			return twoWaysStep{}, nil, fmt.Errorf("the thread's last message is not the result: %q", last.Text())
		}
	} else {
		if last.ID != sg.TurnMessageID {
			return twoWaysStep{}, nil, fmt.Errorf("the thread's newest message %s is not the turn card %s", last.ID, sg.TurnMessageID)
		}
		if !harness.HasBoard(last) || !slices.ContainsFunc(last.ShownAttachments(), func(a fakediscord.Attachment) bool { return a.Filename == "board.png" }) {
			return twoWaysStep{}, nil, fmt.Errorf("the turn card shows no board.png: %v", last.Attachments)
		}
		mover, err := g.live(g.sessions[g.mover(sg, eg)])
		if err != nil {
			return twoWaysStep{}, nil, err
		}
		if err := sameBoard(mover, sg, eg); err != nil {
			return twoWaysStep{}, nil, fmt.Errorf("the board the mover sees: %w", err)
		}
		if err := cardOffersTheBoard(last, mover, g.id); err != nil {
			return twoWaysStep{}, nil, fmt.Errorf("the turn card %s: %w", last.ID, err)
		}
	}

	step := twoWaysStep{Version: sg.Version, Turn: eg.TurnNumber(), Phase: eg.Phase().String(), Roll: eg.Rolled(),
		Position: eg.Position().String()}
	for _, m := range thread {
		step.Thread = append(step.Thread, messageSummary(m))
	}
	b, err := json.Marshal(watcher)
	if err != nil {
		return twoWaysStep{}, nil, err
	}
	step.Board = string(b)
	return step, eg, nil
}

// live reads the board as the user of session sees it, without failing
// the test (a read may race a commit).
func (g *twoWaysGame) live(session string) (gametable.Live, error) {
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/.proxy/api/games/%d", g.srv.URL, g.id), nil)
	if err != nil {
		return gametable.Live{}, err
	}
	req.Header.Set("Authorization", "Bearer "+session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return gametable.Live{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return gametable.Live{}, fmt.Errorf("the board answered %d", resp.StatusCode)
	}
	var l gametable.Live
	return l, json.NewDecoder(resp.Body).Decode(&l)
}

// sameBoard checks that the board l shows the stored game: its turn,
// phase, roll, pending move (to the mover and the watchers alike), pawns
// and barricades.
func sameBoard(l gametable.Live, sg *malefiz.Game, eg *engine.Game) error {
	p := eg.Position()
	// A barricade taken and waiting for its square: the board draws the
	// move as made, for everyone (the pawn on the square, the barricade
	// lifted from it).
	pending, placing := eg.Pending()
	var pawns, blocks []string
	for _, c := range p.Players() {
		for _, s := range p.Pawns(c) {
			if placing && c == eg.Turn() && s == pending.From {
				continue
			}
			pawns = append(pawns, c.String()+"@"+s.String())
		}
	}
	if placing {
		pawns = append(pawns, eg.Turn().String()+"@"+pending.To.String())
	}
	for _, s := range p.Barricades() {
		if placing && s == pending.To {
			continue
		}
		blocks = append(blocks, s.String())
	}
	var livePawns []string
	for _, pc := range l.Pawns {
		livePawns = append(livePawns, pc.Color+"@"+pc.Square)
	}
	slices.Sort(pawns)
	slices.Sort(blocks)
	slices.Sort(livePawns)
	liveBlocks := slices.Sorted(slices.Values(l.Blocks))
	switch {
	case l.Status != sg.Status:
		return fmt.Errorf("status %s, stored %s", l.Status, sg.Status)
	case l.Turn != eg.TurnNumber():
		return fmt.Errorf("turn %d, stored %d", l.Turn, eg.TurnNumber())
	case l.Phase != eg.Phase().String():
		return fmt.Errorf("phase %s, stored %s", l.Phase, eg.Phase())
	case !slices.Equal(livePawns, pawns):
		return fmt.Errorf("pawns %v, stored %v", livePawns, pawns)
	case !slices.Equal(liveBlocks, blocks):
		return fmt.Errorf("barricades %v, stored %v", liveBlocks, blocks)
	}
	if eg.Over() {
		if l.Winner != eg.Winner().String() {
			return fmt.Errorf("winner %q, stored %s", l.Winner, eg.Winner())
		}
		return nil
	}
	if l.ToMove != eg.Turn().String() || l.Roll != eg.Rolled() {
		return fmt.Errorf("%s to move with %d, stored %s with %d", l.ToMove, l.Roll, eg.Turn(), eg.Rolled())
	}
	switch {
	case placing && (l.Pending == nil || l.Pending.From+"-"+l.Pending.To != pending.From.String()+"-"+pending.To.String()):
		return fmt.Errorf("pending %+v, stored %s", l.Pending, pending)
	case !placing && l.Pending != nil:
		return fmt.Errorf("pending %+v, none stored", l.Pending)
	}
	return nil
}

// cardOffersTheBoard checks that the turn card's buttons are the board's
// choices for the mover (l): a button per move (or per pawn, when the
// moves are too many), or per suggested square for a taken barricade,
// with its row menu; all of this turn.
func cardOffersTheBoard(card fakediscord.Message, l gametable.Live, id int64) error {
	var moves, pawns, places []string
	rows := false
	for _, cid := range card.CustomIDs() {
		c, err := bot.ParseCustomID(cid)
		if err != nil || c.Action == gametable.ActBoard {
			continue
		}
		if c.Game != id || c.Turn != l.Turn {
			return fmt.Errorf("a button %s is not of game %d turn %d", cid, id, l.Turn)
		}
		switch c.Action {
		case gametable.ActMove:
			moves = append(moves, c.Arg)
		case gametable.ActPawn:
			pawns = append(pawns, c.Arg)
		case gametable.ActPlace:
			places = append(places, c.Arg)
		case gametable.ActPlaceRow:
			rows = true
		}
	}
	// Its words: the turn, and the roll or the barricade taken.
	if want := fmt.Sprintf("Turn %d ·", l.Turn); !strings.HasPrefix(harness.Title(card), want) {
		return fmt.Errorf("its heading %q is not of the board's turn (%q)", harness.Title(card), want)
	}
	switch {
	case l.Phase == "move" && !strings.Contains(card.Text(), fmt.Sprintf("rolled a **%d**", l.Roll)):
		return fmt.Errorf("it does not say the board's roll %d: %q", l.Roll, card.Text())
	case l.Phase == "place" && (l.Pending == nil || !strings.Contains(card.Text(), "barricade on "+l.Pending.To)):
		return fmt.Errorf("it does not say the barricade the board's pending move %+v took: %q", l.Pending, card.Text())
	}
	switch l.Phase {
	case "move":
		var want, wantPawns []string
		for _, mv := range l.Moves {
			want = append(want, mv.From+"-"+mv.To)
			if !slices.Contains(wantPawns, mv.From) {
				wantPawns = append(wantPawns, mv.From)
			}
		}
		slices.Sort(want)
		slices.Sort(wantPawns)
		slices.Sort(moves)
		slices.Sort(pawns)
		if len(pawns) > 0 {
			if !slices.Equal(pawns, wantPawns) || len(moves) > 0 {
				return fmt.Errorf("pawn buttons %v and moves %v, the board's pawns %v", pawns, moves, wantPawns)
			}
			return nil
		}
		if !slices.Equal(moves, want) {
			return fmt.Errorf("move buttons %v, the board's moves %v", moves, want)
		}
	case "place":
		var want []string
		for _, s := range l.Suggested {
			want = append(want, s.Square)
		}
		if !slices.Equal(places, want) || !rows {
			return fmt.Errorf("place buttons %v (row menu %v), the board's suggestions %v", places, rows, want)
		}
	default:
		return fmt.Errorf("phase %q has no turn card", l.Phase)
	}
	return nil
}

// controlsOf returns the custom IDs of m's controls of the actions.
func controlsOf(m fakediscord.Message, actions ...gametable.Action) []string {
	var out []string
	for _, cid := range m.CustomIDs() {
		c, err := bot.ParseCustomID(cid)
		if err == nil && slices.Contains(actions, c.Action) {
			out = append(out, cid)
		}
	}
	return out
}

// messageSummary is what a message shows, deadlines blanked: its text,
// its controls and the attachments it shows.
func messageSummary(m fakediscord.Message) string {
	var files []string
	for _, a := range m.ShownAttachments() {
		files = append(files, a.Filename)
	}
	text := m.Text()
	if text == "" {
		text = m.Content
	}
	flags := m.Flags & (discordgo.MessageFlagsIsComponentsV2)
	return fmt.Sprintf("%s %v %v flags=%d", deadlineMark.ReplaceAllString(text, "<t:…>"), m.CustomIDs(), files, flags)
}
