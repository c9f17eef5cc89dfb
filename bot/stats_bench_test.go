package bot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// answerRecorder is a Discord that only takes interaction responses.
type answerRecorder struct {
	Discord
	last *discordgo.InteractionResponse
}

func (a *answerRecorder) InteractionRespond(_ *discordgo.Interaction, r *discordgo.InteractionResponse, _ ...discordgo.RequestOption) error {
	a.last = r
	return nil
}

// statsBot returns a bot whose database holds games finished games of
// player "1" (Ann) against "2" (Ben) in guild "1", one a day from
// statsStart, two of three won by Ann; the store rates them.
func statsBot(b testing.TB, games int) (*Bot, *answerRecorder) {
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "t.db"))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	db.Rate = table.Elo // the bot's rating rule, as serve sets it
	day := 0
	db.Now = func() time.Time { return statsStart.AddDate(0, 0, day) }
	bot := New(Config{Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	rec := &answerRecorder{}
	bot.dc = rec
	for i := range games {
		g := &malefiz.Game{GuildID: "1", ChannelID: fmt.Sprint("c", i), HostID: "1", Status: malefiz.StatusRunning,
			Seats: []malefiz.Seat{{Color: "red", UserID: "1", Name: "Ann"}, {Color: "green", UserID: "2", Name: "Ben"}}}
		if err := db.CreateGame(context.Background(), g); err != nil {
			b.Fatal(err)
		}
		res := []malefiz.Result{
			{Player: "1", Name: "Ann", Color: "red", Won: i%3 != 0, Turns: 30 + i%7, GameTurns: 60, Captures: i % 4},
			{Player: "2", Name: "Ben", Color: "green", Won: i%3 == 0, Turns: 30, GameTurns: 60},
		}
		if err := db.FinishGame(context.Background(), g, res); err != nil {
			b.Fatal(err)
		}
		day++
	}
	return bot, rec
}

// statsStart is the day statsBot's first game finishes.
var statsStart = time.Date(2025, time.March, 14, 20, 0, 0, 0, time.UTC)

// commandRequest is a /malefiz command of user "1" in guild "1", answered
// to rec.
func commandRequest(rec *answerRecorder) *request {
	i := &discordgo.Interaction{
		ID: "9", GuildID: "1", ChannelID: "c", Type: discordgo.InteractionApplicationCommand,
		Data: discordgo.ApplicationCommandInteractionData{Name: CommandName}}
	return &request{userID: "1", name: "Ann", lang: "en", guildLang: "en", i: i, dc: rec,
		answer: func(r *discordgo.InteractionResponse) error { return rec.InteractionRespond(i, r) }}
}

// BenchmarkStatsAnswer is /malefiz stats from the query to the response,
// rating chart of 100 games included. The query's cost with 100,000
// finished games in the guild is store's BenchmarkPlayerStats.
func BenchmarkStatsAnswer(b *testing.B) {
	bot, rec := statsBot(b, 120)
	b.ResetTimer()
	for b.Loop() {
		if err := bot.panel.cmdStats(context.Background(), commandRequest(rec), options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(rec.last.Data.Files) != 1 {
		b.Fatal("no chart in the answer")
	}
}

// BenchmarkLeaderboardAnswer is /malefiz leaderboard from the query to the
// response; store's BenchmarkLeaderboard measures the query on 100,000 games.
func BenchmarkLeaderboardAnswer(b *testing.B) {
	bot, rec := statsBot(b, 20)
	b.ResetTimer()
	for b.Loop() {
		if err := bot.panel.cmdLeaderboard(context.Background(), commandRequest(rec), options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(rec.last.Data.Embeds) != 1 {
		b.Fatal("no leaderboard embed")
	}
}
