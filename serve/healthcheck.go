package serve

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/malefiz-discord/malefiz/subcommand"
)

// healthcheck is `malefiz healthcheck [-ready] [-addr HOST:PORT]`:
// it asks the running bot's /healthz (or /readyz) and exits 0 when it
// answers 200, 1 otherwise. The image's HEALTHCHECK runs it, since the
// image has no curl.
func healthcheck(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("healthcheck")
	ready := fs.Bool("ready", false, "ask /readyz (database and gateway) instead of /healthz")
	addr := fs.String("addr", os.Getenv("MALEFIZ_HTTP_LISTEN"), "the bot's [http] listen address (default MALEFIZ_HTTP_LISTEN; one of the two is required)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "healthcheck: %v", err)
	}
	if *addr == "" || fs.NArg() > 0 {
		return subcommand.Fail(stderr, "healthcheck: usage: malefiz healthcheck [-ready] -addr HOST:PORT (or MALEFIZ_HTTP_LISTEN)")
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		return subcommand.Fail(stderr, "healthcheck: -addr %q: %v", *addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1" // the bot listens on every interface
	}
	path := "/healthz"
	if *ready {
		path = "/readyz"
	}
	client := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{Proxy: nil}}
	res, err := client.Get("http://" + net.JoinHostPort(host, port) + path)
	if err != nil {
		fmt.Fprintf(stderr, "malefiz: healthcheck: %v\n", err)
		return 1
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
	fmt.Fprintf(stdout, "%s %d %s", path, res.StatusCode, body)
	if res.StatusCode != http.StatusOK {
		return 1
	}
	return 0
}

// Healthcheck is `malefiz healthcheck`, the subcommand that asks a running
// bot's /healthz or /readyz.
var Healthcheck = subcommand.Command{Summary: "ask the running bot's /healthz (or /readyz with -ready)",
	Synopsis: "malefiz healthcheck [-ready] [-addr HOST:PORT]", Run: healthcheck}
