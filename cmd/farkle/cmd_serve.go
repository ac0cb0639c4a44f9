package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store/sqlite"
)

func init() {
	register(&command{
		name:    "serve",
		args:    "[--addr :8080] [--db farkle.db]",
		summary: "the web game: open http://localhost:8080 and play against bots or friends",
		run:     runServe,
	})
}

func runServe(ctx context.Context, e *env, args []string) error {
	c := commands["serve"]
	fs := newFlags(e, c)
	addr := fs.String("addr", ":8080", "the address to listen on (host:port; port 0 picks a free port)")
	db := fs.String("db", "farkle.db", "the SQLite database file (created if missing)")
	botDelay := fs.Duration("bot-delay", 700*time.Millisecond, "the pause before a bot acts")
	verbose := fs.Bool("v", false, "log every request")
	getRules := rulesFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (serve takes only flags)", fs.Arg(0))
	}
	r, err := getRules()
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	m := &serveMain{Addr: *addr, DB: *db, BotDelay: *botDelay, Rules: r, Advisor: newServeAdvisor(bot.DefaultTables, true),
		Logger: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))}
	if err := m.Run(ctx); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "farkle: serving %s (database %s)\n", m.URL, m.DB)
	select {
	case <-ctx.Done():
		m.Logger.Info("shutting down")
	case err := <-m.failed:
		m.Close()
		return err
	}
	return m.Close()
}

// serveMain is the whole web game: the database, the game server and the
// HTTP listener. Run starts it and returns once it listens; Close shuts it
// down gracefully. Tests run it on :0 with a temporary database.
type serveMain struct {
	Addr     string
	DB       string
	BotDelay time.Duration
	Rules    rules.Rules // for "play now" tables
	Logger   *slog.Logger
	Advisor  server.Advisor

	URL string // the base URL, set by Run

	db     *sqlite.DB
	srv    *server.Server
	http   *http.Server
	failed chan error
}

// Run opens the database, resumes the tables and starts serving.
func (m *serveMain) Run(ctx context.Context) error {
	if m.Logger == nil {
		m.Logger = slog.Default()
	}
	db, err := sqlite.Open(ctx, m.DB)
	if err != nil {
		return err
	}
	m.db = db
	opt := server.Options{Logger: m.Logger, BotDelay: m.BotDelay, Advisor: m.Advisor, QuickRules: m.Rules}
	if m.BotDelay == 0 {
		opt.BotDelay = -1 // no pause
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
	m.http = &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn)}
	m.failed = make(chan error, 1)
	go func() {
		if err := m.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.failed <- err
		}
	}()
	m.Logger.Info("serving", "url", m.URL, "db", m.DB)
	return nil
}

// Close stops accepting requests, lets requests in flight finish (up to
// ten seconds), closes the WebSockets and the database.
func (m *serveMain) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	if m.http != nil {
		errs = append(errs, m.http.Shutdown(ctx))
	}
	if m.srv != nil {
		errs = append(errs, m.srv.Close())
	}
	if m.db != nil {
		errs = append(errs, m.db.Close())
	}
	return errors.Join(errs...)
}

// serveAdvisor is the server's Advisor on package advise: win
// probabilities from the duel table for two players once it is solved
// (solving it the first time takes minutes, so it is solved in the
// background after the first request), expected points from the solo
// policy meanwhile and for other numbers of players.
type serveAdvisor struct {
	tables     *bot.Tables
	solveDuels bool

	mu    sync.Mutex
	duels map[string]*advise.Advisor // rules hash -> duel advisor, once solved
	busy  map[string]bool            // duel solves under way
}

func newServeAdvisor(ts *bot.Tables, solveDuels bool) *serveAdvisor {
	return &serveAdvisor{tables: ts, solveDuels: solveDuels, duels: map[string]*advise.Advisor{}, busy: map[string]bool{}}
}

// advisor returns the best advisor ready now for a game of n players.
func (a *serveAdvisor) advisor(r rules.Rules, n int) (*advise.Advisor, error) {
	if n == 2 {
		h := r.Hash()
		a.mu.Lock()
		d, start := a.duels[h], false
		if d == nil && a.solveDuels && !a.busy[h] {
			a.busy[h], start = true, true
		}
		a.mu.Unlock()
		if d != nil {
			return d, nil
		}
		if start {
			go func() {
				d, err := advise.For(r, 2, a.tables)
				a.mu.Lock()
				defer a.mu.Unlock()
				delete(a.busy, h)
				if err == nil && d.Measure() == advise.WinProbability {
					a.duels[h] = d
				}
			}()
		}
	}
	solo, err := a.tables.Solo(r)
	if err != nil {
		return nil, err
	}
	return advise.New(r, nil, solo)
}

func measureName(m advise.Measure) string {
	if m == advise.WinProbability {
		return "win"
	}
	return "points"
}

// Advise implements server.Advisor.
func (a *serveAdvisor) Advise(s engine.State) (server.Advice, error) {
	adv, err := a.advisor(s.Rules(), len(s.Players))
	if err != nil {
		return server.Advice{}, err
	}
	res, err := adv.State(s)
	if err != nil {
		return server.Advice{}, err
	}
	out := server.Advice{Measure: measureName(res.Measure)}
	for i := range res.Choices {
		c := &res.Choices[i]
		var text string
		switch c.Action {
		case engine.Keep:
			text = fmt.Sprintf("keep %s (%d)", c.Keep, c.Points)
			switch c.Then {
			case "bank":
				text += fmt.Sprintf(", then bank %d", c.Total)
			case "throw":
				text += fmt.Sprintf(", then throw %d", c.Left)
			}
		case engine.Throw:
			text = fmt.Sprintf("throw %d", s.ToThrow())
		case engine.Bank:
			text = fmt.Sprintf("bank %d", c.Total)
		default:
			text = c.Action.String()
		}
		out.Choices = append(out.Choices, server.Choice{Action: c.Engine(), Text: text, Value: c.Value, Best: c.Best})
	}
	return out, nil
}

// Analyze implements server.Advisor.
func (a *serveAdvisor) Analyze(rec *record.Record) (server.Analysis, error) {
	adv, err := a.advisor(rec.Rules, len(rec.Players))
	if err != nil {
		return server.Analysis{}, err
	}
	rep, err := adv.Analyze(rec)
	if err != nil {
		return server.Analysis{}, err
	}
	out := server.Analysis{Measure: measureName(rep.Measure)}
	for _, p := range rep.Players {
		pa := server.PlayerAnalysis{Seat: p.Player, Name: p.Name, Decisions: p.Decisions, Mistakes: p.Decisions - p.Best, Lost: p.TotalLoss}
		for _, w := range p.Worst {
			pa.Worst = append(pa.Worst, server.Moment{Action: w.Action, Chosen: w.Played, Best: w.Best, Lost: w.Loss})
		}
		out.Players = append(out.Players, pa)
	}
	return out, nil
}
