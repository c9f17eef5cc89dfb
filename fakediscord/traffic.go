package fakediscord

// Traffic sums up what the bot did in one channel, for figures such as
// messages and pings per game.
type Traffic struct {
	// Messages counts the messages everyone sees that the bot created
	// in the channel, deleted ones included; Ephemeral the ephemeral
	// ones, Deleted those deleted since.
	Messages  int
	Ephemeral int
	Deleted   int
	// Edits counts the edits of all of them.
	Edits int
	// Pings counts, per user, the messages that notified the user: that
	// mentioned them and were not sent with SUPPRESS_NOTIFICATIONS
	// (Message.Notified). Mentions counts the messages that mentioned
	// them, silent ones included.
	Pings    map[string]int
	Mentions map[string]int
	// Uploads and UploadedBytes count the files uploaded with them
	// and their bytes.
	Uploads       int
	UploadedBytes int
}

// Traffic returns what the bot did in a channel (a text channel, a
// thread or a DM channel) so far.
func (f *Fake) Traffic(channelID string) Traffic {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := Traffic{Pings: map[string]int{}, Mentions: map[string]int{}}
	for _, m := range f.byChannel[channelID] {
		if m.Ephemeral {
			t.Ephemeral++
		} else {
			t.Messages++
		}
		if m.Deleted {
			t.Deleted++
		}
		t.Edits += m.Edits
		for _, u := range m.Pinged {
			t.Mentions[u]++
		}
		for _, u := range m.Notified() {
			t.Pings[u]++
		}
		t.Uploads += m.Uploads
		t.UploadedBytes += m.UploadedBytes
	}
	return t
}
