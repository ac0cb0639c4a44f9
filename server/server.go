package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// Options configure a Server; zero fields take the defaults shown.
type Options struct {
	Logger      *slog.Logger  // slog.Default()
	Analyzer    Analyzer      // none: analysis unavailable
	BotDelay    time.Duration // 700ms: the pause before a bot acts, so people can follow
	MaxMessage  int64         // 4096 bytes: a longer WebSocket message closes the connection
	ActionRate  float64       // 20 messages a second per connection (negative: no limit) ...
	ActionBurst int           // ... with bursts of 40; more are refused
	Now         func() time.Time
	Seeds       func() dice.Seed // the seed of each new table; nil: a fresh random one (tests play a game found beforehand)
	QuickRules  rules.Rules      // rules of a table created without rules; zero: classic

	// The HTTP edge: who the client is, where it may come from, how fast
	// it may go. A negative rate or cap means no limit.
	PublicURL          string         // "": none; "https://..." makes cookies Secure, sends HSTS and is an allowed Origin
	TrustedProxies     []netip.Prefix // none: the TCP peer is the client; these peers' X-Forwarded-For/-Proto and X-Real-IP are believed
	AddressRate        float64        // 10 state-changing requests and WebSocket upgrades a second from one client address ...
	AddressBurst       int            // ... with bursts of 50
	PlayerRate         float64        // 5 a second from one player (by its token) ...
	PlayerBurst        int            // ... with bursts of 20
	RateClients        int            // 65536: client addresses (and players) whose rate is tracked at once, per limit
	PlayerMessageRate  float64        // 40 WebSocket messages a second from one player over all of its connections ...
	PlayerMessageBurst int            // ... with bursts of 80
	WSPerAddress       int            // 16 WebSocket connections open from one client address
	WSTotal            int            // 5000 WebSocket connections open in all
	// A WebSocket client is pinged every PingEvery (30s) and its
	// connection closed when it does not answer within PingTimeout (5s).
	PingEvery, PingTimeout time.Duration

	// The life of tables (docs/API.md, "Tables: quotas, clock, failure").
	// A negative cap or duration turns that limit off.
	MaxOpenTables int // 10: open (waiting or playing) tables one player may have created
	MaxBotTables  int // 2: open bots-only tables one player may have created
	// Guests cost one request each, so the caps per player do not bound
	// the server: these do, over all players.
	MaxTablesTotal    int           // 5000: open (waiting or playing) tables in all
	MaxBotTablesTotal int           // 100: open bots-only tables in all
	MaxTurns          int           // 200: the most rounds of a game; a new table's rules get the lower of theirs and this
	WaitingExpiry     time.Duration // 24h: a table still waiting for players this long after its last change expires
	GuestExpiry       time.Duration // 30 days: a guest nothing keeps (store.Store.ExpireGuests) not seen this long is deleted
	FinishedTables    int           // 64: finished tables nobody watches kept in memory (most recently read)
	TurnClock         time.Duration // 90s: time to act at a table with people, unless the table asks for another
	MaxTurnClock      time.Duration // 1h: the longest clock a table may ask for
	ClockForfeits     int           // 3: timeouts in a row after which a seat resigns
	PaceHour          time.Duration // 1h: an hour of the clocks of games at your own pace (pace.go); tests make it short
	// Invitations (invite.go): open invitations one player may have sent,
	// and kept for one player; players one player may block.
	MaxInvitesSent     int // 10
	MaxInvitesReceived int // 20
	MaxBlocks          int // 500
	MaxFollows         int // 200: players one player may follow (follow.go)
	// AdjournAfter: a game against bots whose player has been away this
	// long is adjourned (adjourn.go); 7 days.
	AdjournAfter time.Duration
	// Local games kept in players' histories (localgames.go).
	MaxLocalGames     int // 500: local games one player may keep
	MaxLocalGameBytes int // 256 KiB: the largest upload of one (its record); at least 1 KiB
	// HistoryTail is how many of a table's last actions it keeps in
	// memory (their events and record entries, for a welcome's log), 64;
	// it keeps at most twice as many, and reads the rest from the store
	// when the whole record is asked for (history.go).
	HistoryTail int
	// TableIdle: an open table nobody has a connection to, where no bot
	// or clock acts soon, leaves memory after this long unused and is
	// loaded again when asked for (idle.go); 10 minutes, negative: never.
	TableIdle time.Duration
	// LeaseEvery is how often the node renews the leases of its tables
	// and looks for tables no node leases (a store shared by several
	// nodes: cluster.go); 1s.
	LeaseEvery time.Duration
	// CatchUpEvery is how often a node of a cluster reads again the
	// tables its clients are at, in case a change hint was lost
	// (cluster.go); 3s.
	CatchUpEvery time.Duration
	// Cast makes the bots of the tables of every kind (and what plays for
	// a seat out of time) and the hints of every kind (hints.go): its
	// advisors answer a hint request, so they should not wait for a solve
	// (advise.Live). nil: advise.Cast(nil)'s bots, and hints for Dragon
	// Farkle only. Tests use it to inject a failing bot or an advisor.
	Cast game.Cast
	// Collectors are more metrics for MetricsHandler (e.g. the solver's).
	Collectors []prometheus.Collector
	// Explorer serves the strategy explorer (explore.go); nil: its API
	// answers 503.
	Explorer *Explorer

	// Accounts and sessions (account.go, session.go). A negative cap
	// turns it off.
	MaxSessions       int // 20: sessions (signed-in devices) one player keeps; a new one ends the least recently seen
	MaxPasskeys       int // 20: passkeys one account may have
	SignInsPerAccount int // 30: passkey sign-ins of one account within 5 minutes (the life of a ceremony); more are refused (429)

	// ReportsPerHour is the reports one player may make an hour
	// (report.go); 10, negative: no cap.
	ReportsPerHour int

	// RatingBoardGames is the rated games a player needs in a family to
	// be listed on its leaderboard by rating (GET /api/ratings); 5.
	RatingBoardGames int

	// Tournaments (docs/API.md, "Tournaments"; tournament_limits.go). Their
	// tables count toward the caps on tables above. A negative cap or
	// duration turns that limit off.
	MaxTournamentBots   int           // 16: bot entrants of one tournament
	MaxOpenTournaments  int           // 3: tournaments under way (open or playing) one player may have created
	MaxTournamentsTotal int           // 50: tournaments under way in all
	MaxTournamentAhead  time.Duration // 4 weeks: how far ahead of now a tournament may start
	// TournamentEvery is how often the server tends the tournaments under
	// way (tournament_tend.go): games waiting for a table, tables that
	// ended unnoticed, failed or stalled; 5s.
	TournamentEvery time.Duration
}

// withTableDefaults fills the zero fields of the life of tables.
func (o *Options) withTableDefaults() {
	setDefault(&o.MaxOpenTables, 10)
	setDefault(&o.MaxBotTables, 2)
	setDefault(&o.MaxTablesTotal, 5000)
	setDefault(&o.MaxBotTablesTotal, 100)
	setDefault(&o.MaxTurns, 200)
	setDefault(&o.FinishedTables, 64)
	setDefault(&o.HistoryTail, 64)
	setDefault(&o.TableIdle, 10*time.Minute)
	setDefault(&o.ClockForfeits, 3)
	setDefault(&o.WaitingExpiry, 24*time.Hour)
	setDefault(&o.GuestExpiry, 30*24*time.Hour)
	setDefault(&o.TurnClock, 90*time.Second)
	setDefault(&o.LeaseEvery, leaseEvery)
	setDefault(&o.CatchUpEvery, catchUpEvery)
	setDefault(&o.PaceHour, time.Hour)
	setDefault(&o.RatingBoardGames, 5)
	setDefault(&o.MaxInvitesSent, 10)
	setDefault(&o.MaxInvitesReceived, 20)
	setDefault(&o.MaxBlocks, 500)
	setDefault(&o.MaxFollows, 200)
	setDefault(&o.AdjournAfter, 7*24*time.Hour)
	setDefault(&o.MaxLocalGames, 500)
	setDefault(&o.MaxLocalGameBytes, 256<<10)
	if o.MaxTurnClock <= 0 {
		o.MaxTurnClock = time.Hour
	}
	o.withTournamentDefaults()
}

// Server is the web game. Create it with New, serve Handler, and Close it.
type Server struct {
	store   store.Store
	cluster store.Cluster // the other nodes on the store (cluster.go)
	opt     Options
	log     *slog.Logger
	handler http.Handler

	mu       sync.Mutex
	tables   map[string]*table   // open tables, and finished ones being watched
	finished *finishedTables     // finished tables nobody watches, most recently read
	asleep   map[string]*sleeper // open tables that left memory, idle, leased by this node (idle.go)
	closed   bool
	draining atomic.Bool // Drain was called: this node takes no lease (drain.go)
	clients  map[*client]struct{}
	createMu sync.Mutex    // serializes table creation, so quotas hold (quota.go)
	stop     chan struct{} // closed by Close: ends the expiry loop
	loops    sync.WaitGroup

	edge
	accounts   accountState      // the ceremonies' key and the log of refusals (account_ceremony.go)
	tourMu     sync.Mutex        // serializes the creation of tournaments, so their caps hold (tournament_limits.go)
	tourLocks  keyedMutex        // serializes the changes of each tournament (tournament.go)
	tourTables map[string]string // tournament by the ID of a table in play for it
	tourTabMu  sync.Mutex        // guards tourTables (not s.mu: a table's lock is held when its game ends)
	// beforeOpenGame, a test's hook (export_test.go), runs before each
	// table a tournament opens for its games (tournament_tend.go).
	beforeOpenGame atomic.Pointer[func(tr store.Tournament, game int)]

	kinds kinds // the kinds of game served, prepared once

	orphanMu    sync.Mutex
	orphansSeen map[string]bool // the orphans of the previous look (affinity.go)

	reg      *prometheus.Registry
	mClients prometheus.Gauge
	mActions *prometheus.CounterVec
	mLatency prometheus.Histogram
	// mGameTables counts the tables read for GET /api/me/games (invite.go).
	mGameTables prometheus.Counter
	mSlept      prometheus.Counter // open tables put to sleep (idle.go)
	mLetGo      prometheus.Counter // tables let go to the node of their players (affinity.go)
	mFollowed   prometheus.Counter // actions another node took, played here (cluster.go)
	mQuiet      prometheus.Counter // actions committed without a change hint (quiet.go)

	asked wantedHints // the tables whose hints other nodes asked for (quiet.go)
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
	if opt.ActionRate == 0 {
		opt.ActionRate = 20
	}
	if opt.ActionBurst <= 0 {
		opt.ActionBurst = 40
	}
	if opt.PingEvery <= 0 {
		opt.PingEvery = 30 * time.Second
	}
	if opt.PingTimeout <= 0 {
		opt.PingTimeout = 5 * time.Second
	}
	if opt.QuickRules.Name == "" {
		opt.QuickRules = rules.MustPreset(rules.DefaultBase)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Seeds == nil {
		opt.Seeds = dice.NewSeed
	}
	opt.withTableDefaults()
	opt.withAccountDefaults()
	opt.withModerationDefaults()
	s := &Server{store: st, cluster: store.ClusterOf(st), opt: opt, log: opt.Logger, tables: map[string]*table{}, clients: map[*client]struct{}{},
		finished: newFinishedTables(opt.FinishedTables), asleep: map[string]*sleeper{}, stop: make(chan struct{})}
	s.accounts.lookAlikes = newLookAlikes(opt.Now)
	s.asked.init(s.cluster)
	s.initMetrics()
	if err := s.initEdge(); err != nil {
		return nil, err
	}
	s.handler = s.routes(newRouteMux())
	if opt.WaitingExpiry > 0 { // before resuming: expired tables are not loaded
		if _, err := st.ExpireWaiting(ctx, opt.Now().Add(-opt.WaitingExpiry), s.expiryReason()); err != nil {
			return nil, err
		}
	}
	open, err := st.Tables(ctx, store.TableFilter{Status: []store.Status{store.Waiting, store.Playing}, Limit: 1 << 30})
	if err != nil {
		return nil, err
	}
	failed := 0
	for _, tb := range open {
		t, err := s.resumeTable(ctx, tb)
		if err != nil {
			return nil, err
		}
		if t.meta.Status == store.Failed {
			failed++
			s.finished.add(t)
			continue
		}
		s.tables[tb.ID] = t
		t.mu.Lock()
		t.activate(ctx)
		t.mu.Unlock()
	}
	s.log.Info("tables resumed", "count", len(open)-failed, "failed", failed)
	if err := s.resumeTournaments(ctx); err != nil {
		return nil, err
	}
	s.startExpiry()
	s.startIdle()
	s.startCluster()
	s.watchWrites()
	return s, nil
}

// Handler returns the HTTP handler of the whole site.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the bots, closes every WebSocket with "going away", waits
// for actions in progress to be committed, and gives up the leases of its
// tables, so that another node on the store takes them over at once. It
// does not close the store.
func (s *Server) Close() error {
	s.mu.Lock()
	if !s.closed {
		close(s.stop)
	}
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
	var leased []string
	for _, t := range tables {
		t.mu.Lock() // waits for an action being committed
		t.closed = true
		t.stopTimers()
		if t.leased {
			leased = append(leased, t.id)
		}
		t.mu.Unlock()
	}
	s.releaseAll(append(leased, s.dropAsleep()...))
	for _, c := range clients {
		c.close(goingAway, "the server is shutting down")
	}
	s.loops.Wait()
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
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_open_tables", Help: "Tables waiting for players or in play (in memory or asleep)."}, func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		n := len(s.asleep)
		for _, t := range s.tables {
			if !t.over.Load() {
				n++
			}
		}
		return float64(n)
	})
	loaded := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_tables_in_memory", Help: "Tables held in memory: open or watched ones, and finished ones kept by recent use."}, func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return float64(len(s.tables) + s.finished.len())
	})
	asleep := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_tables_asleep", Help: "Open tables out of memory, idle, whose lease this node keeps (--table-idle)."}, func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return float64(len(s.asleep))
	})
	s.mSlept = prometheus.NewCounter(prometheus.CounterOpts{Name: "farkle_tables_slept_total", Help: "Open tables that left memory, idle (--table-idle)."})
	s.mLetGo = prometheus.NewCounter(prometheus.CounterOpts{Name: "farkle_tables_let_go_total", Help: "Tables in play that left this node's memory (and lease) for the node their players are on."})
	s.mFollowed = prometheus.NewCounter(prometheus.CounterOpts{Name: "farkle_followed_actions_total", Help: "Actions another node of the cluster took, read and played here for this node's clients."})
	wanted := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_tables_hints_asked", Help: "Tables whose change hints another node of the cluster asks for (it has clients there and does not hold their lease): the node holding one hints its actions."}, func() float64 {
		return float64(s.asked.count(time.Now()))
	})
	s.mQuiet = prometheus.NewCounter(prometheus.CounterOpts{Name: "farkle_quiet_actions_total", Help: "Actions committed without a change hint to the other nodes of the cluster: this node held the table's lease and no other node had asked for its hints."})
	for _, res := range []string{"accepted", "refused"} {
		for _, src := range []string{"player", "bot"} {
			s.mActions.WithLabelValues(res, src)
		}
	}
	s.mGameTables = prometheus.NewCounter(prometheus.CounterOpts{Name: "farkle_my_games_tables_total",
		Help: "Tables read to answer GET /api/me/games: the player's own open tables and invitations, from the store's index."})
	s.reg.MustRegister(s.mClients, s.mActions, s.mLatency, open, loaded, asleep, s.mSlept, s.mLetGo, s.mFollowed, s.mQuiet, wanted, s.mGameTables,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s.reg.MustRegister(s.opt.Collectors...)
	if g, ok := s.store.(store.GroupCommitter); ok {
		s.reg.MustRegister(
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "farkle_commit_batches_total",
				Help: "Batches of actions the database's group commit committed (each one transaction)."}, func() float64 { b, _ := g.GroupCommits(); return float64(b) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "farkle_commit_actions_total",
				Help: "Actions the group commit wrote: over farkle_commit_batches_total, the actions a commit."}, func() float64 { _, a := g.GroupCommits(); return float64(a) }))
	}
	if x := s.opt.Explorer; x != nil {
		s.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_explore_slots_busy",
			Help: "Explorer requests being computed: the slots they hold (at most GOMAXPROCS)."}, func() float64 { return float64(len(x.lanes.all)) }))
	}
}

// MetricsHandler returns the Prometheus metrics of the server, to be
// served on a listener of its own (farkle serve --metrics-addr): the
// public handler has no /metrics.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})
}

// contentSecurityPolicy allows only the site's own scripts, styles,
// images and WebSocket; 'wasm-unsafe-eval' lets the page compile the
// site's own WebAssembly engine of its local games (offline.go), and
// nothing else evaluates code.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
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
