package store_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/internal/testclock"
	"github.com/malefiz-discord/malefiz/store"
)

// card is an edit of the game's card in the channel, in the "card" queue
// as the bot commits it.
func card(payload string) store.Effect {
	return store.Effect{Queue: "card", Kind: "edit", Payload: []byte(payload)}
}

// commitTo commits effects to game g (created when new), claimed by owner
// when set, and returns them as written.
func commitTo(t *testing.T, db *store.DB, g *malefiz.Game, owner string, effects ...store.Effect) []store.Effect {
	t.Helper()
	c := &store.Commit{Game: g, Effects: effects, Owner: owner, Lease: 30 * time.Second}
	if g.ID == 0 {
		c.Events = []malefiz.Event{{Kind: malefiz.EventStart, Data: "red"}}
	}
	require.NoError(t, db.Commit(ctxT(t), c))
	return c.Effects
}

// claimPayloads claims for owner and returns the payloads claimed, in
// order.
func claimPayloads(t *testing.T, db *store.DB, owner string) []string {
	t.Helper()
	got, err := db.ClaimEffects(ctxT(t), owner, time.Minute, 20)
	require.NoError(t, err)
	out := []string{}
	for _, e := range got {
		out = append(out, string(e.Payload))
	}
	return out
}

// claimOne claims as owner and wants exactly one effect: it returns it.
func claimOne(t *testing.T, db *store.DB, owner string) store.Effect {
	t.Helper()
	got, err := db.ClaimEffects(ctxT(t), owner, time.Minute, 20)
	require.NoError(t, err)
	require.Len(t, got, 1)
	return got[0]
}

// deliverAll claims as owner and records every effect claimed as
// delivered; it returns the payloads, in order.
func deliverAll(t *testing.T, db *store.DB, owner string) []string {
	t.Helper()
	got, err := db.ClaimEffects(ctxT(t), owner, time.Minute, 20)
	require.NoError(t, err)
	out := []string{}
	var done []store.Delivery
	for _, e := range got {
		out = append(out, string(e.Payload))
		done = append(done, store.Delivery{ID: e.ID, Result: "ok"})
	}
	require.NoError(t, db.RecordDeliveries(ctxT(t), owner, done))
	return out
}

// TestEffectQueues checks the queues of a game's outbox (see store.Effect)
// on each backend, one rule per case.
func TestEffectQueues(t *testing.T) {
	t.Parallel()
	const gap = store.DefaultQueueGap
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, db *store.DB, c *testclock.Clock)
	}{
		{"a new card edit supersedes the pending one nobody holds", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			first := commitTo(t, db, g, "", card("card 1"))
			commitTo(t, db, g, "", card("card 2"))
			commitTo(t, db, g, "", card("card 3"))
			assert.Equal(t, []string{"card 3"}, claimPayloads(t, db, "sender"))

			states, err := db.Effects(ctxT(t), g.ID)
			require.NoError(t, err)
			require.Len(t, states, 3)
			for i, s := range states[:2] {
				assert.True(t, s.Done, "card %d is done", i+1)
				assert.False(t, s.Failed, "card %d is not given up", i+1)
				assert.Equal(t, store.Superseded, s.Result, "card %d", i+1)
				assert.Equal(t, "card", s.Queue)
			}
			assert.False(t, states[2].Done)
			require.ErrorIs(t, db.EffectDone(ctxT(t), "sender", first[0].ID, "late", nil), store.ErrLeaseLost,
				"a superseded effect is nobody's")
		}},
		{"a card edit in flight is not superseded, and the next waits for it", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "", card("card 1"))
			held := claimOne(t, db, "sender")
			commitTo(t, db, g, "", card("card 2"))
			commitTo(t, db, g, "", card("card 3"))
			c.Advance(gap)
			assert.Empty(t, claimPayloads(t, db, "other"), "card 3 waits for card 1, in flight")

			require.NoError(t, db.EffectDone(ctxT(t), "sender", held.ID, "ok", nil))
			assert.Equal(t, []string{"card 3"}, claimPayloads(t, db, "other"))
			states, err := db.Effects(ctxT(t), g.ID)
			require.NoError(t, err)
			assert.Equal(t, []string{"ok", store.Superseded, ""},
				[]string{states[0].Result, states[1].Result, states[2].Result})
		}},
		{"a held card edit is outdated once a newer one is pending, a main effect never", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "", effect("post", "lobby"))
			lobby := claimOne(t, db, "sender")
			require.NoError(t, db.EffectDone(ctxT(t), "sender", lobby.ID, "ok", nil))
			commitTo(t, db, g, "", card("card 1"))
			held := claimOne(t, db, "sender")
			outdated, err := db.Outdated(ctxT(t), held)
			require.NoError(t, err)
			assert.False(t, outdated, "the newest state")

			commitTo(t, db, g, "", card("card 2"), effect("post", "turn 2"))
			outdated, err = db.Outdated(ctxT(t), held)
			require.NoError(t, err)
			assert.True(t, outdated, "card 2 is pending")
			outdated, err = db.Outdated(ctxT(t), lobby)
			require.NoError(t, err)
			assert.False(t, outdated, "a main effect is never outdated")

			// Delivered, card 2 no longer outdates card 1, but it
			// supersedes it: the card shows a later state.
			require.NoError(t, db.EffectDone(ctxT(t), "sender", held.ID, "ok", nil))
			c.Advance(gap)
			assert.ElementsMatch(t, []string{"card 2", "turn 2"}, deliverAll(t, db, "sender"))
			states, err := db.Effects(ctxT(t), g.ID)
			require.NoError(t, err)
			next := states[len(states)-2].Effect // card 2, before turn 2
			require.Equal(t, "card", next.Queue)
			outdated, err = db.Outdated(ctxT(t), held)
			require.NoError(t, err)
			assert.False(t, outdated, "nothing newer pending")
			newer, err := db.Superseded(ctxT(t), held)
			require.NoError(t, err)
			assert.True(t, newer, "card 2, delivered, is newer")
			newer, err = db.Superseded(ctxT(t), next)
			require.NoError(t, err)
			assert.False(t, newer, "nothing newer than card 2")
			newer, err = db.Superseded(ctxT(t), lobby)
			require.NoError(t, err)
			assert.False(t, newer, "a main effect never is")
		}},
		{"a card edit waits for the game's older main effects", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g, other := newGame("c1"), newGame("c2")
			commitTo(t, db, g, "", effect("post", "lobby"), card("card 1"))
			commitTo(t, db, other, "", card("other card"))
			assert.Equal(t, []string{"lobby", "other card"}, deliverAll(t, db, "sender"),
				"the card waits for the post that makes it; another game's card does not")
			assert.Equal(t, []string{"card 1"}, deliverAll(t, db, "sender"))

			// An older post held by its writer holds the card back too.
			commitTo(t, db, g, "writer", effect("post", "turn 2"), card("card 2"))
			c.Advance(gap)
			assert.Empty(t, claimPayloads(t, db, "sender"))
			mine, err := db.ClaimedEffects(ctxT(t), "writer", g.ID)
			require.NoError(t, err)
			require.Len(t, mine, 1, "the writer holds the post, not the card")
			require.NoError(t, db.EffectDone(ctxT(t), "writer", mine[0].ID, "m2", nil))
			assert.Equal(t, []string{"card 2"}, claimPayloads(t, db, "sender"))
		}},
		{"the main queue never waits for a card edit", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "", card("card 1"))
			held := claimOne(t, db, "sender")
			// The card edit fails for now and waits a minute: posts go on.
			require.NoError(t, db.RetryEffect(ctxT(t), "sender", held.ID, time.Minute, "429"))
			commitTo(t, db, g, "", effect("post", "turn 1"))
			commitTo(t, db, g, "", effect("post", "turn 2"))
			assert.Equal(t, []string{"turn 1"}, deliverAll(t, db, "sender"))
			assert.Equal(t, []string{"turn 2"}, deliverAll(t, db, "sender"))

			// Committed by a writer: the main effects are the head even
			// though a card edit is pending, and the writer holds them.
			c.Advance(time.Minute)
			commitTo(t, db, g, "", card("card 2"))
			main := &store.Commit{Game: g, Effects: []store.Effect{effect("post", "turn 3")}, Owner: "writer", Lease: time.Minute}
			require.NoError(t, db.Commit(ctxT(t), main))
			assert.True(t, main.Head)
			assert.Equal(t, []string{"card 2"}, claimPayloads(t, db, "sender"))
		}},
		{"a retry of a main effect leaves the owner's card claim alone", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "", card("card 1"))
			commitTo(t, db, g, "", effect("post", "turn 1"), effect("post", "turn 2"))
			got, err := db.ClaimEffects(ctxT(t), "sender", time.Minute, 20)
			require.NoError(t, err)
			require.Len(t, got, 2, "card 1 and turn 1")
			require.Equal(t, []string{"card", ""}, []string{got[0].Queue, got[1].Queue})
			require.NoError(t, db.RetryEffect(ctxT(t), "sender", got[1].ID, time.Second, "500"))
			require.NoError(t, db.EffectDone(ctxT(t), "sender", got[0].ID, "ok", nil), "the card is still claimed")
		}},
		{"two claims of one card are the gap apart", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "", card("card 1"))
			assert.Equal(t, []string{"card 1"}, deliverAll(t, db, "sender"))
			c.Advance(gap / 3)
			commitTo(t, db, g, "", card("card 2"))
			assert.Empty(t, claimPayloads(t, db, "sender"))
			next, ok, err := db.NextEffectAt(ctxT(t))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, t0.Add(gap), next, "the first claim plus the gap")

			c.Advance(gap/3*2 - time.Millisecond)
			assert.Empty(t, claimPayloads(t, db, "sender"))
			c.Advance(time.Millisecond)
			assert.Equal(t, []string{"card 2"}, deliverAll(t, db, "sender"))

			// Long after the last claim, a new edit is due at once.
			c.Advance(time.Hour)
			commitTo(t, db, g, "", card("card 3"))
			assert.Equal(t, []string{"card 3"}, deliverAll(t, db, "sender"))
		}},
		{"a superseding card edit keeps the retry time of the one it replaces", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "", card("card 1"))
			held := claimOne(t, db, "sender")
			require.NoError(t, db.RetryEffect(ctxT(t), "sender", held.ID, time.Minute, "503"))
			commitTo(t, db, g, "", card("card 2"))
			next, ok, err := db.NextEffectAt(ctxT(t))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, t0.Add(time.Minute), next)
			c.Advance(time.Minute)
			assert.Equal(t, []string{"card 2"}, deliverAll(t, db, "sender"))
		}},
		{"NextEffectAt counts a card edit only once no main effect holds it back", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			writer := &store.Commit{Game: g, Events: []malefiz.Event{{Kind: malefiz.EventStart, Data: "red"}},
				Effects: []store.Effect{effect("post", "lobby"), card("card 1")}, Owner: "writer", Lease: time.Minute}
			require.NoError(t, db.Commit(ctxT(t), writer))
			assert.True(t, writer.Head)
			next, ok, err := db.NextEffectAt(ctxT(t))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, t0.Add(time.Minute), next, "the post's claim, not the card edit it holds back")

			require.NoError(t, db.EffectDone(ctxT(t), "writer", writer.Effects[0].ID, "m1", nil))
			next, ok, err = db.NextEffectAt(ctxT(t))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, t0, next, "the card edit is due")

			c.Advance(time.Second)
			held := claimOne(t, db, "sender")
			next, ok, err = db.NextEffectAt(ctxT(t))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, t0.Add(time.Second+time.Minute), next, "the end of its claim")
			require.NoError(t, db.EffectDone(ctxT(t), "sender", held.ID, "ok", nil))
			_, ok, err = db.NextEffectAt(ctxT(t))
			require.NoError(t, err)
			assert.False(t, ok)
		}},
		{"a commit claims no card edit for its writer", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			g := newGame("c1")
			commitTo(t, db, g, "")
			only := &store.Commit{Game: g, Effects: []store.Effect{card("card 1")}, Owner: "writer", Lease: time.Minute}
			require.NoError(t, db.Commit(ctxT(t), only))
			assert.False(t, only.Head, "no main effect to deliver")
			mine, err := db.ClaimedEffects(ctxT(t), "writer", g.ID)
			require.NoError(t, err)
			assert.Empty(t, mine)
			assert.Equal(t, []string{"card 1"}, claimPayloads(t, db, "sender"))
		}},
		{"a smaller gap lets card edits follow sooner", func(t *testing.T, db *store.DB, c *testclock.Clock) {
			db.QueueGap = 100 * time.Millisecond
			g := newGame("c1")
			commitTo(t, db, g, "", card("card 1"))
			assert.Equal(t, []string{"card 1"}, deliverAll(t, db, "sender"))
			commitTo(t, db, g, "", card("card 2"))
			c.Advance(100 * time.Millisecond)
			assert.Equal(t, []string{"card 2"}, deliverAll(t, db, "sender"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, b store.TestBackend) {
				db, c := openTest(t, b)
				tc.run(t, db, c)
			})
		})
	}
}

// TestClaimQueuedEffectsConcurrently has four owners claim at once from
// games that each have a main and a card effect due, and a card edit
// superseded: every effect due is claimed once, the superseded one never,
// and no game has two effects of one queue out at once.
func TestClaimQueuedEffectsConcurrently(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		const games = 20
		due := map[int64]bool{}
		for i := range games {
			g := newGame(fmt.Sprint("c", i))
			commitTo(t, db, g, "", card("stale"))
			for _, e := range commitTo(t, db, g, "", card("card"), effect("post", "turn 1"), effect("post", "turn 2")) {
				due[e.ID] = string(e.Payload) != "turn 2"
			}
		}
		var mu sync.Mutex
		seen := map[int64]int{}
		out := map[string]int{} // game and queue → effects claimed
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				got, err := db.ClaimEffects(ctxT(t), fmt.Sprint("w", w), time.Minute, 2*games)
				assert.NoError(t, err)
				mu.Lock()
				defer mu.Unlock()
				for _, e := range got {
					seen[e.ID]++
					out[fmt.Sprint(e.GameID, "/", e.Queue)]++
				}
			})
		}
		wg.Wait()
		assert.Len(t, seen, 2*games, "a card edit and the first post of each game")
		for id, n := range seen {
			assert.Equal(t, 1, n, "effect %d claimed %d times", id, n)
			assert.True(t, due[id], "effect %d was not due", id)
		}
		for q, n := range out {
			assert.Equal(t, 1, n, "%s: %d out at once", q, n)
		}
	})
}

// TestOutageLosesNothing plays two games for an hour while Discord answers
// nothing: each commits a turn post and a card edit every minute, and a
// sender claims whatever is due and puts it back with a backoff of up to a
// minute, as the bot's does, while the outbox is pruned of old history.
// Nothing is given up or pruned; when Discord is back the backlog is
// claimed in batches, each game's posts oldest first and one at a time,
// and the sixty card edits of each game have collapsed into the last one,
// sent once after the last post.
func TestOutageLosesNothing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		const turns = 60
		games := []*malefiz.Game{newGame("c1"), newGame("c2")}
		for _, g := range games {
			commitTo(t, db, g, "", effect("post", "lobby"), card("card 0"))
		}
		require.Len(t, deliverAll(t, db, "sender"), 2)
		c.Advance(time.Minute)
		require.Len(t, deliverAll(t, db, "sender"), 2, "the cards after their posts")

		// An hour of outage, in steps of 20 s.
		tries := 0
		for step := range 3 * turns {
			if step%3 == 0 {
				for i, g := range games {
					n := step/3 + 1
					commitTo(t, db, g, "", effect("post", fmt.Sprintf("g%d turn %d", i, n)), card(fmt.Sprintf("g%d card %d", i, n)))
				}
				_, err := db.PruneEffects(ctxT(t), c.Now().Add(-time.Minute))
				require.NoError(t, err)
			}
			got, err := db.ClaimEffects(ctxT(t), "sender", time.Minute, 20)
			require.NoError(t, err)
			for _, e := range got {
				assert.Empty(t, e.Queue, "a card edit waits for its game's posts")
				wait := min(time.Second<<e.Attempts, time.Minute)
				require.NoError(t, db.RetryEffect(ctxT(t), "sender", e.ID, wait, "503 Service Unavailable"))
				tries++
			}
			c.Advance(20 * time.Second)
		}
		n, err := db.PendingEffects(ctxT(t))
		require.NoError(t, err)
		assert.Equal(t, len(games)*(turns+1), n, "every post and each game's last card edit")
		for _, g := range games {
			states, err := db.Effects(ctxT(t), g.ID)
			require.NoError(t, err)
			var cards []string
			for _, s := range states {
				assert.False(t, s.Failed, "effect %d (%s) given up", s.ID, s.Payload)
				if !s.Done && s.Queue == "card" {
					cards = append(cards, string(s.Payload))
				}
			}
			assert.Len(t, cards, 1, "game %d: the card edits replaced by newer ones", g.ID)
		}
		assert.Greater(t, tries/len(games), 30, "tried past the sender's old limit of 30")

		// Discord is back.
		c.Advance(time.Minute)
		sent := map[int64][]string{}
		passes := 0
		for {
			got, err := db.ClaimEffects(ctxT(t), "sender", time.Minute, 20)
			require.NoError(t, err)
			if len(got) == 0 {
				break
			}
			passes++
			perGame := map[int64]int{}
			var done []store.Delivery
			for _, e := range got {
				perGame[e.GameID]++
				sent[e.GameID] = append(sent[e.GameID], string(e.Payload))
				done = append(done, store.Delivery{ID: e.ID, Result: "ok"})
			}
			for id, k := range perGame {
				assert.Equal(t, 1, k, "game %d: one effect per pass", id)
			}
			require.NoError(t, db.RecordDeliveries(ctxT(t), "sender", done))
		}
		assert.Equal(t, turns+1, passes, "each game's posts one at a time, then its card")
		for i, g := range games {
			want := make([]string, 0, turns+1)
			for n := 1; n <= turns; n++ {
				want = append(want, fmt.Sprintf("g%d turn %d", i, n))
			}
			want = append(want, fmt.Sprintf("g%d card %d", i, turns))
			assert.Equal(t, want, sent[g.ID])
		}
		_, ok, err := db.NextEffectAt(ctxT(t))
		require.NoError(t, err)
		assert.False(t, ok, "nothing left")
	})
}

// TestQueuedEffectsUnderRacingCommits has each of several games commit card
// edits as fast as it can while three owners claim and deliver at once,
// with no gap: no card has two edits out at once, each card's edits go out
// in the order they were committed, every delivery is recorded (none was
// superseded under its owner), and each card's last edit is delivered.
func TestQueuedEffectsUnderRacingCommits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		db.QueueGap = 0
		const games, edits = 4, 25
		gs := make([]*malefiz.Game, games)
		for i := range gs {
			gs[i] = newGame(fmt.Sprint("c", i))
			commitTo(t, db, gs[i], "")
		}
		var (
			mu        sync.Mutex
			out       = map[int64]bool{}     // games with a card edit out
			delivered = map[int64][]string{} // by game, in order
			committed sync.WaitGroup
			stop      = make(chan struct{})
			claimers  sync.WaitGroup
		)
		for _, g := range gs {
			committed.Go(func() {
				for n := 1; n <= edits; n++ {
					c := &store.Commit{Game: g, Effects: []store.Effect{card(fmt.Sprintf("card %02d", n))}}
					if !assert.NoError(t, db.Commit(ctxT(t), c)) {
						return
					}
				}
			})
		}
		for w := range 3 {
			owner := fmt.Sprint("w", w)
			claimers.Go(func() {
				for {
					got, err := db.ClaimEffects(ctxT(t), owner, time.Minute, 20)
					if !assert.NoError(t, err) {
						return
					}
					if len(got) == 0 {
						select {
						case <-stop:
							return
						default:
							time.Sleep(time.Millisecond)
							continue
						}
					}
					mu.Lock()
					for _, e := range got {
						assert.False(t, out[e.GameID], "game %d: two card edits out at once", e.GameID)
						out[e.GameID] = true
						delivered[e.GameID] = append(delivered[e.GameID], string(e.Payload))
					}
					mu.Unlock()
					done := make([]store.Delivery, len(got))
					mu.Lock()
					for i, e := range got {
						done[i] = store.Delivery{ID: e.ID, Result: "ok"}
						out[e.GameID] = false // before the record: the next may be claimed only after it
					}
					mu.Unlock()
					assert.NoError(t, db.RecordDeliveries(ctxT(t), owner, done))
				}
			})
		}
		committed.Wait()
		drained := func() bool {
			n, err := db.PendingEffects(ctxT(t))
			return err == nil && n == 0
		}
		ok := assert.Eventually(t, drained, 30*time.Second, 5*time.Millisecond, "an effect is left pending")
		close(stop)
		claimers.Wait()
		require.True(t, ok)
		for _, g := range gs {
			d := delivered[g.ID]
			require.NotEmpty(t, d, "game %d", g.ID)
			assert.IsIncreasing(t, d, "game %d: in the order committed", g.ID)
			assert.Equal(t, fmt.Sprintf("card %02d", edits), d[len(d)-1], "game %d: the last state", g.ID)
			t.Logf("game %d: %d of %d edits delivered", g.ID, len(d), edits)
		}
	})
}
