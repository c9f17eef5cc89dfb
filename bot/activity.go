package bot

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// InteractionResponseLaunchActivity is Discord's LAUNCH_ACTIVITY callback:
// the client opens the app's Activity for the user who clicked (discordgo
// has no name for it).
const InteractionResponseLaunchActivity discordgo.InteractionResponseType = 12

// launchActivity answers Play on the board: Discord opens the Activity,
// which finds the game of the channel it is opened in.
func launchActivity(r *request) error {
	return r.respond(&discordgo.InteractionResponse{Type: InteractionResponseLaunchActivity})
}

// commandTypeEntryPoint is the type of the app's Entry Point command
// (PRIMARY_ENTRY_POINT), and entryPointLaunch its handler that lets
// Discord open the Activity itself (DISCORD_LAUNCH_ACTIVITY); discordgo
// names neither.
const (
	commandTypeEntryPoint = 4
	entryPointLaunch      = 2
)

// localizeEntryPoint is the registered Entry Point command raw with the
// bot's description and its translations where it has none, and the
// translations of "launch" when that is still its name: a name or a
// description given in the developer portal is kept as it is.
func localizeEntryPoint(raw json.RawMessage) any {
	var cmd map[string]any
	if json.Unmarshal(raw, &cmd) != nil {
		return raw
	}
	if d, _ := cmd["description"].(string); d == "" {
		cmd["description"] = tr(locales.Source, locales.ButtonBoard)
		cmd["description_localizations"] = localizations(locales.ButtonBoard)
	}
	if n, _ := cmd["name"].(string); n == "launch" {
		if l, _ := cmd["name_localizations"].(map[string]any); len(l) == 0 {
			cmd["name_localizations"] = localizations(nameKey("launch"))
		}
	}
	return cmd
}

// registerWithEntryPoint overwrites the global commands with cmds and the
// app's Entry Point command: Discord refuses a global overwrite that
// leaves it out once Activities are on. The one registered is kept as it
// is (the developer portal may have renamed it), given the translations it
// lacks (localizeEntryPoint); without one, the bot registers "launch", its
// name and description translated.
func registerWithEntryPoint(dc Discord, appID string, cmds []*discordgo.ApplicationCommand) error {
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	body, err := dc.RequestWithBucketID(http.MethodGet, endpoint, nil, endpoint)
	if err != nil {
		return fmt.Errorf("read the global commands: %w", err)
	}
	var registered []json.RawMessage
	if err := json.Unmarshal(body, &registered); err != nil {
		return fmt.Errorf("read the global commands: %w", err)
	}
	payload := make([]any, 0, len(cmds)+1)
	for _, c := range cmds {
		payload = append(payload, c)
	}
	var entry any = map[string]any{"name": "launch", "type": commandTypeEntryPoint, "handler": entryPointLaunch,
		"description": tr(locales.Source, locales.ButtonBoard), "name_localizations": localizations(nameKey("launch")),
		"description_localizations": localizations(locales.ButtonBoard)}
	for _, raw := range registered {
		var head struct{ Type int }
		if json.Unmarshal(raw, &head) == nil && head.Type == commandTypeEntryPoint {
			entry = localizeEntryPoint(raw)
		}
	}
	payload = append(payload, entry)
	if _, err := dc.RequestWithBucketID(http.MethodPut, endpoint, payload, endpoint); err != nil {
		return fmt.Errorf("register the global commands with the Entry Point: %w", err)
	}
	return nil
}
