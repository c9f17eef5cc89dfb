package fakediscord

// Channel is a channel the fake knows: a guild's text channel for now.
type Channel struct {
	ID      string
	GuildID string
	Name    string // "general" for a guild's first channel, then "channel-2", …
	// ParentID is the channel a thread was started in; "" for a text channel.
	ParentID string
	// Thread reports whether the channel is a thread.
	Thread bool
	// Archived reports whether a thread is archived.
	Archived bool
}

// Channels returns the channels of every guild, in the order the guilds
// and their channels were configured.
func (f *Fake) Channels() []Channel {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Channel
	for _, g := range f.guilds {
		for i, id := range g.Channels {
			name := "general"
			if i > 0 {
				name = "channel-" + itoa64(int64(i+1))
			}
			out = append(out, Channel{ID: id, GuildID: g.ID, Name: name})
		}
	}
	return out
}

// Changed returns a channel that is closed at the fake's next change: a
// message created, edited or deleted, an interaction answered, a call
// recorded. Wait on it, then read the state again:
//
//	for {
//		ch := fake.Changed()
//		render(fake.ChannelMessages(id))
//		<-ch
//	}
func (f *Fake) Changed() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}
