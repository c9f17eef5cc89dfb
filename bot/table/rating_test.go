package table

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestElo(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before []float64
		winner int
		want   []float64
	}{
		{"two equals", []float64{1500, 1500}, 0, []float64{16, -16}},
		{"four equals", []float64{1500, 1500, 1500, 1500}, 2, []float64{-16.0 / 3, -16.0 / 3, 16, -16.0 / 3}},
		// 400 points apart: the favourite expects 10/11.
		{"favourite wins", []float64{1900, 1500}, 0, []float64{32.0 / 11, -32.0 / 11}},
		{"upset", []float64{1900, 1500}, 1, []float64{-320.0 / 11, 320.0 / 11}},
		{"no winner", []float64{1500, 1500}, -1, []float64{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Elo(tc.before, tc.winner)
			sum := 0.0
			for i := range got {
				sum += got[i]
				assert.InDelta(t, tc.want[i], got[i], 1e-9, "seat %d", i)
			}
			assert.InDelta(t, 0, sum, 1e-9, "what the winner gains the others lose")
		})
	}
}
