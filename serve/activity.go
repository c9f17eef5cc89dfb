package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/store"
)

// activityConfig turns the Activity on in the bot's config when
// [discord] client_secret is set: its store watched by the Activity's hub
// (every commit reaches the pages that show its game), and the card's
// Play on the board button.
func (m *Main) activityConfig(cfg *bot.Config) {
	if m.Config.Discord.ClientSecret == "" {
		return
	}
	m.hub = activity.NewHub()
	cfg.Store = watchedStore{Store: cfg.Store, hub: m.hub}
	cfg.Activity = true
}

// watchedStore is the bot's store telling the Activity's hub of every game
// it commits: the Activity learns of a change where it is committed, by
// whatever path it came.
type watchedStore struct {
	bot.Store
	hub *activity.Hub
}

// Commit commits c and, once committed, wakes the watchers of its game.
func (s watchedStore) Commit(ctx context.Context, c *store.Commit) error {
	err := s.Store.Commit(ctx, c)
	if err == nil && c.Game != nil && c.Game.ID != 0 {
		s.hub.Changed(c.Game.ID)
	}
	return err
}

// startActivity makes the Activity's server once the bot runs: its client
// ID is the application's, read from Discord.
func (m *Main) startActivity(client *http.Client) error {
	if m.hub == nil {
		return nil
	}
	app, err := m.rest.Application("@me")
	if err != nil {
		return fmt.Errorf("read the application from Discord for the Activity: %w", err)
	}
	proxies, err := activity.ParseProxies(m.Config.HTTP.TrustedProxies)
	if err != nil {
		return err // Validate said so already
	}
	cfg := activity.Config{TrustedProxies: proxies,
		Games: m.bot.Games(), Hub: m.hub, Member: m.guildMember, Channel: m.channelGuild, ClientID: app.ID, ClientSecret: m.Config.Discord.ClientSecret,
		APIURL: m.Config.Discord.APIURL, HTTPClient: client, Logger: m.Logger,
	}
	if m.ActivityOptions != nil {
		m.ActivityOptions(&cfg)
	}
	m.activity = activity.New(cfg)
	return nil
}

// guildMember asks Discord, with the bot's token, whether userID is a
// member of guildID: GET /guilds/{guild}/members/{user} answers 404
// Unknown Member (10007) for one who is not, and Unknown Guild (10004)
// for a guild the bot is not in
// (https://discord.com/developers/docs/resources/guild#get-guild-member).
// It needs no privileged intent.
func (m *Main) guildMember(ctx context.Context, guildID, userID string) (bool, error) {
	_, err := m.rest.GuildMember(guildID, userID, discordgo.WithContext(ctx))
	var rest *discordgo.RESTError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound:
		return false, nil
	}
	return false, err
}

// channelGuild asks Discord, with the bot's token, for the guild of a
// channel and whether it is a thread
// (https://discord.com/developers/docs/resources/channel#get-channel).
func (m *Main) channelGuild(ctx context.Context, id string) (string, bool, error) {
	ch, err := m.rest.Channel(id, discordgo.WithContext(ctx))
	if err != nil {
		return "", false, err
	}
	return ch.GuildID, ch.IsThread(), nil
}

// Activity returns the Activity's server, nil when it is off.
func (m *Main) Activity() http.Handler {
	if m.activity == nil {
		return nil
	}
	return m.activity
}

// listenGames passes the changes other replicas commit (PostgreSQL
// LISTEN/NOTIFY) to the Activity's hub, so that a page connected here sees
// them, until ctx ends; it listens again a second after a lost connection.
// Without the Activity, or on SQLite (one process), it does nothing.
func (m *Main) listenGames(ctx context.Context) {
	if m.hub == nil {
		return
	}
	for ctx.Err() == nil {
		m.Logger.Debug("activity: listening to the other replicas' changes")
		err := m.db.ListenGames(ctx, m.bot.Games().Owner(), func(id int64) {
			m.Logger.Debug("activity: a change from another replica", "game", id)
			m.hub.Changed(id)
		})
		if errors.Is(err, store.ErrNoListen) {
			return
		}
		if err != nil {
			m.Logger.Warn("activity: listening to the other replicas", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
