package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/malefiz-discord/malefiz/activity"
)

// listen starts the HTTP listener when [http] listen is set: POST
// /interactions in http mode, /healthz, /readyz and /metrics always, and
// the Activity under /.proxy/ when [discord] client_secret is set.
func (m *Main) listen() error {
	if m.Config.HTTP.Listen == "" {
		return nil
	}
	mux := http.NewServeMux()
	if m.Config.Discord.Interactions == InteractionsHTTP {
		key, err := m.Config.publicKey()
		if err != nil {
			return err
		}
		mux.Handle("POST /interactions", m.bot.InteractionsHandler(key))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", m.serveReady)
	if m.activity != nil {
		mux.Handle(activity.Prefix, m.activity)
	}
	mux.Handle("GET /metrics", m.metrics.Handler())
	l, err := net.Listen("tcp", m.Config.HTTP.Listen)
	if err != nil {
		return fmt.Errorf("[http] listen: %w", err)
	}
	m.listener = l
	m.server = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 90 * time.Second}
	m.served = make(chan struct{})
	go func() {
		defer close(m.served)
		if err := m.server.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.Logger.Error("http listener", "err", err)
		}
	}()
	m.Logger.Info("listening", "addr", l.Addr().String(), "interactions", m.Config.Discord.Interactions)
	return nil
}

// readyTimeout bounds the database check of /readyz.
const readyTimeout = 2 * time.Second

// serveReady answers /readyz: 200 when the database answers and, in
// gateway mode, every shard of this process is connected; 503 with the
// reason otherwise, and while shutting down.
func (m *Main) serveReady(w http.ResponseWriter, req *http.Request) {
	if err := m.ready(req.Context()); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	_, _ = fmt.Fprintln(w, "ready")
}

// ready says why the process should get no traffic, or nil.
func (m *Main) ready(ctx context.Context) error {
	select {
	case <-m.draining:
		return errors.New("shutting down")
	default:
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	if _, err := m.db.PendingEffects(ctx); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	if m.Config.Discord.Interactions == InteractionsGateway {
		down, ok := m.shards.down()
		if !ok {
			return errors.New("gateway: not connected yet")
		}
		if len(down) > 0 {
			return fmt.Errorf("gateway: shards %v not connected", down)
		}
	}
	return nil
}
