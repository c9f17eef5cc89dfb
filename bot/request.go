package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// request is one interaction being handled.
type request struct {
	ctx       context.Context // bounds every Discord call made for the request
	i         *discordgo.Interaction
	userID    string
	name      string // display name
	lang      string // the user's language, for private replies
	guildLang string // the server's language, for messages everyone sees
	perms     int64  // the member's permissions in the channel
	// answer sends the interaction's one response: the REST callback, or
	// the HTTP response of an interactions endpoint; dc sends the rest
	// (follow-ups, the edit of a deferred answer), log what fails.
	answer    func(*discordgo.InteractionResponse) error
	dc        Discord
	log       *slog.Logger
	responded bool // the interaction has been answered
	deferred  bool // answered "thinking…": the real answer edits @original
	committed bool // a change of this request was committed
	// answeredAt is when the first answer went out (latency metrics).
	answeredAt time.Time
	// originChecked: the handler checked where the click comes from (a
	// click on one game's message that changes another, like Rematch).
	originChecked bool
	// settings are the user's settings, read with the game the request
	// acted on (settingsRead).
	settings     malefiz.UserSettings
	settingsRead bool
}

// newRequest is the request of interaction i, answered through b's Discord.
func (b *Bot) newRequest(i *discordgo.Interaction) *request {
	r := &request{ctx: context.Background(), i: i, lang: language(string(i.Locale)), dc: b.dc, log: b.log}
	if i.GuildLocale != nil {
		r.guildLang = language(string(*i.GuildLocale))
	} else {
		r.guildLang = r.lang
	}
	switch {
	case i.Member != nil && i.Member.User != nil:
		r.userID = i.Member.User.ID
		r.name = displayName(i.Member.Nick, i.Member.User)
		r.perms = i.Member.Permissions
	case i.User != nil:
		r.userID = i.User.ID
		r.name = displayName("", i.User)
	default:
		return nil
	}
	return r
}

func displayName(nick string, u *discordgo.User) string {
	switch {
	case nick != "":
		return nick
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}

// isClick reports whether the request is a button or select menu.
func (r *request) isClick() bool { return r.i.Type == discordgo.InteractionMessageComponent }

// userError is a refusal the user reads, privately, in their language.
type userError = table.Refusal

// refuse returns a userError for key.
func refuse(key msg, args ...any) error { return table.Refuse(key, args...) }

// fail answers a request that went wrong: refusals are told privately,
// anything else is logged and the user gets a short apology that says
// whether their change was kept.
func (r *request) fail(ctx context.Context, err error) {
	var ue *userError
	var text string
	switch {
	case errors.As(err, &ue):
		text = tr(r.lang, ue.Key, ue.Args...)
	case errors.Is(err, store.ErrConflict):
		text = tr(r.lang, locales.ErrTooLate)
	case errors.Is(err, engine.ErrGameOver):
		text = tr(r.lang, locales.ErrGameOver)
	case isDiscordCode(err, discordgo.ErrCodeMissingPermissions), isDiscordCode(err, discordgo.ErrCodeMissingAccess):
		r.log.Warn("missing permissions in channel", "channel", r.i.ChannelID, "err", err)
		text = tr(r.lang, locales.ErrMissingPermissions)
	case r.committed:
		r.log.Error("interaction failed after its change was kept", "err", err, "user", r.userID, "channel", r.i.ChannelID)
		text = tr(r.lang, locales.ErrInternal)
	default:
		r.log.Error("interaction failed", "err", err, "user", r.userID, "channel", r.i.ChannelID)
		text = tr(r.lang, locales.ErrNothingChanged)
	}
	r.replyPrivate(ctx, text)
}

// replyPrivate sends an ephemeral message: the response when the interaction
// is not answered yet, else a follow-up. A public "thinking…" (a deferred
// answer) cannot become private: it goes first, or it would stay in the
// channel.
func (r *request) replyPrivate(ctx context.Context, text string) {
	if r.deferred {
		if err := retryUnknown(ctx, func() error { return r.dc.InteractionResponseDelete(r.i, discordgo.WithContext(ctx)) }); err != nil {
			r.log.Warn("could not delete the deferred answer", "err", err, "interaction", r.i.ID)
		} else {
			r.deferred = false
		}
	}
	if !r.responded {
		err := r.respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral,
				AllowedMentions: &discordgo.MessageAllowedMentions{}},
		})
		if err == nil {
			return
		}
	}
	_, err := r.dc.FollowupMessageCreate(r.i, false, &discordgo.WebhookParams{Content: text, Flags: discordgo.MessageFlagsEphemeral,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx))
	if err != nil {
		r.log.Warn("could not reply", "err", err, "interaction", r.i.ID)
	}
}

// respond answers the interaction once. After a deferred answer the
// response's message replaces the "thinking…" one.
func (r *request) respond(resp *discordgo.InteractionResponse) error {
	if r.deferred {
		d := resp.Data
		if d == nil {
			d = &discordgo.InteractionResponseData{}
		}
		if d.Flags&v2Flags != 0 {
			if err := editOriginalV2(r.ctx, r.dc, r.i, d, false); err != nil {
				return fmt.Errorf("respond: %w", err)
			}
			r.deferred, r.responded = false, true
			return nil
		}
		edit := &discordgo.WebhookEdit{Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
			Files: d.Files, AllowedMentions: d.AllowedMentions}
		if _, err := r.dc.InteractionResponseEdit(r.i, edit, discordgo.WithContext(r.ctx)); err != nil {
			return fmt.Errorf("respond: %w", err)
		}
		r.deferred, r.responded = false, true
		return nil
	}
	if r.responded {
		return fmt.Errorf("bot: interaction %s answered twice", r.i.ID)
	}
	if err := r.answer(resp); err != nil {
		return fmt.Errorf("respond: %w", err)
	}
	r.responded, r.answeredAt = true, time.Now()
	return nil
}

// isDiscordCode reports whether err is Discord's JSON error with code.
func isDiscordCode(err error, code int) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == code
}

// quote keeps user-chosen text from breaking Markdown.
func quote(s string) string { return table.Quote(s) }
