package ai

import (
	"testing"

	"github.com/malefiz-discord/malefiz/engine"
)

func mustPosition(tb testing.TB, text string) engine.Position {
	tb.Helper()
	p, err := engine.ParsePosition(text)
	if err != nil {
		tb.Fatalf("ParsePosition(%q): %v", text, err)
	}
	return p
}

const midGame = "players=rgyb turn=g r=c1,e5,h11 g=g1,g4,k5,m7 y=k3,o5 b=q2,n11 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i13,c13"

func BenchmarkValueTable(b *testing.B) {
	pos := mustPosition(b, midGame)
	bd := newBoard(pos)
	e := newEvaluator(defaultParams)
	var t valueTable
	for b.Loop() {
		e.compute(&bd.bars, &t)
	}
}

func BenchmarkChances(b *testing.B) {
	pos := mustPosition(b, midGame)
	bd := newBoard(pos)
	e := newEvaluator(defaultParams)
	for b.Loop() {
		e.chances(&bd)
	}
}
