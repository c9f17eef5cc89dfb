package fakediscord

import (
	"encoding/hex"
	"net/http"
)

// getCurrentUser serves GET /users/@me: the bot user.
func (f *Fake) getCurrentUser(*Call) (int, any) {
	u := f.botUser()
	u["verified"], u["mfa_enabled"], u["locale"] = true, false, "en-US"
	return http.StatusOK, u
}

// getApplication serves GET /applications/@me and
// /oauth2/applications/@me.
func (f *Fake) getApplication(*Call) (int, any) {
	return http.StatusOK, map[string]any{
		"id": f.AppID, "name": "malefiz-fake", "icon": nil, "description": "",
		"bot_public": true, "bot_require_code_grant": false, "flags": f.cfg.appFlags,
		"bot": f.botUser(), "verify_key": hex.EncodeToString(f.PublicKey()), "team": nil,
	}
}
