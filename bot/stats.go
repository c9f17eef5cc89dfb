package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

const (
	// leaderboardPage is how many lines a leaderboard page shows.
	leaderboardPage = 10
	// leaderboardMinGames is how many games a player needs to be ranked.
	leaderboardMinGames = 3
	// historyLength is how many games /malefiz history lists.
	historyLength = 10
	// recentPeriod is the leaderboard's short period.
	recentPeriod = 30 * 24 * time.Hour
	// statsColor is the accent of the statistics' answers.
	statsColor = 0xE8B923
	// ratingFileName is the rating chart's attachment.
	ratingFileName = "rating.png"
)

// extraSubcommands are the statistics and settings subcommands.
func extraSubcommands(p *panel) []subcommand {
	minPage, minGame := 1.0, 1.0
	periods := []*discordgo.ApplicationCommandOptionChoice{
		{Name: tr("en", locales.PeriodAll), NameLocalizations: localizations(locales.PeriodAll), Value: "all"},
		{Name: tr("en", locales.Period30d), NameLocalizations: localizations(locales.Period30d), Value: "30d"},
	}
	timeouts := timeoutChoices()
	return []subcommand{
		{name: "leaderboard", desc: locales.CmdLeaderboard, run: p.cmdLeaderboard, options: []*discordgo.ApplicationCommandOption{
			stringOption("period", locales.OptPeriod, periods),
			intOption("page", locales.OptPage, &minPage, 1000),
		}},
		{name: "stats", desc: locales.CmdStats, run: p.cmdStats, options: []*discordgo.ApplicationCommandOption{
			userOption("user", locales.OptUser),
		}},
		{name: "history", desc: locales.CmdHistory, run: p.cmdHistory},
		{name: "replay", desc: locales.CmdReplay, run: p.cmdReplay, options: []*discordgo.ApplicationCommandOption{
			func() *discordgo.ApplicationCommandOption {
				o := intOption("game", locales.OptGame, &minGame, table.MaxGameID)
				o.Required = true
				return o
			}(),
		}, heavy: true},
		{name: "settings", desc: locales.CmdSettings, run: p.cmdSettings, options: []*discordgo.ApplicationCommandOption{
			stringOption("turn-timeout", locales.OptDefaultTimeout, timeouts),
			boolOption("reminders", locales.OptReminders),
			boolOption("threads", locales.OptThreads),
			stringOption("roll", locales.OptRoll, rollChoices()),
			boolOption("chances", locales.OptChances),
			boolOption("hints", locales.OptHints),
		}},
	}
}

// playerLabel names a leaderboard or stats player.
func playerLabel(lang string, player, name string, computer bool) string {
	if computer {
		level := strings.TrimPrefix(player, "ai:")
		return "🤖 " + tr(lang, locales.Computer, tr(lang, levelName(level)))
	}
	return quote(name)
}

func (p *panel) cmdLeaderboard(ctx context.Context, r *request, o options) error {
	var since time.Time
	period := tr(r.guildLang, locales.PeriodAll)
	if o.string("period", "all") == "30d" {
		since = p.now().Add(-recentPeriod)
		period = tr(r.guildLang, locales.Period30d)
	}
	page := max(o.int("page", 1), 1)
	entries, total, err := p.db.Leaderboard(ctx, r.i.GuildID, since, leaderboardMinGames, (page-1)*leaderboardPage, leaderboardPage)
	if err != nil {
		return err
	}
	lang := r.guildLang
	medals := []string{"🥇", "🥈", "🥉"}
	line := func(e store.LeaderboardEntry) string {
		rank := strconv.Itoa(e.Rank) + "."
		if e.Rank <= len(medals) {
			rank = medals[e.Rank-1]
		}
		return tr(lang, locales.LeaderLine, rank, playerLabel(lang, e.Player, e.Name, e.Computer), int(e.Rating+0.5),
			tr(lang, locales.LeaderGames, e.Games), tr(lang, locales.LeaderWins, e.Wins), formatPercent(lang, e.WinRate))
	}
	var lines []string
	mine := false
	for _, e := range entries {
		l := line(e)
		if e.Player == r.userID {
			l, mine = "**"+l+"**", true
		}
		lines = append(lines, l)
	}
	if len(entries) == 0 {
		lines = append(lines, tr(lang, locales.LeaderEmpty, leaderboardMinGames))
	}
	if !mine {
		if e, err := p.db.LeaderboardRank(ctx, r.i.GuildID, since, leaderboardMinGames, r.userID); err == nil {
			lines = append(lines, "…", "**"+line(e)+"**")
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	pages := max((total+leaderboardPage-1)/leaderboardPage, 1)
	embed := &discordgo.MessageEmbed{
		Title:       tr(lang, locales.LeaderTitle, period),
		Description: strings.Join(lines, "\n"),
		Color:       statsColor,
		Footer:      &discordgo.MessageEmbedFooter{Text: tr(lang, locales.LeaderFooter, page, pages, leaderboardMinGames)},
	}
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: &discordgo.MessageAllowedMentions{}}})
}

func (p *panel) cmdStats(ctx context.Context, r *request, o options) error {
	player, name := r.userID, r.name
	if id, ok := o.user("user"); ok {
		player, name = id, id
		if res := r.i.ApplicationCommandData().Resolved; res != nil && res.Users[id] != nil {
			name = displayName("", res.Users[id])
			if m := res.Members[id]; m != nil && m.Nick != "" {
				name = m.Nick
			}
		}
	}
	lang := r.guildLang
	s, err := p.db.PlayerStats(ctx, r.i.GuildID, player)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(locales.StatsNone, quote(name))
	} else if err != nil {
		return err
	}
	streak := tr(lang, locales.StatsStreakNone)
	switch {
	case s.Streak > 0:
		streak = tr(lang, locales.StatsStreakWins, s.Streak)
	case s.Streak < 0:
		streak = tr(lang, locales.StatsStreakLosses, -s.Streak)
	}
	// A card of Components V2, as the turn's is: the figures one a line
	// (an embed's inline fields stack on a phone anyway), then the rating
	// chart in a media gallery, whose item carries the chart in words for
	// a screen reader (an embed's image carries no alt text).
	lines := []string{"### " + tr(lang, locales.StatsTitle, playerLabel(lang, s.Player, name, s.Computer))}
	line := func(k msg, v string) { lines = append(lines, tr(lang, locales.StatsLine, tr(lang, k), v)) }
	dash := func(n float64, ok bool) string {
		if !ok {
			return "—"
		}
		return formatDecimal(lang, n)
	}
	fav := "—"
	if s.FavoriteColor != "" {
		for c := range table.Colors {
			if table.Colors[c].String() == s.FavoriteColor {
				fav = table.ColorLabel(lang, table.Colors[c])
			}
		}
	}
	line(locales.StatsRating, ratingValue(lang, s))
	line(locales.StatsGames, strconv.Itoa(s.Games))
	line(locales.StatsWins, fmt.Sprintf("%d (%s)", s.Wins, formatPercent(lang, s.WinRate)))
	line(locales.StatsCaptures, fmt.Sprintf("%d / %d", s.Captures, s.Captured))
	line(locales.StatsBarricades, strconv.Itoa(s.Barricades))
	line(locales.StatsAvgTurns, dash(s.AvgTurnsToWin, s.Wins > 0))
	fastest := "—"
	if s.Wins > 0 {
		fastest = strconv.Itoa(s.FastestWin) // a count of turns, never a decimal
	}
	line(locales.StatsFastest, fastest)
	line(locales.StatsStreak, streak)
	line(locales.StatsColor, fav)
	if s.GradedGames > 0 {
		line(locales.StatsAccuracy, tr(lang, locales.StatsAccuracyValue, formatPercent(lang, s.Accuracy/100), s.GradedGames))
	}
	gold := statsColor
	card := discordgo.Container{AccentColor: &gold, Components: []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: strings.Join(lines, "\n")}}}
	data := &discordgo.InteractionResponseData{Flags: v2Flags, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if len(s.History) > 0 {
		points := make([]render.RatingPoint, 0, len(s.History)+1)
		for _, p := range s.History {
			points = append(points, render.RatingPoint{At: p.At, Rating: p.Rating})
		}
		o := render.RatingChartOptions{Label: chartDates(lang)}
		if everyGame(s) {
			o.Start = store.InitialRating // every game is drawn: the curve starts where the player did
		}
		if png, err := render.RatingChartWith(points, o); err == nil {
			data.Files = []*discordgo.File{{Name: ratingFileName, ContentType: "image/png", Reader: bytes.NewReader(png)}}
			card.Components = append(card.Components, gallery("attachment://"+ratingFileName, ratingAlt(lang, altPlayer(lang, s, name), s)))
		} else {
			p.log.Warn("rating chart", "err", err)
		}
	}
	data.Components = []discordgo.MessageComponent{card}
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
}

// ratingValue is a player's rating with their rank on the leaderboard, or,
// below the leaderboard's minimum of games, how many games they still
// need: the leaderboard ranks nobody below it, and the stats say so too.
func ratingValue(lang string, s *store.PlayerStats) string {
	rating := strconv.Itoa(int(s.Rating + 0.5))
	if s.Games < leaderboardMinGames {
		return rating + " (" + tr(lang, locales.StatsUnranked, leaderboardMinGames-s.Games) + ")"
	}
	return fmt.Sprintf("%s (#%d)", rating, s.Rank)
}

func (p *panel) cmdHistory(ctx context.Context, r *request, _ options) error {
	games, err := p.db.RecentGames(ctx, r.i.GuildID, historyLength)
	if err != nil {
		return err
	}
	lang := r.guildLang
	var lines []string
	for _, g := range games {
		w := g.Winner()
		var others []string
		for _, res := range g.Results {
			if !res.Won {
				others = append(others, playerLabel(lang, res.Player, res.Name, res.Computer))
			}
		}
		win := playerLabel(lang, w.Player, w.Name, w.Computer)
		if w.Forfeit {
			win += " " + tr(lang, locales.HistoryForfeit)
		}
		lines = append(lines, tr(lang, locales.HistoryLine, g.GameID, win, strings.Join(others, ", "), g.Turns, g.FinishedAt.Unix()))
	}
	if len(lines) == 0 {
		lines = append(lines, tr(lang, locales.HistoryEmpty))
	}
	embed := &discordgo.MessageEmbed{Title: tr(lang, locales.HistoryTitle), Description: strings.Join(lines, "\n"), Color: statsColor}
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: &discordgo.MessageAllowedMentions{}}})
}

// cmdReplay answers with an animated GIF of a game of this server, replayed
// from its event log. Drawing a long game takes a moment: the route answers
// "thinking…" first and draws at most a few at once (see subcommand.heavy).
// A finished game of this channel (or of this thread) comes with Review on
// the board where the bot serves its Activity: the board opened here lists
// it among the channel's reviews.
func (p *panel) cmdReplay(ctx context.Context, r *request, o options) error {
	id := int64(o.int("game", 0))
	sg, err := p.db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && sg.GuildID != r.i.GuildID) {
		// A number typed in the box: the game never was, here.
		return refuse(locales.ErrUnknownGame, id)
	} else if err != nil {
		return err
	}
	events, err := p.db.Events(ctx, id)
	if err != nil {
		return err
	}
	g, err := Replay(sg, events)
	if err != nil {
		return err
	}
	if g == nil {
		return refuse(locales.ErrNotStarted)
	}
	var buf bytes.Buffer
	if err := render.ReplayGIF(&buf, render.ReplayScenes(g), nil); err != nil {
		return err
	}
	// Components V2, as the stats: a media gallery item carries the
	// animation in words for a screen reader, which a plain file cannot.
	lang := r.guildLang
	file := fmt.Sprintf("malefiz-%d.gif", id)
	components := []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: tr(lang, locales.ReplayDone, id, g.TurnNumber())},
		gallery("attachment://"+file, table.ReplayAlt(lang, sg, g)),
	}
	if here := sg.ChannelID == r.i.ChannelID || (sg.ThreadID != "" && sg.ThreadID == r.i.ChannelID); p.activity && here &&
		sg.Status == malefiz.StatusFinished {
		components = append(components, componentsOf(table.Message{Rows: []table.Row{{Buttons: []table.Button{table.BoardReviewButton(lang, id)}}}})...)
	}
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: v2Flags, AllowedMentions: &discordgo.MessageAllowedMentions{},
			Components: components,
			Files:      []*discordgo.File{{Name: file, ContentType: "image/gif", Reader: &buf}}}})
}

// Replay rebuilds the whole game from a stored game and its event log (see
// table.Replay).
func Replay(sg *malefiz.Game, events []malefiz.Event) (*engine.Game, error) {
	return table.Replay(sg, events)
}
