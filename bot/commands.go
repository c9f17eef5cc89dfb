package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// CommandName is the bot's one slash command.
const CommandName = "malefiz"

// Permissions the bot needs in a channel: View Channel, Send Messages, Embed
// Links, Attach Files, Create Public Threads, Send Messages in Threads.
const Permissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | threadPermissions

// InviteURL returns the URL that adds the bot with its permissions.
func InviteURL(clientID string) string {
	return fmt.Sprintf("https://discord.com/oauth2/authorize?client_id=%s&scope=bot%%20applications.commands&permissions=%d",
		clientID, Permissions)
}

// turnTimeoutChoices are the turn timeouts offered by /malefiz new and settings.
var turnTimeoutChoices = []struct {
	value string
	label msg
}{
	{"5m", msgTimeout5m}, {"15m", msgTimeout15m}, {"1h", msgTimeout1h}, {"6h", msgTimeout6h},
	{"12h", msgTimeout12h}, {"24h", msgTimeout24h}, {"72h", msgTimeout3d}, {"168h", msgTimeout7d},
}

// subcommand is one /malefiz subcommand.
type subcommand struct {
	name    string
	desc    msg
	options []*discordgo.ApplicationCommandOption
	run     func(b *Bot, ctx context.Context, r *request, opts options) error
	// heavy answers take a while (a replay GIF): they answer "thinking…"
	// first and run a few at a time.
	heavy bool
}

// timeoutChoices are the turn timeouts as the choices of a command option.
func timeoutChoices() []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(turnTimeoutChoices))
	for _, c := range turnTimeoutChoices {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{
			Name: tr("en", c.label), NameLocalizations: localizations(c.label), Value: c.value})
	}
	return out
}

// rollChoices are the roll modes as the choices of a command option.
func rollChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, c := range []struct {
		value string
		label msg
	}{{rollAuto, msgRollAuto}, {rollButton, msgRollButtonOpt}} {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: tr("en", c.label), NameLocalizations: localizations(c.label), Value: c.value})
	}
	return out
}

func subcommands() []subcommand {
	levels := levelChoices()
	timeouts := timeoutChoices()
	minSeats, minBots := 2.0, 0.0
	return []subcommand{
		{name: "new", desc: msgCmdNew, run: (*Bot).cmdNew, options: []*discordgo.ApplicationCommandOption{
			intOption("seats", msgOptSeats, &minSeats, 4),
			intOption("bots", msgOptBots, &minBots, 3),
			stringOption("level", msgOptLevel, levels),
			stringOption("turn-timeout", msgOptTurnTimeout, timeouts),
			stringOption("roll", msgOptRoll, rollChoices()),
			boolOption("six-again", msgOptSixAgain),
			boolOption("safe-row-2", msgOptSafeRow2),
		}},
		{name: "join", desc: msgCmdJoin, run: (*Bot).cmdJoin},
		{name: "leave", desc: msgCmdLeave, run: (*Bot).cmdLeave},
		{name: "start", desc: msgCmdStart, run: (*Bot).cmdStart},
		{name: "board", desc: msgCmdBoard, run: (*Bot).cmdBoard},
		{name: "resign", desc: msgCmdResign, run: (*Bot).cmdResign},
		{name: "cancel", desc: msgCmdCancel, run: (*Bot).cmdCancel},
		{name: "games", desc: msgCmdGames, run: (*Bot).cmdGames},
		{name: "notify", desc: msgCmdNotify, run: (*Bot).cmdNotify, options: []*discordgo.ApplicationCommandOption{
			boolOption("dm", msgOptDM),
		}},
		{name: "rules", desc: msgCmdRules, run: (*Bot).cmdRules},
		{name: "help", desc: msgCmdHelp, run: (*Bot).cmdHelp},
	}
}

func intOption(name string, desc msg, min *float64, max float64) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name,
		Description: tr("en", desc), DescriptionLocalizations: localizations(desc), MinValue: min, MaxValue: max}
}

func stringOption(name string, desc msg, choices []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name,
		Description: tr("en", desc), DescriptionLocalizations: localizations(desc), Choices: choices}
}

func boolOption(name string, desc msg) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: name,
		Description: tr("en", desc), DescriptionLocalizations: localizations(desc)}
}

func userOption(name string, desc msg) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: name,
		Description: tr("en", desc), DescriptionLocalizations: localizations(desc)}
}

// Commands returns the application commands to register: /malefiz with its
// subcommands, guild-only, descriptions localized.
func (b *Bot) Commands() []*discordgo.ApplicationCommand {
	var opts []*discordgo.ApplicationCommandOption
	for _, s := range b.subcommands() {
		opts = append(opts, &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: s.name,
			Description: tr("en", s.desc), DescriptionLocalizations: localizations(s.desc), Options: s.options,
		})
	}
	dmAllowed := false
	descs := localizations(msgCmdMalefiz)
	cmds := []*discordgo.ApplicationCommand{{
		Name: CommandName, Description: tr("en", msgCmdMalefiz), DescriptionLocalizations: &descs,
		Options: opts, DMPermission: &dmAllowed,
		Contexts: &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
	}}
	localizeNames(cmds)
	return cmds
}

// subcommands returns every subcommand this bot offers, the statistics and
// settings ones included.
func (b *Bot) subcommands() []subcommand {
	return append(subcommands(), extraSubcommands()...)
}

// RegisterCommands overwrites the bot's commands: per guild for guildIDs (they
// update at once), else globally.
func (b *Bot) RegisterCommands(appID string, guildIDs []string) error {
	cmds := b.Commands()
	if len(guildIDs) == 0 {
		_, err := b.dc.ApplicationCommandBulkOverwrite(appID, "", cmds)
		return err
	}
	for _, g := range guildIDs {
		if _, err := b.dc.ApplicationCommandBulkOverwrite(appID, g, cmds); err != nil {
			return fmt.Errorf("register commands in guild %s: %w", g, err)
		}
	}
	return nil
}

// options are a subcommand's options by name.
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

func (o options) int(name string, def int) int {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionInteger {
		return int(v.IntValue())
	}
	return def
}

func (o options) string(name, def string) string {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionString {
		return v.StringValue()
	}
	return def
}

func (o options) bool(name string, def bool) bool {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionBoolean {
		return v.BoolValue()
	}
	return def
}

func (o options) user(name string) (string, bool) {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionUser {
		if id, ok := v.Value.(string); ok {
			return id, true
		}
	}
	return "", false
}

// command runs a /malefiz subcommand.
func (b *Bot) command(ctx context.Context, r *request) error {
	data := r.i.ApplicationCommandData()
	if data.Name != CommandName || len(data.Options) != 1 || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return refuse(msgUnknownCommand)
	}
	if r.i.GuildID == "" {
		return refuse(msgGuildOnly)
	}
	sub := data.Options[0]
	opts := options{}
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	for _, s := range b.subcommands() {
		if s.name == sub.Name {
			h := func(ctx context.Context, r *request) error { return s.run(b, ctx, r, opts) }
			if s.heavy {
				h = b.deferred(b.bounded(h))
			}
			return h(ctx, r)
		}
	}
	return refuse(msgUnknownCommand)
}
