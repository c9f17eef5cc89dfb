package activity

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/activity"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
)

// BenchmarkActivityPush measures how soon the pages that show a game see a
// play: 20 running games, 5 open Activities on each (100 sockets), one
// play per op committed by Bot.Play (the lock, the decision, the commit)
// on the next game in turn; the time from the play's start to each of its
// game's 5 sockets reading the new state is reported as push-p50-ms and
// push-p99-ms. Memory per open connection (heap and stacks, the server's
// side and the test's client together) is reported as B/conn.
//
//	go test -run XXX -bench ActivityPush -benchtime 400x ./e2e/activity
func BenchmarkActivityPush(b *testing.B) {
	const games, watchers = 20, 5
	// Every socket is Alice's or Bob's: the budget per session and per
	// user (a few pages each, 10 new at once) is raised past them, the
	// benchmark being about the pushes.
	app, srv, users, _ := activitySandboxWith(b, 5, func(c *activity.Config) {
		c.SocketsPerSession, c.SocketsPerUser = games*watchers, games*watchers
		c.NewSocketsPerUser = 3 * games * watchers // a third at once
	})
	var ids []int64
	for len(ids) < games {
		ids = append(ids, newActivityGame(b, app, srv, users))
	}
	sessions := map[string]string{}
	for _, u := range users {
		sessions[u.ID] = signIn(b, app, srv, u)
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pushes := map[int64][]chan time.Time{}
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/.proxy/api/games/%d/live"
	for _, id := range ids {
		for i := range watchers {
			dialer := websocket.Dialer{Subprotocols: activity.LiveProtocols(sessions[users[i%2].ID])}
			conn, _, err := dialer.Dial(fmt.Sprintf(wsURL, id), nil)
			require.NoError(b, err)
			b.Cleanup(func() { conn.Close() })
			_, _, err = conn.ReadMessage() // the state when opened
			require.NoError(b, err)
			ch := make(chan time.Time, 16)
			go func() {
				for {
					if _, _, err := conn.ReadMessage(); err != nil {
						return
					}
					ch <- time.Now()
				}
			}()
			pushes[id] = append(pushes[id], ch)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perConn := float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse) / float64(games*watchers)

	var lat []time.Duration
	over := 0
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		id := ids[i%len(ids)]
		var actor gametable.Actor
		var play gametable.CustomID
		for _, u := range users {
			l := liveOf(b, srv, id, sessions[u.ID])
			if !l.YourTurn {
				continue
			}
			actor, play = gametable.Actor{UserID: u.ID, Name: u.Name}, playOf(id, l)
		}
		if actor.UserID == "" { // the game is over
			over++
			b.StartTimer()
			continue
		}
		for _, ch := range pushes[id] {
			for len(ch) > 0 {
				<-ch
			}
		}
		b.StartTimer()
		start := time.Now()
		_, err := app.Main.Bot().Games().Apply(b.Context(), game.Command{Game: id, Guild: app.Fake.GuildID, User: actor, Action: game.Play{ID: play}})
		require.NoError(b, err)
		for _, ch := range pushes[id] {
			select {
			case at := <-ch:
				lat = append(lat, at.Sub(start))
			case <-time.After(5 * time.Second):
				b.Fatalf("game %d: no push within 5 s", id)
			}
		}
	}
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(ms(0.5), "push-p50-ms")
	b.ReportMetric(ms(0.99), "push-p99-ms")
	b.ReportMetric(perConn, "B/conn")
	b.ReportMetric(float64(over), "games-over")
}

// playOf is the play of the player to move in game id as l shows it: the
// die rolled, the first square offered for a barricade, or the last move
// offered (the one that goes furthest).
func playOf(id int64, l gametable.Live) gametable.CustomID {
	play := gametable.CustomID{Game: id, Turn: l.Turn}
	switch {
	case l.Phase == "place":
		play.Action, play.Arg = gametable.ActPlace, l.Places[0]
	case l.Phase == "roll":
		play.Action = gametable.ActRoll
	default:
		m := l.Moves[len(l.Moves)-1]
		play.Action, play.Arg = gametable.ActMove, m.From+"-"+m.To
	}
	return play
}
