package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Transport returns an http.RoundTripper that counts the requests base
// sends to Discord's REST API by method, route and status, times them,
// and counts the 429s by scope. A nil base means http.DefaultTransport.
func (m *Metrics) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &countingTransport{m: m, base: base}
}

type countingTransport struct {
	m    *Metrics
	base http.RoundTripper
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	route := Route(req.URL.Path)
	res, err := t.base.RoundTrip(req)
	status := 0
	if err == nil {
		status = res.StatusCode
	}
	t.m.requests.WithLabelValues(req.Method, route, strconv.Itoa(status)).Inc()
	t.m.requestTime.WithLabelValues(req.Method, route).Observe(time.Since(start).Seconds())
	if status == http.StatusTooManyRequests {
		scope := res.Header.Get("X-RateLimit-Scope")
		if scope == "" {
			scope = "user"
			if res.Header.Get("X-RateLimit-Global") == "true" {
				scope = "global"
			}
		}
		t.m.rateLimited.WithLabelValues(route, scope).Inc()
	}
	return res, err
}

// Route is a REST path with its IDs and tokens replaced, so that routes
// stay few as labels: /api/v9/channels/123/messages/456 is
// /channels/{id}/messages/{id}, and the segment after an interaction's or
// webhook's ID is {token}.
func Route(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) >= 2 && parts[0] == "api" && strings.HasPrefix(parts[1], "v") {
		parts = parts[2:]
	}
	for i, p := range parts {
		switch {
		case i > 0 && (parts[i-1] == "interactions" || parts[i-1] == "webhooks") && isSnowflake(p):
			parts[i] = "{id}"
			if i+1 < len(parts) {
				parts[i+1] = "{token}"
			}
		case i > 1 && parts[i-1] == "{token}":
			// callback, messages: kept
		case isSnowflake(p):
			parts[i] = "{id}"
		case i > 0 && parts[i-1] == "reactions":
			parts[i] = "{emoji}"
		}
	}
	return "/" + strings.Join(parts, "/")
}

// isSnowflake reports whether s is a Discord ID: digits only.
func isSnowflake(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
