package bot

import (
	"net/http"
	"strings"
	"testing"
)

// recorder is a RoundTripper that keeps the last request it saw.
type recorder struct{ got *http.Request }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.got = req
	return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: req}, nil
}

func TestAPITransportRewrite(t *testing.T) {
	tests := []struct {
		name   string
		apiURL string
		in     string
		want   string
	}{
		{"host only", "http://127.0.0.1:8080", "https://discord.com/api/v9/channels/1/messages", "http://127.0.0.1:8080/api/v9/channels/1/messages"},
		{"trailing slash", "http://127.0.0.1:8080/", "https://discord.com/api/v9/gateway", "http://127.0.0.1:8080/api/v9/gateway"},
		{"path prefix", "https://proxy.example/discord/", "https://discord.com/api/v9/users/@me", "https://proxy.example/discord/api/v9/users/@me"},
		{"query kept", "http://127.0.0.1:1", "https://discord.com/api/v9/webhooks/1/tok?wait=true", "http://127.0.0.1:1/api/v9/webhooks/1/tok?wait=true"},
		{"escaped path kept", "http://127.0.0.1:1", "https://discord.com/api/v9/channels/1/messages/2/reactions/%23%E2%83%A3/@me", "http://127.0.0.1:1/api/v9/channels/1/messages/2/reactions/%23%E2%83%A3/@me"},
		{"other host untouched", "http://127.0.0.1:1", "https://cdn.discordapp.com/attachments/1/2/board.png", "https://cdn.discordapp.com/attachments/1/2/board.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			rt, err := NewAPITransport(tt.apiURL, rec)
			if err != nil {
				t.Fatalf("NewAPITransport(%q): %v", tt.apiURL, err)
			}
			req, err := http.NewRequest(http.MethodGet, tt.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bot x")
			if _, err := rt.RoundTrip(req); err != nil {
				t.Fatal(err)
			}
			if got := rec.got.URL.String(); got != tt.want {
				t.Errorf("sent to %s, want %s", got, tt.want)
			}
			if got := rec.got.Header.Get("Authorization"); got != "Bot x" {
				t.Errorf("authorization %q, want %q", got, "Bot x")
			}
			if got := req.URL.String(); got != tt.in {
				t.Errorf("original request changed to %s", got)
			}
		})
	}
}

func TestAPITransportDiscordIsNoop(t *testing.T) {
	for _, apiURL := range []string{"https://discord.com", "https://discord.com/"} {
		rec := &recorder{}
		rt, err := NewAPITransport(apiURL, rec)
		if err != nil {
			t.Fatalf("NewAPITransport(%q): %v", apiURL, err)
		}
		if rt != http.RoundTripper(rec) {
			t.Errorf("NewAPITransport(%q) = %T, want the base transport itself", apiURL, rt)
		}
	}
	rt, err := NewAPITransport("https://discord.com", nil)
	if err != nil || rt != http.DefaultTransport {
		t.Errorf("nil base: got %v, %v; want http.DefaultTransport", rt, err)
	}
}

func TestAPITransportInvalidURL(t *testing.T) {
	tests := []struct {
		name, apiURL, wantErr string
	}{
		{"empty", "", "scheme must be http or https"},
		{"no scheme", "127.0.0.1:8080", "scheme must be http or https"},
		{"host without scheme", "localhost:8080", "scheme must be http or https"},
		{"websocket scheme", "ws://127.0.0.1:8080", "scheme must be http or https"},
		{"no host", "http:///api", "no host"},
		{"query", "http://127.0.0.1:1/?a=b", "query and fragment"},
		{"user info", "http://u:p@127.0.0.1:1", "user info"},
		{"api version included", "http://127.0.0.1:1/api/v9", "without /api/vN"},
		{"api included", "http://127.0.0.1:1/api/", "without /api/vN"},
		{"unparsable", "http://[::1", "api url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewAPITransport(tt.apiURL, nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("NewAPITransport(%q) error %v, want one containing %q", tt.apiURL, err, tt.wantErr)
			}
		})
	}
}
