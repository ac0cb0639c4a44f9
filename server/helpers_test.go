package server_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// testServer is a real server on 127.0.0.1:0 over a real SQLite file.
type testServer struct {
	URL     string
	Metrics string      // the metrics listener's base URL (GET /metrics)
	DB      *sqlite.DB  // the SQLite store, nil on another
	Store   store.Store // the store, whatever it is
	Srv     *server.Server
	http    *http.Server
	metrics *httptest.Server
}

func quiet() *slog.Logger {
	return slog.New(slog.NewTextHandler(discard{}, &slog.HandlerOptions{Level: slog.LevelError}))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// start starts a server on the database file path (a new one in a temp
// dir when path is empty); bots act without delay unless opt says.
func start(t testing.TB, path string, opt server.Options) *testServer {
	t.Helper()
	return startAt(t, "127.0.0.1:0", path, opt)
}

// startAt is start on a given address (to restart on the same port).
func startAt(t testing.TB, addr, path string, opt server.Options) *testServer {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "farkle.db")
	}
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ts := startOn(t, addr, db, opt)
	ts.DB = db
	return ts
}

// startOn is startAt on any store, which the server closes when it stops.
func startOn(t testing.TB, addr string, db store.Store, opt server.Options) *testServer {
	t.Helper()
	ctx := context.Background()
	if opt.BotDelay == 0 {
		opt.BotDelay = -1
	}
	if opt.ActionRate == 0 {
		opt.ActionRate, opt.ActionBurst = 1000, 1000 // test clients act as fast as they can
		if opt.PlayerMessageRate == 0 {
			opt.PlayerMessageRate, opt.PlayerMessageBurst = 1000, 1000 // on every connection of theirs
		}
	}
	if opt.AddressRate == 0 && opt.PlayerRate == 0 {
		opt.AddressRate, opt.PlayerRate = -1, -1 // test clients all come from 127.0.0.1
	}
	if opt.Logger == nil {
		opt.Logger = quiet()
	}
	srv, err := server.New(ctx, db, opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{URL: "http://" + ln.Addr().String(), Store: db, Srv: srv, http: &http.Server{Handler: srv.Handler()}}
	go ts.http.Serve(ln)
	ts.metrics = httptest.NewServer(srv.MetricsHandler())
	ts.Metrics = ts.metrics.URL
	t.Cleanup(ts.Stop)
	return ts
}

// Stop shuts the server down (again is a no-op).
func (ts *testServer) Stop() {
	if ts.http == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts.http.Shutdown(ctx)
	ts.metrics.Close()
	ts.Srv.Close()
	ts.Store.Close()
	ts.http = nil
}

// choose is a simple player's choice (wsclient.Choose).
var choose = wsclient.Choose

// player is a test client seated at a table.
type player struct {
	*wsclient.Client
	ID    string
	Token string
	Seat  int
	Last  *wsclient.State // the latest state seen
	Seen  []int           // versions of every state seen, in order
}

func newPlayer(t testing.TB, ts *testServer, name string) *player {
	t.Helper()
	c := wsclient.New(ts.URL)
	id, tok, err := c.NewPlayer(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return &player{Client: c, ID: id, Token: tok, Seat: -1}
}

// next reads a message and tracks the state.
func (p *player) next(ctx context.Context) (wsclient.Msg, error) {
	m, err := p.Next(ctx)
	if err != nil {
		return m, err
	}
	if m.Type == "welcome" {
		p.Seat = m.You.Seat
	}
	if m.State != nil {
		p.Last = m.State
		p.Seen = append(p.Seen, m.State.Version)
	}
	return m, nil
}

// playToEnd plays p's seat with choose until the game is over; it fails on
// any error message.
func (p *player) playToEnd(ctx context.Context) error {
	for {
		if p.Last != nil && p.Last.Phase == "over" {
			return nil
		}
		if p.Last != nil && p.Last.Actor == p.Seat && p.Seat >= 0 {
			typ, d := choose(p.Last)
			if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
				return err
			}
			// Wait for the state after our action.
			v := p.Last.Version
			for p.Last.Version == v {
				m, err := p.next(ctx)
				if err != nil {
					return err
				}
				if m.Type == "error" {
					return errors.New(m.Code + ": " + m.Message)
				}
			}
			continue
		}
		m, err := p.next(ctx)
		if err != nil {
			return err
		}
		if m.Type == "error" {
			return errors.New(m.Code + ": " + m.Message)
		}
	}
}

// host returns a client with a new player, who may create tables.
func host(t testing.TB, ts *testServer) *wsclient.Client {
	t.Helper()
	c := wsclient.New(ts.URL)
	if _, _, err := c.NewPlayer(context.Background(), "Host"); err != nil {
		t.Fatal(err)
	}
	return c
}

// soloTable makes a new player a one-player table of the rules, connects
// it and reads its welcome; the connection is closed when the test ends.
func soloTable(t testing.TB, ctx context.Context, ts *testServer, rules any) (*player, wsclient.Table) {
	t.Helper()
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, rules, map[string]string{"type": "me"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if _, err := p.next(ctx); err != nil {
		t.Fatal(err)
	}
	return p, tb
}
