package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
)

// The tournament's subcommands: /malefiz tournament new and standings.
func tournamentSubcommands(b *Bot) []subcommand {
	two, one, zero := 2.0, 1.0, 0.0
	return []subcommand{
		{name: "new", desc: locales.CmdTournamentNew, run: b.cmdTournamentNew, options: []*discordgo.ApplicationCommandOption{
			requiredString("name", locales.OptTournamentName),
			stringOption("format", locales.OptFormat, formatChoices()),
			intOption("table-size", locales.OptTableSize, &two, 4),
			intOption("rounds", locales.OptRounds, &one, 31),
			stringOption("turn-timeout", locales.OptTurnTimeout, timeoutChoices()),
			stringOption("start-in", locales.OptStartIn, timeoutChoices()),
			boolOption("rated", locales.OptRated),
			boolOption("computers", locales.OptComputers),
			intOption("forfeits", locales.OptForfeits, &zero, 10),
			stringOption("roll", locales.OptRoll, rollChoices()),
			boolOption("six-again", locales.OptSixAgain),
			boolOption("safe-row-2", locales.OptSafeRow2),
		}},
		{name: "standings", desc: locales.CmdTournamentStandings, run: b.cmdTournamentStandings},
		{name: "remove", desc: locales.CmdTournamentRemove, run: b.cmdTournamentRemove, options: []*discordgo.ApplicationCommandOption{
			requiredUser("player", locales.OptPlayer),
		}},
		{name: "pause", desc: locales.CmdTournamentPause, run: b.onTournament(func(options) game.TournamentAction { return game.TournamentPause{} })},
		{name: "resume", desc: locales.CmdTournamentResume, run: b.onTournament(func(options) game.TournamentAction { return game.TournamentPause{Resume: true} })},
	}
}

// requiredString is a required string option.
func requiredString(name string, desc msg) *discordgo.ApplicationCommandOption {
	o := stringOption(name, desc, nil)
	o.Required = true
	o.MaxLength = table.MaxTournamentName
	return o
}

// requiredUser is a required user option.
func requiredUser(name string, desc msg) *discordgo.ApplicationCommandOption {
	o := userOption(name, desc)
	o.Required = true
	return o
}

// formatChoices are the tournament formats as an option's choices.
func formatChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, f := range []string{"swiss", "round-robin", "knockout"} {
		key := locales.Key("tour.format." + f)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: tr("en", key), NameLocalizations: localizations(key), Value: f})
	}
	return out
}

// cmdTournamentNew opens a tournament's sign-up in the channel, answered
// with its card.
func (b *Bot) cmdTournamentNew(ctx context.Context, r *request, o options) error {
	timeout, err := game.ParseTimeout(o.string("turn-timeout", ""))
	if err != nil {
		return err
	}
	setup := malefiz.TournamentSetup{Format: o.string("format", "swiss"), TableSize: o.int("table-size", 4),
		Rounds: o.int("rounds", 0), TurnTimeout: timeout, Rated: o.bool("rated", false),
		Computers: o.bool("computers", false), ForfeitLimit: o.int("forfeits", 0),
		Rules: malefiz.HouseRules{Roll: o.string("roll", ""), SixAgain: o.bool("six-again", b.games.Defaults().SixAgain),
			SafeRow2: o.bool("safe-row-2", b.games.Defaults().SafeRow2)}}
	if in := o.string("start-in", ""); in != "" {
		d, err := time.ParseDuration(in)
		if err != nil {
			return refuse(locales.ErrBadTimeout)
		}
		setup.StartAt = b.now().Add(d)
	}
	out, err := b.games.OpenTournament(ctx, game.NewTournament{Guild: r.i.GuildID, Channel: r.i.ChannelID, User: actor(r),
		Lang: r.guildLang, Name: o.string("name", ""), Setup: setup, Via: via(r)})
	if err != nil {
		return err
	}
	if out.Reply == nil {
		return nil
	}
	return r.reply(out.Reply, b.boards.file)
}

// cmdTournamentStandings shows the channel's tournament as it stands,
// privately.
func (b *Bot) cmdTournamentStandings(ctx context.Context, r *request, _ options) error {
	reply, err := b.games.Standings(ctx, r.i.GuildID, r.i.ChannelID)
	if err != nil {
		return err
	}
	return r.reply(reply, b.boards.file)
}

// onTournament is the run of a host's subcommand on the channel's
// tournament: act says what it asks, from the options.
func (b *Bot) onTournament(act func(options) game.TournamentAction) runFunc {
	return func(ctx context.Context, r *request, o options) error {
		t, err := b.games.ChannelTournament(ctx, r.i.GuildID, r.i.ChannelID)
		if err != nil {
			return err
		}
		out, err := b.games.ChangeTournament(ctx, game.TournamentCommand{Tournament: t.ID, User: actor(r),
			Guild: r.i.GuildID, Channel: r.i.ChannelID, Action: act(o)})
		if err != nil {
			return err
		}
		r.committed = out.Committed
		return r.reply(out.Reply, b.boards.file)
	}
}

// cmdTournamentRemove takes a player off the channel's tournament: off
// the sign-up, or withdrawn once it runs (the host).
func (b *Bot) cmdTournamentRemove(ctx context.Context, r *request, o options) error {
	user, ok := o.user("player")
	if !ok {
		return refuse(locales.ErrUnknownCommand)
	}
	return b.onTournament(func(options) game.TournamentAction { return game.TournamentRemove{User: user} })(ctx, r, o)
}

// tournamentClick answers a click on a tournament's card: the custom ID
// names the tournament, which must be the channel's (a forged button
// changes nothing and is refused privately).
func (b *Bot) tournamentClick(ctx context.Context, r *request, id CustomID) error {
	var act game.TournamentAction
	switch id.Action {
	case table.ActTourJoin:
		act = game.TournamentJoin{}
	case table.ActTourLeave:
		act = game.TournamentLeave{}
	case table.ActTourStart:
		act = game.TournamentStart{}
	case table.ActTourCancel:
		act = game.TournamentCancel{}
	case table.ActTourComputer:
		act = game.TournamentAddComputer{}
	case table.ActTourClose:
		act = game.TournamentCloseSignUp{}
	default:
		return refuse(locales.ErrUnknownButton)
	}
	out, err := b.games.ChangeTournament(ctx, game.TournamentCommand{Tournament: id.Game, User: actor(r),
		Guild: r.i.GuildID, Channel: r.i.ChannelID, Action: act})
	if err != nil {
		return err
	}
	r.committed = out.Committed
	if out.Reply == nil {
		return nil
	}
	return r.reply(out.Reply, b.boards.file)
}

// isTournamentAction reports whether a is a tournament card's.
func isTournamentAction(a Action) bool {
	switch a {
	case table.ActTourJoin, table.ActTourLeave, table.ActTourStart, table.ActTourCancel, table.ActTourComputer, table.ActTourClose:
		return true
	}
	return false
}
