package fakediscord

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkNonceCreate measures POST /channels/{channel}/messages with a
// new nonce and "enforce_nonce": true in a channel that already holds
// many messages inside the nonce window: the handler looks the nonce up
// before it creates the message.
func BenchmarkNonceCreate(b *testing.B) {
	for _, n := range []int{100, 10_000, 100_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			f := Start()
			defer f.Close()
			now := time.Now()
			f.mu.Lock()
			for i := range n {
				f.storeLocked(&Message{ID: newID(), ChannelID: f.ChannelID, GuildID: f.GuildID, Created: now, Nonce: fmt.Sprintf("n%d", i), Content: "x"})
			}
			f.mu.Unlock()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				body, _ := json.Marshal(map[string]any{"content": "turn", "nonce": fmt.Sprintf("b%d", i), "enforce_nonce": true})
				c := &Call{Time: now, Method: "POST", Params: map[string]string{"channel": f.ChannelID}, Body: body}
				if status, _ := f.createMessage(c); status != 200 {
					b.Fatalf("status %d", status)
				}
			}
		})
	}
}

// BenchmarkChannelReads measures what a harness reads after every click
// (LastMessage and ChannelMessages of one game's thread) while the fake
// holds the messages of many games: 100 channels of n messages each.
func BenchmarkChannelReads(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("channels=100/messages=%d", n), func(b *testing.B) {
			f := Start()
			defer f.Close()
			now := time.Now()
			channels := make([]string, 100)
			f.mu.Lock()
			for c := range channels {
				channels[c] = newID()
			}
			for range n {
				for _, ch := range channels {
					f.storeLocked(&Message{ID: newID(), ChannelID: ch, Created: now, Content: "x"})
				}
			}
			f.mu.Unlock()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				ch := channels[i%len(channels)]
				if _, ok := f.LastMessage(ch); !ok {
					b.Fatal("no last message")
				}
				if got := len(f.ChannelMessages(ch)); got != n {
					b.Fatalf("%d messages", got)
				}
			}
		})
	}
}
