package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solved"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
)

func init() {
	register(&command{
		name:    "serve",
		args:    "[--addr :8080] [--db farkle.db|postgres://…] [--metrics-addr 127.0.0.1:9090] [--ssh :2222] [flags]",
		summary: "the web game: open http://localhost:8080 and play against bots or friends",
		run:     runServe,
	})
}

func runServe(ctx context.Context, e *env, args []string) error {
	fs, configure := serveFlags(e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (serve takes only flags)", fs.Arg(0))
	}
	m, err := configure()
	if err != nil {
		return err
	}
	if err := m.Run(ctx); err != nil {
		return err
	}
	if m.MetricsURL != "" {
		fmt.Fprintf(e.stdout, "farkle: serving %s (database %s; metrics at %s/metrics)\n", m.URL, dbName(m.DB), m.MetricsURL)
	} else {
		fmt.Fprintf(e.stdout, "farkle: serving %s (database %s)\n", m.URL, dbName(m.DB))
	}
	if m.TLS.HTTPURL != "" {
		fmt.Fprintf(e.stdout, "farkle: %s redirects to HTTPS\n", m.TLS.HTTPURL)
	}
	if m.SSH.srv != nil {
		fmt.Fprintf(e.stdout, "farkle: ssh on %s (host key %s)\n", m.SSH.Addr0, m.SSH.srv.Fingerprint())
	}
	select {
	case <-ctx.Done():
		m.Logger.Info("shutting down")
	case err := <-m.failed:
		m.Close()
		return err
	}
	return m.Close()
}

// serveFlags registers every flag of the serve command. The function it
// returns, called once they are parsed, checks them and returns the
// server they configure, ready to Run.
func serveFlags(e *env) (*flag.FlagSet, func() (*serveMain, error)) {
	c := commands["serve"]
	fs := newFlags(e, c)
	addr := fs.String("addr", ":8080", "the address to listen on (host:port; port 0 picks a free port)")
	edge := edgeFlags(fs)       // serve_edge.go
	explore := exploreFlags(fs) // serve_explore.go
	db := fs.String("db", "farkle.db", "the database: a SQLite file (created if missing), or a PostgreSQL URL postgres://… shared by several nodes; $"+dbEnv+" when not given")
	node := nodeFlags(fs)
	botDelay := fs.Duration("bot-delay", 700*time.Millisecond, "the pause before a bot acts (0: none)")
	verbose := fs.Bool("v", false, "log every request")
	getRules := rulesFlag(fs)
	tables := tableFlags(fs)
	tournaments := tournamentFlags(fs) // serve_tournaments.go
	local := localFlags(fs)            // serve_local.go
	accounts := accountFlags(fs)       // serve_accounts.go
	solver := solveFlags(fs, e.getenv)
	sshOpts := sshFlags(fs, e.getenv) // serve_ssh.go
	tlsOpts := tlsFlags(fs, e.getenv) // serve_tls.go
	return fs, func() (*serveMain, error) {
		if v := e.getenv(dbEnv); v != "" && !flagGiven(fs, "db") {
			*db = v
		}
		if node.LeaseTTL <= 0 {
			return nil, usagef("--lease %s: must be more than 0", node.LeaseTTL)
		}
		if *botDelay < 0 {
			return nil, usagef("--bot-delay %s: must be 0 or more", *botDelay)
		}
		r, err := getRules()
		if err != nil {
			return nil, err
		}
		ts, err := solver()
		if err != nil {
			return nil, err
		}
		level := slog.LevelInfo
		if *verbose {
			level = slog.LevelDebug
		}
		m := &serveMain{Addr: *addr, DB: *db, Node: *node, BotDelay: *botDelay, Rules: r, Advisor: newServeAdvisor(ts, true), Tables: ts,
			Logger: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))}
		if err := edge(m); err != nil {
			return nil, err
		}
		if err := explore(m); err != nil {
			return nil, err
		}
		if err := tables(&m.Options); err != nil {
			return nil, err
		}
		if err := tournaments(&m.Options); err != nil {
			return nil, err
		}
		if err := local(&m.Options); err != nil {
			return nil, err
		}
		if err := accounts(&m.Options); err != nil {
			return nil, err
		}
		if err := sshOpts(m); err != nil {
			return nil, err
		}
		if err := tlsOpts(m); err != nil {
			return nil, err
		}
		return m, nil
	}
}

// serveMain is the whole web game: the database, the game server and the
// HTTP listener. Run starts it and returns once it listens; Close shuts it
// down gracefully. Tests run it on :0 with a temporary database.
type serveMain struct {
	Addr     string
	DB       string
	Node     postgres.Options // with a PostgreSQL database: this node's name and lease time
	BotDelay time.Duration
	Rules    rules.Rules // for "play now" tables
	Logger   *slog.Logger
	Advisor  *serveAdvisor  // the hints and analyses (serve_advisor.go); nil: none of the ordinary game
	Options  server.Options // the life of tables (serve_tables.go); Run sets the fields above in it
	Tables   *solved.Tables // the bots' solver results and limits (serve_solve.go); nil: solved.DefaultTables()

	URL string // the base URL, set by Run

	Edge       serveEdge // timeouts and the metrics listener (serve_edge.go)
	MetricsURL string    // the metrics listener's base URL, set by Run ("" without one)

	SSH serveSSH // the SSH front end (serve_ssh.go); its Addr "": none

	TLS       serveTLS // HTTPS served by the node (serve_tls.go); off unless configured
	httpsAddr string   // the address the game listens on, for the redirect to HTTPS

	Explore server.ExploreLimits // the strategy explorer's bounds (serve_explore.go)

	db      store.Store
	srv     *server.Server
	http    *http.Server
	metrics *http.Server
	failed  chan error
}

// Run opens the database, resumes the tables and starts serving.
func (m *serveMain) Run(ctx context.Context) error {
	if m.Logger == nil {
		m.Logger = slog.Default()
	}
	before := schemaBefore(ctx, m.DB) // serve_ops.go
	db, err := openStore(ctx, m.DB, m.Node)
	if err != nil {
		return err
	}
	m.db = db
	if before != nil {
		logMigrations(m.Logger, m.DB, before)
	}
	opt := m.Options
	opt.Logger, opt.BotDelay, opt.QuickRules = m.Logger, m.BotDelay, m.Rules
	if m.BotDelay == 0 {
		opt.BotDelay = -1 // no pause
	}
	if m.Advisor != nil {
		opt.Analyzer = m.Advisor
	}
	switch {
	case opt.Cast != nil:
	case m.Advisor != nil:
		opt.Cast = m.Advisor.cast // the bots, and the live hints of every kind
	default:
		opt.Cast = server.NoHints(advise.Cast(m.Tables), game.Farkle)
	}
	opt.Collectors = append(opt.Collectors, healthMetric(db))
	if m.Tables != nil {
		opt.Collectors = append(opt.Collectors, solverMetrics(m.Tables)...)
		opt.Explorer = server.NewExplorerWith(m.Tables, m.Explore) // before any solve: it shows the solves' progress
	}
	srv, err := server.New(ctx, db, opt)
	if err != nil {
		db.Close()
		return err
	}
	m.srv = srv
	ln, err := net.Listen("tcp", m.Addr)
	if err != nil {
		srv.Close()
		db.Close()
		return fmt.Errorf("listen on %s: %w", m.Addr, err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	m.URL = "http://" + net.JoinHostPort(host, port)
	m.failed = make(chan error, 3)
	if m.TLS.on() {
		m.httpsAddr = ln.Addr().String()
		ln = m.TLS.listen(ln)
		m.URL = "https://" + net.JoinHostPort(host, port)
		m.TLS.log(m.Logger)
		if err := m.TLS.start(m); err != nil {
			ln.Close()
			srv.Close()
			db.Close()
			return err
		}
	}
	var mln net.Listener
	if m.Edge.MetricsAddr != "" {
		mln, err = net.Listen("tcp", m.Edge.MetricsAddr)
		switch {
		case err != nil && m.Edge.MetricsOptional:
			m.Logger.Warn("no metrics listener: its default address is taken (--metrics-addr sets another)", "addr", m.Edge.MetricsAddr, "err", err)
			mln = nil
		case err != nil:
			ln.Close()
			srv.Close()
			db.Close()
			return fmt.Errorf("listen for metrics on %s: %w (--metrics-addr \"\" turns the metrics listener off)", m.Edge.MetricsAddr, err)
		default:
			m.MetricsURL = "http://" + mln.Addr().String()
		}
	}
	m.http = m.Edge.httpServer(srv.Handler(), m.Logger)
	serve := func(hs *http.Server, ln net.Listener) {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.failed <- err
		}
	}
	go serve(m.http, ln)
	if mln != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", srv.MetricsHandler())
		if m.Edge.Pprof {
			mux.HandleFunc("GET /debug/pprof/", pprof.Index)
			mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
			mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
			mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
		}
		m.metrics = m.Edge.httpServer(mux, m.Logger)
		go serve(m.metrics, mln)
		m.Logger.Info("metrics", "url", m.MetricsURL+"/metrics")
	}
	m.Logger.Info("serving", "url", m.URL, "db", dbName(m.DB))
	if err := m.SSH.start(m, m.terminalAdvisor()); err != nil {
		m.Close()
		return err
	}
	return nil
}

// Close stops accepting requests, drains the node (its leases handed to
// the other nodes, its WebSocket clients told to reconnect), lets requests
// in flight finish (up to ten seconds), and closes the database.
func (m *serveMain) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	errs = append(errs, m.SSH.close())
	if m.http != nil {
		// The listener closes first (Shutdown's first step, after which
		// it calls the functions registered on it); then the node drains:
		// its leases go to the other nodes and its WebSocket clients are
		// told to reconnect, which they do through the proxy to another
		// node, this one no longer listening (serve_shutdown.go).
		errs = append(errs, m.drainWhileShutdown(ctx))
	}
	if m.metrics != nil {
		errs = append(errs, m.metrics.Shutdown(ctx))
	}
	if m.TLS.redirect != nil {
		errs = append(errs, m.TLS.redirect.Shutdown(ctx))
	}
	if m.srv != nil {
		errs = append(errs, m.srv.Close())
	}
	if m.Tables != nil {
		m.Tables.Close() // solves under way stop: nothing waits for them now
	}
	if m.db != nil {
		errs = append(errs, m.db.Close())
	}
	return errors.Join(errs...)
}
