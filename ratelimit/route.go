package ratelimit

import "strings"

// route is what the limiter knows of a request from its method and path.
type route struct {
	key   string // method and path with IDs and tokens replaced: the route
	major string // the top-level resource: "channels/1", "webhooks/1/tok"; "" for none
	// exempt is an interaction route (the callback, or the application's
	// webhook of an interaction token): not under the global limit, and
	// sent without the bot token, which Discord does not ask for there: the
	// interaction's token in the path is the authorization
	// (https://discord.com/developers/docs/interactions/receiving-and-responding;
	// the global limit's exemption: .../topics/rate-limits).
	exempt bool
}

// parseRoute reads a REST path (/api/v10/channels/1/messages/2) as Discord
// groups its limits (https://discord.com/developers/docs/topics/rate-limits):
// a route's bucket is shared per major parameter, a channel, a guild, or a
// webhook with its token. appID is the application whose webhooks carry
// interaction tokens; "" knows none.
func parseRoute(method, path, appID string) route {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) >= 2 && parts[0] == "api" && strings.HasPrefix(parts[1], "v") {
		parts = parts[2:]
	}
	r := route{}
	if len(parts) >= 2 && isSnowflake(parts[1]) {
		switch parts[0] {
		case "channels", "guilds":
			r.major = parts[0] + "/" + parts[1]
		case "webhooks":
			r.major = "webhooks/" + parts[1]
			if len(parts) >= 3 {
				r.major += "/" + parts[2]
				r.exempt = appID != "" && parts[1] == appID
			}
		case "interactions":
			// POST /interactions/{id}/{token}/callback: a bucket per
			// interaction.
			if len(parts) >= 3 {
				r.major = "interactions/" + parts[1] + "/" + parts[2]
			}
			r.exempt = len(parts) >= 4 && parts[3] == "callback"
		}
	}
	tokened := len(parts) >= 3 && (parts[0] == "webhooks" || parts[0] == "interactions") && isSnowflake(parts[1])
	for i, p := range parts {
		switch {
		case i == 2 && tokened:
			parts[i] = "{token}"
		case isSnowflake(p):
			parts[i] = "{id}"
		case i > 0 && parts[i-1] == "reactions":
			parts[i] = "{emoji}"
		}
	}
	r.key = method + " /" + strings.Join(parts, "/")
	return r
}

// method is the route's HTTP method.
func (r route) method() string {
	m, _, _ := strings.Cut(r.key, " ")
	return m
}

// isSnowflake reports whether s is a Discord ID: digits only.
func isSnowflake(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
