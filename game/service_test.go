package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

// TestALobbyToAGame: a lobby opened with no interaction to answer posts
// its message; joins, a computer and the start are commands, each one
// commit with its version, and the lobby message is the game's.
func TestALobbyToAGame(t *testing.T) {
	e := newEnv(t)
	sg := e.open(ann, map[string]any{"seats": 3.0})
	require.NotZero(t, sg.ID)
	assert.Equal(t, malefiz.StatusLobby, e.stored(sg.ID).Status)
	assert.NotEmpty(t, e.stored(sg.ID).LobbyMessageID, "the posted lobby message is the game's")
	v := e.stored(sg.ID).Version

	o := e.must(sg.ID, ben, Join{})
	assert.True(t, o.Committed)
	require.NotNil(t, o.Reply, "the joiner reads a confirmation")
	assert.Equal(t, table.Private, o.Reply.Kind)
	e.must(sg.ID, ann, AddComputer{Level: "easy"})
	g := e.stored(sg.ID)
	assert.Equal(t, v+2, g.Version, "one commit a command")
	require.Len(t, g.Seats, 3)
	assert.Equal(t, "easy", g.Seats[2].Computer)

	e.must(sg.ID, ann, Start{})
	g = e.stored(sg.ID)
	assert.Equal(t, malefiz.StatusRunning, g.Status)
	assert.NotEmpty(t, g.TurnMessageID, "the first turn card posted")
	l := e.live(sg.ID, ann)
	assert.Equal(t, g.Seats[0].Color, l.ToMove, "the host begins (drawn)")
}

// TestARefusalChangesNothing: a refusal is a *table.Refusal, in the
// user's words, and the stored game keeps its version.
func TestARefusalChangesNothing(t *testing.T) {
	e := newEnv(t)
	sg := e.open(ann, nil)
	v := e.stored(sg.ID).Version
	for name, tt := range map[string]struct {
		user   table.Actor
		action Action
		key    locales.Key
	}{
		"the host joins twice":        {ann, Join{}, locales.ErrAlreadySeated},
		"a stranger leaves":           {ben, Leave{}, locales.ErrNotInGame},
		"a guest starts":              {cat, Start{}, locales.ErrOnlyHostStarts},
		"the host starts alone":       {ann, Start{}, locales.ErrNeedTwo},
		"a computer of no level":      {ann, AddComputer{Level: "godlike"}, locales.ErrBadLevel},
		"a move in a lobby":           {ann, Play{ID: table.CustomID{Action: table.ActRoll, Game: sg.ID, Turn: 1}}, ""},
		"a button the board does not": {ann, Play{ID: table.CustomID{Action: table.ActHint, Game: sg.ID, Turn: 1}}, locales.ErrUnknownButton},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.do(sg.ID, tt.user, tt.action)
			var ref *table.Refusal
			require.ErrorAs(t, err, &ref)
			if tt.key != "" {
				assert.Equal(t, tt.key, ref.Key)
			}
			text, refused := Refusal(err, tt.user.Lang)
			assert.True(t, refused)
			assert.NotEmpty(t, text)
			assert.Equal(t, v, e.stored(sg.ID).Version, "nothing changed")
		})
	}
}

// TestAnotherGuildsGameIsNotFound: a person's command names its server;
// a game of another one answers as a game that does not exist would, and
// changes nothing.
func TestAnotherGuildsGameIsNotFound(t *testing.T) {
	e := newEnv(t)
	sg := e.open(ann, nil)
	v := e.stored(sg.ID).Version
	_, err := e.s.Change(t.Context(), Command{Game: sg.ID, Guild: "999", User: ben, Action: Join{}})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrUnknownGame, ref.Key)
	_, err = e.s.Live(t.Context(), sg.ID, "999", ben.UserID, "en")
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrUnknownGame, ref.Key)
	assert.Equal(t, v, e.stored(sg.ID).Version)

	foreign := err

	// A game that does not exist reads the same (the key, the ID asked),
	// over Change and Live; only the error, which is logged, says which.
	for _, err := range []error{
		func() error {
			_, err := e.s.Change(t.Context(), Command{Game: 1 << 40, Guild: e.fake.GuildID, User: ben, Action: Join{}})
			return err
		}(),
		func() error { _, err := e.s.Live(t.Context(), 1<<40, e.fake.GuildID, ben.UserID, "en"); return err }(),
	} {
		require.ErrorAs(t, err, &ref)
		assert.Equal(t, locales.ErrUnknownGame, ref.Key)
		assert.Equal(t, []any{int64(1 << 40)}, ref.Args)
		assert.Equal(t, "game 1099511627776 not here: no such game", err.Error())
	}
	assert.Equal(t, fmt.Sprintf("game %d not here: of another guild", sg.ID), foreign.Error())
}

// TestAClickIsCheckedByItsOrigin: a click's origin is checked against the
// game before anything is decided: a button of another channel changes
// nothing.
func TestAClickIsCheckedByItsOrigin(t *testing.T) {
	e := newEnv(t)
	sg := e.open(ann, nil)
	g := e.stored(sg.ID)
	click := ben
	click.Click = true
	id := table.CustomID{Action: table.ActJoin, Game: sg.ID}.String()
	_, err := e.s.Change(t.Context(), Command{Game: sg.ID, User: click, Action: Join{},
		Origin: &table.Origin{GuildID: g.GuildID, ChannelID: "elsewhere", MessageID: g.LobbyMessageID, FromBot: true, CustomID: id}})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, g.Version, e.stored(sg.ID).Version)

	o, err := e.s.Change(t.Context(), Command{Game: sg.ID, User: click, Action: Join{},
		Origin: &table.Origin{GuildID: g.GuildID, ChannelID: g.ChannelID, MessageID: g.LobbyMessageID, FromBot: true, CustomID: id}})
	require.NoError(t, err)
	require.NoError(t, o.Deliver())
	require.NotNil(t, o.Reply)
	assert.Equal(t, table.Update, o.Reply.Kind, "a click updates its message")
}

// TestAPlayAnswersAtCommit: a play on the board returns once its change
// is durable; the thread's messages follow from the outbox, and the next
// command on the game does not wait for them.
func TestAPlayAnswersAtCommit(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	release := make(chan struct{})
	held := make(chan struct{}, 1)
	// Discord holds the next turn card's post until released.
	e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.BeforeServe, func(fakediscord.Call) bool {
		held <- struct{}{}
		<-release
		return false
	})
	before := e.stored(id).Version
	done := make(chan error, 1)
	go func() {
		_, err := e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: ann, Action: e.firstMove(id, ann)})
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the play waited for Discord")
	}
	assert.Greater(t, e.stored(id).Version, before, "committed when answered")
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("the turn card was never sent")
	}
	// The game is not locked by its delivery: Ben reads it and may act.
	l := e.live(id, ben)
	assert.True(t, l.YourTurn, "Ben to move next")
	close(release)
	e.s.Wait()
	states, err := e.db.Effects(t.Context(), id)
	require.NoError(t, err)
	for _, st := range states {
		assert.True(t, st.Done, "every effect delivered: %+v", st)
	}
}

// TestTwoPlaysAtOnceApplyOnce: the same play sent twice at once (a click
// and a tap, two replicas' worth of racing) applies once; the other is
// told it came too late, and the game moved one turn.
func TestTwoPlaysAtOnceApplyOnce(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	play := e.firstMove(id, ann)
	before := e.stored(id)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: ann, Action: play})
		}()
	}
	wg.Wait()
	e.s.Wait()
	applied := 0
	for _, err := range errs {
		if err == nil {
			applied++
			continue
		}
		_, refused := Refusal(err, "en")
		assert.True(t, refused, "a refusal, not a failure: %v", err)
	}
	assert.Equal(t, 1, applied)
	after := e.stored(id)
	assert.Equal(t, before.Version+1, after.Version, "one commit")
}

// TestATimerIsACommand: a game's due timer runs through the same path
// with no person: a lobby past its life closes.
func TestATimerIsACommand(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	e := newEnv(t, func(c *Config) { c.Now = func() time.Time { return clock() } })
	sg := e.open(ann, nil)
	clock = func() time.Time { return now.Add(table.LobbyLifetime + time.Minute) }
	o, err := e.s.Change(t.Context(), Command{Game: sg.ID, Action: Due{}})
	require.NoError(t, err)
	require.NoError(t, o.Deliver())
	assert.Nil(t, o.Reply, "nobody to answer")
	assert.Equal(t, malefiz.StatusCancelled, e.stored(sg.ID).Status)
}

// TestAWholeGameOnTheBoard plays a game of a person against a computer
// to its end through Apply alone, the person's moves chosen by the normal
// computer: every play one commit, the result stored with its ratings,
// every effect delivered.
func TestAWholeGameOnTheBoard(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	e := newEnv(t, func(c *Config) {
		c.Dice = engine.DiceFunc(func() int {
			mu.Lock()
			defer mu.Unlock()
			return rnd.IntN(6) + 1
		})
	})
	sg := e.open(ann, map[string]any{"seats": 2.0, "bots": 1.0, "level": "easy"})
	e.must(sg.ID, ann, Start{})
	e.playToTheEnd(sg.ID, ann)
	e.s.Wait()
	g := e.stored(sg.ID)
	require.Equal(t, malefiz.StatusFinished, g.Status)
	results, err := e.db.GameResults(t.Context(), sg.ID)
	require.NoError(t, err)
	require.Len(t, results, 2)
	states, err := e.db.Effects(t.Context(), sg.ID)
	require.NoError(t, err)
	for _, st := range states {
		assert.True(t, st.Done, "delivered: %+v", st)
	}
	require.NotEmpty(t, g.ThreadID, "played in its thread")
	var text []string
	for _, m := range e.fake.ChannelMessages(g.ThreadID) {
		text = append(text, m.Content)
	}
	assert.Contains(t, fmt.Sprint(text), "ratings: 101", "the result completed with the ratings at commit")
}

// playToTheEnd plays game id on the board as user, whose moves the normal
// computer chooses, until it ends: every play one commit.
func (e *env) playToTheEnd(id int64, user table.Actor) {
	t := e.t
	t.Helper()
	mind, err := ai.New(ai.Normal, 1)
	require.NoError(t, err)
	var place engine.Square
	for turn := 0; turn < 1000; turn++ {
		l := e.live(id, user)
		if l.Status != malefiz.StatusRunning {
			return
		}
		require.True(t, l.YourTurn, "the computer plays itself: %s is to move when asked (turn %d)", user.Name, turn)
		var g engine.Game
		require.NoError(t, g.UnmarshalSnapshot(e.stored(id).State))
		cid := table.CustomID{Game: id, Turn: l.Turn}
		switch g.Phase() {
		case engine.PhaseRoll:
			cid.Action = table.ActRoll
		case engine.PhasePlace:
			cid.Action, cid.Arg = table.ActPlace, place.String()
		default:
			m := mind.Choose(g.Position(), g.Rolled(), g.Rules(), g.LegalMoves())
			cid.Action, cid.Arg, place = table.ActMove, fromName(m.From)+"-"+m.To.String(), m.Place
		}
		v := e.stored(id).Version
		_, err := e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: user, Action: Play{ID: cid}})
		require.NoError(t, err, "turn %d: %+v", turn, cid)
		assert.Equal(t, v+1, e.stored(id).Version)
	}
	t.Fatalf("game %d did not end in 1,000 plays", id)
}

// fromName names a move's origin as the custom IDs do.
func fromName(s engine.Square) string {
	if s == engine.NoSquare {
		return "home"
	}
	return s.String()
}

// TestRematch: the first Rematch opens a lobby with the old game's
// options, its clicker the host; a later one takes a seat in it. Another
// channel's click and a game still running are refused.
func TestRematch(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	_, err := e.s.Rematch(t.Context(), Rematch{Of: id, Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ben})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrNoRematch, ref.Key)

	e.must(id, ben, Resign{})
	require.Equal(t, malefiz.StatusFinished, e.stored(id).Status)
	_, err = e.s.Rematch(t.Context(), Rematch{Of: id, Guild: e.fake.GuildID, Channel: "elsewhere", User: ben})
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrForeignButton, ref.Key)

	o, err := e.s.Rematch(t.Context(), Rematch{Of: id, Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ben})
	require.NoError(t, err)
	require.NoError(t, o.Deliver())
	re := e.stored(o.Table.Game.ID)
	assert.Equal(t, id, re.Options.RematchOf)
	assert.Equal(t, ben.UserID, re.HostID)
	assert.Equal(t, malefiz.StatusLobby, re.Status)
	require.NotNil(t, o.Reply)
	assert.Equal(t, table.Private, o.Reply.Kind)

	o, err = e.s.Rematch(t.Context(), Rematch{Of: id, Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ann})
	require.NoError(t, err)
	require.NoError(t, o.Deliver())
	assert.Equal(t, re.ID, o.Table.Game.ID, "the same lobby")
	assert.True(t, Seated(ann.UserID)(e.stored(re.ID)))
}

// TestVoteIsCheckedWhereItWasClicked: a cancel vote clicked outside the
// game's channel and thread is refused.
func TestVoteIsCheckedWhereItWasClicked(t *testing.T) {
	e := newEnv(t)
	sg := e.open(ann, map[string]any{"seats": 3.0})
	e.must(sg.ID, ben, Join{})
	e.must(sg.ID, cat, Join{})
	e.must(sg.ID, ann, Start{})
	id := sg.ID
	e.must(id, ann, e.firstMove(id, ann))
	e.must(id, ann, Cancel{}) // asks the others
	click := ben
	click.Click = true
	_, err := e.do(id, click, Vote{Yes: true, Guild: e.fake.GuildID, Channel: "elsewhere"})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrForeignButton, ref.Key)
	e.must(id, click, Vote{Yes: true, Guild: e.fake.GuildID, Channel: e.fake.ChannelID})
	catClick := cat
	catClick.Click = true
	e.must(id, catClick, Vote{Yes: true, Guild: e.fake.GuildID, Channel: e.fake.ChannelID})
	assert.Equal(t, malefiz.StatusCancelled, e.stored(id).Status)
}

// TestEveryCommandReachesItsTable runs each action once where it is
// allowed: the table decides, the service commits.
func TestEveryCommandReachesItsTable(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Activity = true })
	sg := e.open(ann, map[string]any{"seats": 3.0})
	e.must(sg.ID, ben, Join{})
	e.must(sg.ID, cat, Join{})
	e.must(sg.ID, cat, Leave{})
	e.must(sg.ID, ann, Start{})
	o := e.must(sg.ID, ann, PrivateBoard{})
	require.NotNil(t, o.Reply)
	assert.Equal(t, table.Private, o.Reply.Kind)
	l := e.live(sg.ID, ann)
	click := ann
	click.Click = true
	o = e.must(sg.ID, click, Turn{ID: table.CustomID{Action: table.ActMove, Game: sg.ID, Turn: l.Turn, Arg: l.Moves[0].From + "-" + l.Moves[0].To}})
	require.NotNil(t, o.Reply)
	assert.Equal(t, table.Update, o.Reply.Kind)
	_, err := e.do(sg.ID, ben, Hint{ID: table.CustomID{Action: table.ActHint, Game: sg.ID, Turn: e.live(sg.ID, ben).Turn}})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref, "hints are off on this server")
	e.must(sg.ID, ben, Resign{})
	assert.Equal(t, malefiz.StatusFinished, e.stored(sg.ID).Status)
}

// TestRefusalWords: what a user reads for each kind of error, and which
// are refusals rather than failures.
func TestRefusalWords(t *testing.T) {
	for name, tt := range map[string]struct {
		err     error
		refused bool
		want    string
	}{
		"a refusal":         {table.Refuse(locales.ErrLobbyFull), true, locales.Tr("de", locales.ErrLobbyFull)},
		"a conflict":        {fmt.Errorf("commit: %w", store.ErrConflict), true, locales.Tr("de", locales.ErrTooLate)},
		"a game over":       {engine.ErrGameOver, true, locales.Tr("de", locales.ErrGameOver)},
		"anything else":     {errors.New("disk full"), false, locales.Tr("de", locales.ErrNothingChanged)},
		"a wrapped refusal": {fmt.Errorf("x: %w", table.Refuse(locales.ErrNeedTwo)), true, locales.Tr("de", locales.ErrNeedTwo)},
	} {
		t.Run(name, func(t *testing.T) {
			text, refused := Refusal(tt.err, "de")
			assert.Equal(t, tt.refused, refused)
			assert.Equal(t, tt.want, text)
		})
	}
}

// TestChannelGames: the open games of a channel, the user's first; in a
// game's thread, that game alone.
func TestChannelGames(t *testing.T) {
	e := newEnv(t)
	// A server that plays in threads has several games in a channel.
	gs, err := e.db.GuildSettings(t.Context(), e.fake.GuildID)
	require.NoError(t, err)
	gs.Threads = true
	require.NoError(t, e.db.SetGuildSettings(t.Context(), e.fake.GuildID, gs))
	a := e.open(ann, nil)
	b := e.open(ben, nil)
	var games []*malefiz.Game
	games, err = e.s.ChannelGames(t.Context(), e.fake.GuildID, e.fake.ChannelID, ben.UserID)
	require.NoError(t, err)
	require.Len(t, games, 2)
	assert.Equal(t, b.ID, games[0].ID, "Ben's own first")
	assert.Equal(t, a.ID, games[1].ID)
	games, err = e.s.ChannelGames(t.Context(), e.fake.GuildID, "nowhere", ben.UserID)
	require.NoError(t, err)
	assert.Empty(t, games)
}

// TestTheBoardsLobbyAndHint: the host removes a computer from a lobby,
// another may not; on a server with hints, the player to move asks the
// board for a hint and gets the move as data, recorded as a hint asked.
func TestTheBoardsLobbyAndHint(t *testing.T) {
	e := newEnv(t)
	gs, err := e.db.GuildSettings(t.Context(), e.fake.GuildID)
	require.NoError(t, err)
	gs.Hints = true
	require.NoError(t, e.db.SetGuildSettings(t.Context(), e.fake.GuildID, gs))
	sg := e.open(ann, map[string]any{"seats": 3.0, "bots": 2.0})
	_, err = e.do(sg.ID, cat, Join{})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref, "the lobby is full")
	computer := e.stored(sg.ID).Seats[1]
	require.NotEmpty(t, computer.Computer)
	_, err = e.do(sg.ID, ben, RemoveComputer{Color: computer.Color})
	require.ErrorAs(t, err, &ref, "only the host removes a computer")
	e.must(sg.ID, ann, RemoveComputer{Color: computer.Color})
	assert.Len(t, e.stored(sg.ID).Seats, 2)

	e.must(sg.ID, ann, Start{})
	l := e.live(sg.ID, ann)
	require.True(t, l.YourTurn)
	o, err := e.s.Apply(t.Context(), Command{Game: sg.ID, Guild: e.fake.GuildID, User: ann, Action: BoardHint{Turn: l.Turn}})
	require.NoError(t, err)
	require.NotNil(t, o.Table.Advice)
	assert.NotEmpty(t, o.Table.Advice.To)
	assert.NotEmpty(t, o.Table.Advice.Text)
	_, err = e.s.Apply(t.Context(), Command{Game: sg.ID, Guild: e.fake.GuildID, User: ben, Action: BoardHint{Turn: l.Turn}})
	require.ErrorAs(t, err, &ref, "not Ben's turn")
}

// TestCommandGame: the game a command in a channel is about: its thread's
// game, the channel's one open game, or of several the one wanted.
func TestCommandGame(t *testing.T) {
	e := newEnv(t)
	gs, err := e.db.GuildSettings(t.Context(), e.fake.GuildID)
	require.NoError(t, err)
	gs.Threads = true
	require.NoError(t, e.db.SetGuildSettings(t.Context(), e.fake.GuildID, gs))
	all := func(*malefiz.Game) bool { return true }
	none := func(*malefiz.Game) bool { return false }
	var ref *table.Refusal
	_, err = e.s.CommandGame(t.Context(), e.fake.GuildID, e.fake.ChannelID, all)
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrNoGameHere, ref.Key)

	a := e.open(ann, nil)
	sg, err := e.s.CommandGame(t.Context(), e.fake.GuildID, e.fake.ChannelID, none)
	require.NoError(t, err)
	assert.Equal(t, a.ID, sg.ID, "the one open game")

	b := e.open(ben, map[string]any{"seats": 2.0})
	_, err = e.s.CommandGame(t.Context(), e.fake.GuildID, e.fake.ChannelID, none)
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrWhichGame, ref.Key)
	sg, err = e.s.CommandGame(t.Context(), e.fake.GuildID, e.fake.ChannelID, Seated(ben.UserID))
	require.NoError(t, err)
	assert.Equal(t, b.ID, sg.ID, "the one wanted")

	e.must(b.ID, ann, Join{})
	e.must(b.ID, ben, Start{})
	thread := e.stored(b.ID).ThreadID
	require.NotEmpty(t, thread)
	sg, err = e.s.CommandGame(t.Context(), e.fake.GuildID, thread, none)
	require.NoError(t, err)
	assert.Equal(t, b.ID, sg.ID, "its thread's game")
}
