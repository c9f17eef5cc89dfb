package games

import (
	"strings"
	"testing"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/e2e/harness"
)

func TestWholeGameThroughButtons(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t, harness.WithoutMessageBuckets())
	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	captures, placements := 0, 0
	for turn := 0; ; turn++ {
		if turn > 300 {
			t.Fatal("no winner after 300 turns")
		}
		if _, running := h.WaitTurn(gameID); !running {
			break
		}
		c, p := harness.PlayTurn(t, h, gameID, captures == 0)
		if c {
			captures++
		}
		if p {
			placements++
		}
	}
	if captures == 0 || placements == 0 {
		t.Errorf("captures %d, barricade placements %d; want at least one of each", captures, placements)
	}
	final := h.LastMessage()
	if !harness.HasBoard(final) || !strings.Contains(harness.Title(final), "wins") {
		t.Errorf("final message: %+v", final.Embeds)
	}
	sg, g := h.Game(gameID)
	if !g.Over() || sg.Status != malefiz.StatusFinished {
		t.Errorf("game over=%v status=%s", g.Over(), sg.Status)
	}
	events, err := h.Main.DB().Events(h.Ctx(), gameID)
	if err != nil || len(events) < 10 {
		t.Fatalf("events: %d, %v", len(events), err)
	}
	if last := events[len(events)-1]; last.Kind != malefiz.EventWin {
		t.Errorf("last event %s, want win", last.Kind)
	}
	stats, err := h.Main.DB().PlayerStats(h.Ctx(), h.Fake.GuildID, harness.Alice)
	if err != nil || stats.Games != 1 {
		t.Errorf("alice's stats: %+v, %v", stats, err)
	}
	harness.CheckStatsCommands(t, h, gameID, g)
}
