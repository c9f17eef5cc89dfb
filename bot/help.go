package bot

import "context"

func (b *Bot) cmdRules(ctx context.Context, r *request, _ options) error {
	b.replyPrivate(ctx, r, tr(r.lang, msgRulesText))
	return nil
}

func (b *Bot) cmdHelp(ctx context.Context, r *request, _ options) error {
	b.replyPrivate(ctx, r, tr(r.lang, msgHelpText))
	return nil
}
