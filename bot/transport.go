package bot

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// DiscordHost is the host discordgo builds every REST URL with
// (https://discord.com/api/v9/...).
const DiscordHost = "discord.com"

// apiSuffix matches a base path that already names the API version, a
// common mistake when configuring a proxy URL.
var apiSuffix = regexp.MustCompile(`(^|/)api(/v[0-9]+)?$`)

// NewAPITransport returns an http.RoundTripper that sends every request
// addressed to discord.com to apiURL instead, keeping the request's path
// (/api/v9/...) below apiURL's own path. Requests to other hosts pass
// through unchanged. Set it as the Transport of a *discordgo.Session's
// Client to point the session at a REST proxy or at a fake Discord:
//
//	rt, err := bot.NewAPITransport("http://127.0.0.1:8080", nil)
//	session.Client = &http.Client{Transport: rt, Timeout: 20 * time.Second}
//
// apiURL is a base URL: scheme http or https, a host, an optional path
// prefix, and no /api/vN part. With apiURL "https://discord.com" the
// transport changes nothing and base is returned as it is. A nil base
// means http.DefaultTransport.
//
// The gateway websocket is not affected: discordgo dials the URL that
// GET /api/v9/gateway answered with its own Dialer.
func NewAPITransport(apiURL string, base http.RoundTripper) (http.RoundTripper, error) {
	if base == nil {
		base = http.DefaultTransport
	}
	target, err := parseAPIURL(apiURL)
	if err != nil {
		return nil, err
	}
	if target.Scheme == "https" && target.Host == DiscordHost && target.Path == "" {
		return base, nil
	}
	return &apiTransport{target: target, base: base}, nil
}

// parseAPIURL validates apiURL and returns it with any trailing slash of
// its path removed.
func parseAPIURL(apiURL string) (*url.URL, error) {
	if !strings.Contains(apiURL, "://") {
		return nil, fmt.Errorf("api url %q: scheme must be http or https", apiURL)
	}
	u, err := url.Parse(strings.TrimSpace(apiURL))
	if err != nil {
		return nil, fmt.Errorf("api url %q: %w", apiURL, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("api url %q: scheme must be http or https", apiURL)
	case u.Host == "":
		return nil, fmt.Errorf("api url %q: no host", apiURL)
	case u.User != nil:
		return nil, fmt.Errorf("api url %q: user info is not allowed", apiURL)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, fmt.Errorf("api url %q: query and fragment are not allowed", apiURL)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	if apiSuffix.MatchString(u.Path) {
		return nil, fmt.Errorf("api url %q: give the base URL without /api/vN", apiURL)
	}
	return u, nil
}

// apiTransport rewrites discord.com requests to target.
type apiTransport struct {
	target *url.URL
	base   http.RoundTripper
}

// RoundTrip implements http.RoundTripper. It leaves req untouched and
// sends a rewritten clone.
func (t *apiTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.EqualFold(req.URL.Hostname(), DiscordHost) {
		return t.base.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme = t.target.Scheme
	u.Host = t.target.Host
	u.Path = t.target.Path + req.URL.Path
	if req.URL.RawPath != "" {
		u.RawPath = t.target.EscapedPath() + req.URL.RawPath
	} else {
		u.RawPath = ""
	}
	out.URL = &u
	out.Host = ""
	return t.base.RoundTrip(out)
}
