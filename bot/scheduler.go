package bot

import "context"

// RunScheduler acts on the games' timers until ctx ends.
func (b *Bot) RunScheduler(ctx context.Context) {
	<-ctx.Done()
}
