package fakediscord

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// TestOptionRange checks what an out-of-range option says: the range the
// command declares, as Discord's client shows it.
func TestOptionRange(t *testing.T) {
	two, one := 2.0, 1
	tests := []struct {
		name string
		opt  discordgo.ApplicationCommandOption
		v    any
		want string // "" when the value is taken
	}{
		{"both bounds", discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, MinValue: &two, MaxValue: 4}, 7, "must be between 2 and 4"},
		{"inside", discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, MinValue: &two, MaxValue: 4}, 4, ""},
		{"min only", discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, MinValue: &two}, 1, "must be at least 2"},
		{"max only", discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionNumber, MaxValue: 2.5}, 3, "must be at most 2.5"},
		{"too short", discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, MinLength: &one, MaxLength: 32}, "", "must be between 1 and 32 characters long"},
		{"too long", discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, MaxLength: 3}, "abcd", "must be at most 3 characters long"},
	}
	f := &Fake{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.encodeOption(&tt.opt, tt.v, Invocation{}, &resolved{})
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tt.want)
		})
	}
}
