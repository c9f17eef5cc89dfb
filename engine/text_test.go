package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTextForms(t *testing.T) {
	type all struct {
		Squares []Square
		Colors  []Color
		Move    Move
		Pos     Position
	}
	pos, err := ParsePosition(midGame)
	require.NoError(t, err)
	m, err := ParseMove("c1-e3/h11")
	require.NoError(t, err)
	in := all{Squares: []Square{NoSquare, Goal, mustSquare("c1")}, Colors: []Color{NoColor, Red, Blue}, Move: m, Pos: pos}
	data, err := json.Marshal(in)
	require.NoError(t, err)
	require.JSONEq(t, `{"Squares":["home","i14","c1"],"Colors":["","red","blue"],"Move":"c1-e3/h11","Pos":"`+pos.String()+`"}`, string(data))
	var out all
	require.NoError(t, json.Unmarshal(data, &out))
	require.Equal(t, in, out)
	require.Error(t, json.Unmarshal([]byte(`{"Squares":["z9"]}`), &out))
	require.Error(t, json.Unmarshal([]byte(`{"Colors":["pink"]}`), &out))
	require.Error(t, json.Unmarshal([]byte(`{"Pos":"players="}`), &out))
}
