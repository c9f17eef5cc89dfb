package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/game"
)

// CommandName is the bot's one slash command.
const CommandName = "malefiz"

// Permissions the bot needs in a channel: View Channel, Send Messages, Embed
// Links, Attach Files, Read Message History (to find a turn card it sent as
// a follow-up when Discord's answer was lost; see package outbox), Create
// Public Threads, Send Messages in Threads.
const Permissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory |
	threadPermissions

// InviteURL returns the URL that adds the bot with its permissions.
func InviteURL(clientID string) string {
	return fmt.Sprintf("https://discord.com/oauth2/authorize?client_id=%s&scope=bot%%20applications.commands&permissions=%d",
		clientID, Permissions)
}

// runFunc runs a subcommand.
type runFunc func(ctx context.Context, r *request, opts options) error

// subcommand is one /malefiz subcommand.
type subcommand struct {
	name    string
	desc    msg
	options []*discordgo.ApplicationCommandOption
	run     runFunc
	// heavy answers take a while (a replay GIF): they answer "thinking…"
	// first and run a few at a time.
	heavy bool
	// group, when set, makes this a group of subcommands (/malefiz
	// tournament new): run is unused.
	group []subcommand
}

// timeoutChoices are the turn timeouts as the choices of a command option.
func timeoutChoices() []*discordgo.ApplicationCommandOptionChoice {
	return choicesOf(game.TimeoutChoices)
}

// rollChoices are the roll modes as the choices of a command option.
func rollChoices() []*discordgo.ApplicationCommandOptionChoice { return choicesOf(game.RollChoices) }

func gameSubcommands(b *Bot) []subcommand {
	return []subcommand{
		{name: "new", desc: locales.CmdNew, run: b.cmdNew, options: lobbyOptions()},
		{name: "join", desc: locales.CmdJoin, run: b.onGame(inLobby, joinGame)},
		{name: "leave", desc: locales.CmdLeave, run: b.onGame(seatedIn, leaveGame)},
		{name: "start", desc: locales.CmdStart, run: b.onGame(lobbyOfBy, startGame)},
		{name: "board", desc: locales.CmdBoard, run: b.cmdBoard, options: []*discordgo.ApplicationCommandOption{
			boolOption("text", locales.OptText),
		}},
		{name: "resign", desc: locales.CmdResign, run: b.onGame(seatedIn, resignGame)},
		{name: "cancel", desc: locales.CmdCancel, run: b.onGame(hostedBy, cancelGame)},
		{name: "games", desc: locales.CmdGames, run: b.panel.cmdGames},
		{name: "notify", desc: locales.CmdNotify, run: b.panel.cmdNotify, options: []*discordgo.ApplicationCommandOption{
			boolOption("dm", locales.OptDm),
			stringOption("ping", locales.OptPing, pingChoices()),
		}},
		{name: "tournament", desc: locales.CmdTournament, group: tournamentSubcommands(b)}, // tournament.go
		{name: "rules", desc: locales.CmdRules, run: say(locales.TextRules)},
		{name: "help", desc: locales.CmdHelp, run: say(locales.TextHelp, locales.TextMarks)},
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
	for _, s := range b.subcommands {
		opts = append(opts, s.option())
	}
	dmAllowed := false
	descs := localizations(locales.CmdMalefiz)
	cmds := []*discordgo.ApplicationCommand{{
		Name: CommandName, Description: tr("en", locales.CmdMalefiz), DescriptionLocalizations: &descs,
		Options: opts, DMPermission: &dmAllowed,
		Contexts: &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
	}}
	localizeNames(cmds)
	return cmds
}

// RegisterCommands overwrites the bot's commands: per guild for guildIDs (they
// update at once), else globally.
func (b *Bot) RegisterCommands(appID string, guildIDs []string) error {
	cmds := b.Commands()
	if len(guildIDs) == 0 && b.activity {
		return registerWithEntryPoint(b.dc, appID, cmds) // activity.go
	}
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

// option is the subcommand, or group of subcommands, as Discord takes it.
func (s subcommand) option() *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionSubCommand, Name: s.name,
		Description: tr("en", s.desc), DescriptionLocalizations: localizations(s.desc), Options: s.options,
	}
	if s.group != nil {
		o.Type, o.Options = discordgo.ApplicationCommandOptionSubCommandGroup, nil
		for _, sub := range s.group {
			o.Options = append(o.Options, sub.option())
		}
	}
	return o
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
	if data.Name != CommandName || len(data.Options) != 1 {
		return refuse(locales.ErrUnknownCommand)
	}
	if r.i.GuildID == "" {
		return refuse(locales.ErrGuildOnly)
	}
	sub, subs := data.Options[0], b.subcommands
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
		// A group's one subcommand: /malefiz tournament new.
		var group []subcommand
		for _, s := range subs {
			if s.name == sub.Name && s.group != nil {
				group = s.group
			}
		}
		if group == nil || len(sub.Options) != 1 {
			return refuse(locales.ErrUnknownCommand)
		}
		sub, subs = sub.Options[0], group
	}
	if sub.Type != discordgo.ApplicationCommandOptionSubCommand {
		return refuse(locales.ErrUnknownCommand)
	}
	opts := options{}
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	for _, s := range subs {
		if s.name == sub.Name && s.group == nil {
			h := func(ctx context.Context, r *request) error { return s.run(ctx, r, opts) }
			if s.heavy {
				h = deferred(bounded(b.heavy, h))
			}
			return h(ctx, r)
		}
	}
	return refuse(locales.ErrUnknownCommand)
}

// askResign answers /malefiz resign (or leave) in a running game privately
// with the choice: Resign, or Keep playing. Nothing changes until Resign.
func askResign(r *request, sg *malefiz.Game) error {
	if !game.Seated(r.userID)(sg) {
		return refuse(locales.ErrNotInGame)
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: sg.ID}.String() }
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignAsk, sg.ID), Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: tr(r.lang, locales.ButtonResign), Style: discordgo.DangerButton, CustomID: cid(ActResign)},
				discordgo.Button{Label: tr(r.lang, locales.ButtonKeep), Style: discordgo.SecondaryButton, CustomID: cid(ActKeep)},
			}}}}})
}

// keepPlaying answers Keep playing: the question goes, nothing changes.
func keepPlaying(r *request) error {
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignKept), Components: []discordgo.MessageComponent{},
			Embeds: []*discordgo.MessageEmbed{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}})
}
