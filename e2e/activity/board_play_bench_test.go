package activity

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// boardPlayGames is how many games BenchmarkBoardPlay plays at once, and
// boardPlayEvery how often each game's players play at most (three plays
// a second: a person who taps as soon as the board lets them).
const (
	boardPlayGames = 4
	boardPlayEvery = time.Second / 3
)

// BenchmarkBoardPlay measures what a person on the Activity's board
// waits for: a play, from its request to its answer (the HTTP round trip
// of POST api/games/{id}/play), while boardPlayGames games in one channel,
// each in its thread and each with two people of its own, are played on
// the board at up to three plays a second per game (racing: the move
// that ends closest to the goal, a barricade on the first square
// suggested; a game that ends is followed by a new one), against the
// stand-in with Discord's limits on (fakediscord.DefaultLimits). One op is
// one play; p50-ms, p99-ms and max-ms are its answer's time. The goal of
// issue 38 is p99 ≤ 100 ms: a play answers at its commit, before the
// thread's messages about it are sent.
//
//	go test -run XXX -bench BoardPlay -benchtime 120x ./cmd/malefiz
func BenchmarkBoardPlay(b *testing.B) {
	var names []string
	for i := range boardPlayGames {
		names = append(names, fmt.Sprintf("Ann%d", i), fmt.Sprintf("Ben%d", i))
	}
	app, err := sandbox.Start(context.Background(), sandbox.Options{Users: names, Logger: harness.Logger(new(harness.LogBuffer)),
		Bot: func(c *bot.Config) { c.CoachOff = true }})
	require.NoError(b, err)
	b.Cleanup(func() { assert.NoError(b, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	b.Cleanup(srv.Close)
	users := sandbox.Users(names...)
	sessions := map[string]string{}
	for _, u := range users {
		sessions[u.ID] = signIn(b, app, srv, u)
	}

	var (
		left = int64(b.N) // plays still to make
		mu   sync.Mutex
		lat  []time.Duration
		wg   sync.WaitGroup
	)
	b.ResetTimer()
	for i := range boardPlayGames {
		pair := users[2*i : 2*i+2]
		wg.Go(func() {
			tick := time.NewTicker(boardPlayEvery)
			defer tick.Stop()
			id := int64(0)
			for atomic.AddInt64(&left, -1) >= 0 {
				var l gametable.Live
				var session string
				for session == "" {
					if id == 0 {
						id = newActivityGame(b, app, srv, pair)
					}
					for _, u := range pair {
						if l = liveOf(b, srv, id, sessions[u.ID]); l.YourTurn {
							session = sessions[u.ID]
							break
						}
					}
					if l.Phase == "over" {
						id = 0 // a new game
					} else if session == "" {
						time.Sleep(10 * time.Millisecond) // its turn card is on its way
					}
				}
				play := map[string]any{"Turn": l.Turn}
				switch l.Phase {
				case "roll":
					play["Action"] = "roll"
				case "place":
					play["Action"], play["Arg"] = "place", l.Places[0]
					if len(l.Suggested) > 0 {
						play["Arg"] = l.Suggested[0].Square
					}
				default:
					mv := closestMove(l.Moves)
					play["Action"], play["Arg"] = "move", mv.From+"-"+mv.To
				}
				<-tick.C
				start := time.Now()
				status, out := activityCall(b, srv, http.MethodPost, fmt.Sprintf("api/games/%d/play", id), session, play)
				took := time.Since(start)
				require.Equal(b, http.StatusOK, status, "game %d: %v: %v", id, play, out)
				mu.Lock()
				lat = append(lat, took)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	if b.Failed() || len(lat) == 0 {
		b.Fatalf("no play answered")
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(ms(1), "max-ms")
	st := app.Fake.LimitStats()
	b.Logf("%d plays in %d games at once: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms; the stand-in: %d requests, 429s %v, %d invalid",
		len(lat), boardPlayGames, ms(0.5), ms(0.9), ms(0.99), ms(1), st.Requests, st.Limited, st.Invalid)
}
