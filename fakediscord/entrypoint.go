package fakediscord

import (
	"encoding/json"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// CommandTypePrimaryEntryPoint is the type of an app's Entry Point
// command (PRIMARY_ENTRY_POINT), which opens its Activity from the App
// Launcher; discordgo has no name for it.
const CommandTypePrimaryEntryPoint discordgo.ApplicationCommandType = 4

// EntryPointLaunch is the handler of an Entry Point command that Discord
// answers itself by opening the Activity (DISCORD_LAUNCH_ACTIVITY).
const EntryPointLaunch = 2

// codeEntryPointRemoved is Discord's refusal of a bulk overwrite of the
// global commands that leaves the Entry Point command out.
const codeEntryPointRemoved = 50240

// seedEntryPointLocked registers the Entry Point command Discord creates
// when an app's Activities are enabled ("Launch"). f.mu must be held.
func (f *Fake) seedEntryPointLocked() {
	cmd := map[string]any{
		"id": newID(), "application_id": f.AppID, "version": newID(), "type": CommandTypePrimaryEntryPoint,
		"name": "launch", "description": "", "handler": EntryPointLaunch, "default_member_permissions": nil,
	}
	raw, _ := json.Marshal(cmd)
	var c discordgo.ApplicationCommand
	_ = json.Unmarshal(raw, &c)
	f.commands[""] = append(f.commands[""], command{raw: raw, cmd: &c})
}

// entryPointRefusal is Discord's answer to a bulk overwrite that breaks
// the rules of the Entry Point command: only global, only for an app with
// Activities on, and a global overwrite must keep the one there is. f.mu
// must be held.
func (f *Fake) entryPointRefusal(guild string, cmds []*discordgo.ApplicationCommand) *apiError {
	has := func(list []*discordgo.ApplicationCommand) bool {
		for _, c := range list {
			if c.Type == CommandTypePrimaryEntryPoint {
				return true
			}
		}
		return false
	}
	sent := has(cmds)
	switch {
	case sent && guild != "":
		return invalidForm("APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID", "Primary entry point commands can only be global", "type")
	case sent && f.cfg.appFlags&ApplicationFlagEmbedded == 0:
		return invalidForm("APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID", "Activities are not enabled for this application", "type")
	case guild == "" && !sent:
		var old []*discordgo.ApplicationCommand
		for _, c := range f.commands[""] {
			old = append(old, c.cmd)
		}
		if has(old) {
			return &apiError{status: http.StatusBadRequest, Code: codeEntryPointRemoved,
				Message: "You cannot remove this app's Primary Entry Point command in a bulk update operation. Please include your Primary Entry Point command in the update payload or delete it using the single command deletion endpoint."}
		}
	}
	return nil
}
