package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/malefiz-discord/malefiz"
)

// TestRatingLinesNameAComputerAsEverywhere: the result names a computer
// "Computer (normal)", as the turns, the card and the stats do.
func TestRatingLinesNameAComputerAsEverywhere(t *testing.T) {
	lines := ratingLines("en", []malefiz.Result{
		{Player: "1", Name: "Alice", Color: "red", RatingBefore: 1500, RatingAfter: 1516},
		{Player: "ai:normal", Name: "normal", Computer: true, Color: "green", RatingBefore: 1500, RatingAfter: 1484},
	})
	assert.Equal(t, []string{"🔴 <@1> 1500 → 1516 (+16)", "🟢 Computer (normal) 1500 → 1484 (-16)"}, lines)
	assert.Contains(t, playerLabel("en", "ai:normal", "normal", true), "Computer (normal)", "the stats say it so too")
}
