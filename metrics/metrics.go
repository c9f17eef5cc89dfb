// Package metrics keeps the bot's Prometheus metrics: interactions by kind
// and outcome with their latency, store commits, board renders, the games
// running and the outbox's backlog, and the REST calls made to Discord by
// route and status with the 429s among them. The bot reports through hooks
// the command wires to a Metrics; /metrics serves its Handler.
package metrics

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Gauges are read when /metrics is scraped; each may be nil.
type Gauges struct {
	// GamesRunning counts the games being played.
	GamesRunning func(ctx context.Context) (int, error)
	// OutboxPending counts the Discord effects not yet delivered.
	OutboxPending func(ctx context.Context) (int, error)
	// DiscordInvalid counts the invalid requests (401, 403, 429 but scope
	// shared) made to Discord in the last 10 minutes.
	DiscordInvalid func(ctx context.Context) (int, error)
}

// Metrics holds the collectors in a registry of its own.
type Metrics struct {
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	commits      *prometheus.HistogramVec
	renders      prometheus.Histogram
	requests     *prometheus.CounterVec
	requestTime  *prometheus.HistogramVec
	rateLimited  *prometheus.CounterVec
	limited      *prometheus.CounterVec
	invalid      prometheus.Counter
	braked       prometheus.Counter
}

// latencyBuckets suit interactions, commits and renders: 1 ms to 10 s.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New returns the metrics, with the gauges read from g and Go's runtime
// and process metrics beside them.
func New(g Gauges) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "malefiz_interactions_total",
			Help: "Interactions handled, by kind (command, component, ping) and outcome (ok, refused, conflict, error)."},
			[]string{"kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "malefiz_interaction_duration_seconds",
			Help: "Time from an interaction's arrival to its answer.", Buckets: latencyBuckets}, []string{"kind"}),
		commits: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "malefiz_store_commit_duration_seconds",
			Help: "Time of the transactions that commit a game change, by result (ok, error).", Buckets: latencyBuckets},
			[]string{"result"}),
		renders: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "malefiz_render_duration_seconds",
			Help: "Time to draw a board.", Buckets: latencyBuckets}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "malefiz_discord_requests_total",
			Help: "REST requests to Discord, by method, route (IDs and tokens replaced) and status (0: no answer)."},
			[]string{"method", "route", "status"}),
		requestTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "malefiz_discord_request_duration_seconds",
			Help: "Time of REST requests to Discord, by method and route.", Buckets: latencyBuckets},
			[]string{"method", "route"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "malefiz_discord_rate_limited_total",
			Help: "Answers 429 from Discord, by route and scope (user, global, shared)."},
			[]string{"route", "scope"}),
	}
	m.limited = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "malefiz_discord_limiter_requests_total",
		Help: "Requests the rate limiter sent to Discord, by class (global: under the bot token's global limit; exempt: an interaction route)."},
		[]string{"class"})
	m.invalid = prometheus.NewCounter(prometheus.CounterOpts{Name: "malefiz_discord_invalid_requests_total",
		Help: "Invalid requests to Discord (401, 403, 429 but scope shared): 10,000 in 10 minutes ban the address for an hour."})
	m.braked = prometheus.NewCounter(prometheus.CounterOpts{Name: "malefiz_discord_braked_total",
		Help: "Deferrable requests the rate limiter held back because the invalid requests neared Discord's ban."})
	m.reg.MustRegister(m.limited, m.invalid, m.braked)
	m.reg.MustRegister(m.interactions, m.latency, m.commits, m.renders, m.requests, m.requestTime, m.rateLimited,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if g.GamesRunning != nil {
		m.reg.MustRegister(countGauge("malefiz_games_running", "Games being played.", g.GamesRunning))
	}
	if g.OutboxPending != nil {
		m.reg.MustRegister(countGauge("malefiz_outbox_pending", "Discord effects committed and not yet delivered.", g.OutboxPending))
	}
	if g.DiscordInvalid != nil {
		m.reg.MustRegister(countGauge("malefiz_discord_invalid_requests", "Invalid requests to Discord in the last 10 minutes (the ban is at 10,000).", g.DiscordInvalid))
	}
	return m
}

// LimiterRequest records a request the rate limiter sent, by class.
func (m *Metrics) LimiterRequest(class string) { m.limited.WithLabelValues(class).Inc() }

// InvalidRequest records an invalid request to Discord.
func (m *Metrics) InvalidRequest() { m.invalid.Inc() }

// Braked records a request held back by the invalid-request brake.
func (m *Metrics) Braked() { m.braked.Inc() }

// countGauge is a gauge read from count at each scrape; a failed count
// leaves it out of that scrape.
func countGauge(name, help string, count func(context.Context) (int, error)) prometheus.Collector {
	return &countCollector{desc: prometheus.NewDesc(name, help, nil, nil), count: count}
}

type countCollector struct {
	desc  *prometheus.Desc
	count func(context.Context) (int, error)
}

func (c *countCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *countCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := c.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n))
}

// Interaction records an interaction handled.
func (m *Metrics) Interaction(kind, outcome string, latency time.Duration) {
	m.interactions.WithLabelValues(kind, outcome).Inc()
	m.latency.WithLabelValues(kind).Observe(latency.Seconds())
}

// Commit records a commit of a game change.
func (m *Metrics) Commit(d time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.commits.WithLabelValues(result).Observe(d.Seconds())
}

// Render records a board drawn.
func (m *Metrics) Render(d time.Duration) { m.renders.Observe(d.Seconds()) }

// Handler serves the metrics in Prometheus's text format; a gauge that
// cannot be read (the database is gone) is left out, the rest is served.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}
