// Package servertest runs a real farkle server for tests of its clients:
// package server on a SQLite file in the test's temp directory, its web
// routes on 127.0.0.1.
package servertest

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// Server is a real server on 127.0.0.1:0 over a real SQLite file.
type Server struct {
	URL     string
	Metrics string      // the metrics listener's base URL (GET /metrics)
	DB      *sqlite.DB  // the SQLite store, nil on another
	Store   store.Store // the store, whatever it is
	Srv     *server.Server
	http    *http.Server
	metrics *httptest.Server
}

func Quiet() *slog.Logger {
	return slog.New(slog.NewTextHandler(discard{}, &slog.HandlerOptions{Level: slog.LevelError}))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// StartFile starts a server on the database file path (a new one in a temp
// dir when path is empty); bots act without delay unless opt says.
func StartFile(t testing.TB, path string, opt server.Options) *Server {
	t.Helper()
	return StartAt(t, "127.0.0.1:0", path, opt)
}

// StartAt is start on a given address (to restart on the same port).
func StartAt(t testing.TB, addr, path string, opt server.Options) *Server {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "farkle.db")
	}
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ts := StartOn(t, addr, db, opt)
	ts.DB = db
	return ts
}

// StartOn is startAt on any store, which the server closes when it stops.
func StartOn(t testing.TB, addr string, db store.Store, opt server.Options) *Server {
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
		opt.Logger = Quiet()
	}
	srv, err := server.New(ctx, db, opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ts := &Server{URL: "http://" + ln.Addr().String(), Store: db, Srv: srv, http: &http.Server{Handler: srv.Handler()}}
	go ts.http.Serve(ln)
	ts.metrics = httptest.NewServer(srv.MetricsHandler())
	ts.Metrics = ts.metrics.URL
	t.Cleanup(ts.Stop)
	return ts
}

// Stop shuts the server down (again is a no-op).
func (ts *Server) Stop() {
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

// Start runs a server on a new SQLite file in the test's temp directory
// until the test ends (StartFile with no path).
func Start(t testing.TB, o server.Options) *Server {
	t.Helper()
	return StartFile(t, "", o)
}
