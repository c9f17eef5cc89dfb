package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestChannelListPutsThreadsUnderTheirChannel(t *testing.T) {
	general := fakediscord.Channel{ID: "1", Name: "general"}
	other := fakediscord.Channel{ID: "2", Name: "channel-2"}
	game1 := fakediscord.Channel{ID: "3", Name: "Malefiz #1", Thread: true, ParentID: "1"}
	game2 := fakediscord.Channel{ID: "4", Name: "Malefiz #2", Thread: true, ParentID: "2", Archived: true}
	game3 := fakediscord.Channel{ID: "5", Name: "Malefiz #3", Thread: true, ParentID: "1"}
	orphan := fakediscord.Channel{ID: "6", Name: "lost", Thread: true, ParentID: "99"}
	got := channelList([]fakediscord.Channel{general, other, game1, game2, game3, orphan})
	assert.Equal(t, []fakediscord.Channel{general, game1, game3, other, game2, orphan}, got)
	assert.Empty(t, channelList(nil))
}

func TestMentions(t *testing.T) {
	m := fakediscord.Message{Content: "<@1>, your turn"}
	assert.True(t, mentions(m, nil, "1"))
	assert.False(t, mentions(m, nil, "2"))
	m = fakediscord.Message{Content: "**Turn 3** · Alice rolled 4"}
	assert.False(t, mentions(m, nil, "1"), "a collapsed turn message no longer mentions its player")
}
