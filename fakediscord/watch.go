package fakediscord

import "github.com/bwmarrin/discordgo"

// Channel is a channel the fake knows: a guild's text channel, a thread
// the bot started or a DM channel it opened.
type Channel struct {
	ID      string
	Type    discordgo.ChannelType // text (0), DM (1) or public thread (11)
	GuildID string                // "" for a DM channel
	// Name is "general" for a guild's first channel, then "channel-2",
	// …; a thread's name; "" for a DM channel.
	Name string
	// ParentID is the channel a thread was started in; "" for a text channel.
	ParentID string
	// Thread reports whether the channel is a thread.
	Thread bool
	// Archived and Locked report a thread's state.
	Archived bool
	Locked   bool
	// RecipientID is the user of a DM channel.
	RecipientID string
}

// Channels returns the channels of every guild, in the order the guilds
// and their channels were configured, then the threads and DM channels in
// the order they were made.
func (f *Fake) Channels() []Channel {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.autoArchiveLocked()
	var out []Channel
	for _, g := range f.guilds {
		for _, id := range g.Channels {
			out = append(out, Channel{ID: id, Type: discordgo.ChannelTypeGuildText, GuildID: g.ID, Name: f.channelNameLocked(id)})
		}
	}
	for _, id := range f.chanOrder {
		ch := f.chans[id]
		out = append(out, Channel{
			ID: id, Type: ch.typ, GuildID: ch.guild, Name: ch.name, ParentID: ch.parent,
			Thread: ch.isThread(), Archived: ch.archived, Locked: ch.locked, RecipientID: ch.recipient,
		})
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
