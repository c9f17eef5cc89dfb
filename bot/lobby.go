package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/game"
)

// levelChoices are the computer levels offered to players.
func levelChoices() []*discordgo.ApplicationCommandOptionChoice {
	return choicesOf(game.LevelChoices())
}

// choicesOf are the choices of a lobby option as a command option's.
func choicesOf(cs []game.LobbyChoice) []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(cs))
	for _, c := range cs {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: tr("en", c.Label), NameLocalizations: localizations(c.Label), Value: c.Value})
	}
	return out
}

// lobbyOptions are the options of a new lobby (game.LobbyFields) as
// /malefiz new's.
func lobbyOptions() []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, f := range game.LobbyFields() {
		switch f.Kind {
		case game.Int:
			low := float64(f.Min)
			out = append(out, intOption(f.Name, f.Desc, &low, float64(f.Max)))
		case game.Bool:
			out = append(out, boolOption(f.Name, f.Desc))
		default:
			out = append(out, stringOption(f.Name, f.Desc, choicesOf(f.Choices)))
		}
	}
	return out
}

// cmdNew opens a lobby in the channel, answered with its message.
func (b *Bot) cmdNew(ctx context.Context, r *request, o options) error {
	values := map[string]any{}
	for name, opt := range o {
		values[name] = opt.Value
	}
	out, err := b.games.Open(ctx, game.NewLobby{Guild: r.i.GuildID, Channel: r.i.ChannelID, User: actor(r), Lang: r.guildLang,
		Threads: canMakeThreads(r.i), Values: values, Via: via(r)})
	if err != nil {
		return err
	}
	return b.answerAndDeliver(ctx, r, out)
}

// threadPermissions are what the bot needs to play a game in a thread.
const threadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// canMakeThreads reports whether the bot may start a thread where i was
// invoked and play in it: the app's permissions there include both. (In a
// thread, starting one fails and the game stays where it was made.)
func canMakeThreads(i *discordgo.Interaction) bool {
	return i.AppPermissions&threadPermissions == threadPermissions
}

// hosted accepts the games userID hosts.
func hosted(userID string) func(*malefiz.Game) bool {
	return func(sg *malefiz.Game) bool { return sg.HostID == userID }
}

// lobby accepts the games still in their lobby.
func lobby(sg *malefiz.Game) bool { return sg.Status == malefiz.StatusLobby }

// rematch answers the Rematch button of a finished game's result (see
// game.Service.Rematch).
func (b *Bot) rematch(ctx context.Context, r *request, oldID int64) error {
	out, err := b.games.Rematch(ctx, game.Rematch{Of: oldID, Guild: r.i.GuildID, Channel: r.i.ChannelID, User: actor(r), Via: via(r)})
	if err != nil {
		return err
	}
	return b.answerAndDeliver(ctx, r, out)
}
