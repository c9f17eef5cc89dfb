package game

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// TestGradesRoundTrip: a grade stored and read back is the grade, for a
// pass, a move out of the house and a barricade's capture.
func TestGradesRoundTrip(t *testing.T) {
	move := func(s string) engine.Move {
		m, err := engine.ParseMove(s)
		require.NoError(t, err)
		return m
	}
	for _, c := range []struct {
		name string
		g    ai.Grade
	}{
		{"pass", ai.Grade{Index: 4, Color: engine.Blue, Turn: 2, Roll: 3, Move: ai.NoMove, Best: ai.NoMove, Chance: 31, Luck: -4.5}},
		{"from the house", ai.Grade{Index: 1, Color: engine.Red, Turn: 1, Roll: 6, Move: move("home-c1"), Best: move("home-c1"), Options: 1, Chance: 50}},
		{"a barricade placed", ai.Grade{Index: 9, Color: engine.Green, Turn: 7, Roll: 1, Move: move("i10-i11/m2"), Best: move("i10-i11/i13"),
			Options: 169, Loss: 11.68, Chance: 29.9, Luck: 13.9}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := EngineGrades([]store.Grade{storedGrade(c.g)})
			require.NoError(t, err)
			assert.Equal(t, []ai.Grade{c.g}, got)
		})
	}
	_, err := EngineGrades([]store.Grade{{Color: "red", Move: "x-y"}})
	assert.Error(t, err, "a move that does not parse")
}

// TestGradedEvents: which commits give the coach work.
func TestGradedEvents(t *testing.T) {
	for _, c := range []struct {
		name  string
		kinds []string
		want  bool
	}{
		{"a roll alone", []string{malefiz.EventRoll}, false},
		{"a hint", []string{table.EventHint}, false},
		{"a move", []string{malefiz.EventRoll, malefiz.EventMove}, true},
		{"a pass", []string{malefiz.EventRoll, malefiz.EventPass}, true},
		{"the placement of a barricade", []string{malefiz.EventPlace}, true},
		{"the end", []string{malefiz.EventWin}, true},
		{"a resignation", []string{malefiz.EventResign}, true},
		{"nothing", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var events []malefiz.Event
			for _, k := range c.kinds {
				events = append(events, malefiz.Event{Kind: k})
			}
			assert.Equal(t, c.want, graded(events))
		})
	}
}
