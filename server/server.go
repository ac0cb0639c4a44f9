package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// Options configure a Server; zero fields take the defaults shown.
type Options struct {
	Logger      *slog.Logger  // slog.Default()
	Advisor     Advisor       // none: hints and analysis unavailable
	BotDelay    time.Duration // 700ms: the pause before a bot acts, so people can follow
	MaxMessage  int64         // 4096 bytes: a longer WebSocket message closes the connection
	ActionRate  float64       // 20 messages a second per connection ...
	ActionBurst int           // ... with bursts of 40; more are refused
	Now         func() time.Time
	QuickRules  rules.Rules // rules of a table created without rules; zero: classic
	// Bots makes the bots of the tables (and the turn clock's expert); nil:
	// bot.New. Tests use it to inject a failing bot.
	Bots func(level string, r rules.Rules) (bot.Strategy, error)
}

// Server is the web game. Create it with New, serve Handler, and Close it.
type Server struct {
	store   store.Store
	opt     Options
	log     *slog.Logger
	handler http.Handler

	mu      sync.Mutex
	tables  map[string]*table
	closed  bool
	clients map[*client]struct{}

	reg      *prometheus.Registry
	mClients prometheus.Gauge
	mActions *prometheus.CounterVec
	mLatency prometheus.Histogram
}

// New returns a server over st and resumes every table that is waiting or
// in play from the store.
func New(ctx context.Context, st store.Store, opt Options) (*Server, error) {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.BotDelay == 0 {
		opt.BotDelay = 700 * time.Millisecond
	}
	if opt.BotDelay < 0 {
		opt.BotDelay = 0
	}
	if opt.MaxMessage <= 0 {
		opt.MaxMessage = 4096
	}
	if opt.ActionRate <= 0 {
		opt.ActionRate = 20
	}
	if opt.ActionBurst <= 0 {
		opt.ActionBurst = 40
	}
	if opt.QuickRules.Name == "" {
		opt.QuickRules = rules.MustPreset(rules.DefaultBase)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Server{store: st, opt: opt, log: opt.Logger, tables: map[string]*table{}, clients: map[*client]struct{}{}}
	s.initMetrics()
	s.handler = s.routes()
	open, err := st.Tables(ctx, store.TableFilter{Status: []store.Status{store.Waiting, store.Playing}, Limit: 1 << 30})
	if err != nil {
		return nil, err
	}
	for _, tb := range open {
		t, err := s.loadTable(ctx, tb)
		if err != nil {
			return nil, err
		}
		s.tables[tb.ID] = t
		t.mu.Lock()
		t.scheduleBot()
		t.mu.Unlock()
	}
	s.log.Info("tables resumed", "count", len(open))
	return s, nil
}

// Handler returns the HTTP handler of the whole site.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the bots, closes every WebSocket with "going away" and waits
// for actions in progress to be committed. It does not close the store.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	tables := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	clients := make([]*client, 0, len(s.clients))
	for c := range s.clients {
		clients = append(clients, c)
	}
	s.mu.Unlock()
	for _, t := range tables {
		t.mu.Lock() // waits for an action being committed
		t.closed = true
		if t.botTimer != nil {
			t.botTimer.Stop()
		}
		t.mu.Unlock()
	}
	for _, c := range clients {
		c.close(goingAway, "the server is shutting down")
	}
	return nil
}

func (s *Server) initMetrics() {
	s.reg = prometheus.NewRegistry()
	s.mClients = prometheus.NewGauge(prometheus.GaugeOpts{Name: "farkle_connected_clients", Help: "WebSocket clients connected."})
	s.mActions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "farkle_actions_total", Help: "Actions received, by result (accepted, refused) and source (player, bot)."}, []string{"result", "source"})
	s.mLatency = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "farkle_action_latency_seconds",
		Help:    "Time from receiving a player's action to its broadcast, including the database commit.",
		Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1},
	})
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_open_tables", Help: "Tables waiting for players or in play."}, func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		n := 0
		for _, t := range s.tables {
			if !t.over.Load() {
				n++
			}
		}
		return float64(n)
	})
	for _, res := range []string{"accepted", "refused"} {
		for _, src := range []string{"player", "bot"} {
			s.mActions.WithLabelValues(res, src)
		}
	}
	s.reg.MustRegister(s.mClients, s.mActions, s.mLatency, open,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
}

func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})
}

// contentSecurityPolicy allows only the site's own scripts, styles,
// images and WebSocket.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// secure adds the security headers to every response.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// logRequests logs every request but the WebSocket's frames at debug level.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next.ServeHTTP(w, r)
		s.log.Debug("http", "method", r.Method, "path", r.URL.Path, "took", time.Since(start))
	})
}

// randomID returns n random bytes as URL-safe base64.
func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

var errClosed = errors.New("server: closed")
