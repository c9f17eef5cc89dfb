package bot

import (
	"context"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

func (b *Bot) cmdRules(ctx context.Context, r *request, _ options) error {
	b.replyPrivate(ctx, r, tr(r.lang, locales.TextRules))
	return nil
}

func (b *Bot) cmdHelp(ctx context.Context, r *request, _ options) error {
	b.replyPrivate(ctx, r, tr(r.lang, locales.TextHelp))
	return nil
}
