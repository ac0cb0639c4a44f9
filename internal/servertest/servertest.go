// Package servertest runs a real farkle server for tests of its clients:
// package server on a SQLite file in the test's temp directory, its web
// routes on 127.0.0.1.
package servertest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store/sqlite"
)

// Server is a running server.
type Server struct {
	URL string         // its web routes, http://127.0.0.1:PORT
	Srv *server.Server // the server
	DB  *sqlite.DB     // its database
}

// Start runs a server until the test ends. Bots act at once and the rate
// limits per address and per player are off (every test client comes
// from 127.0.0.1) unless o says otherwise; nothing is logged.
func Start(t testing.TB, o server.Options) *Server {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "farkle.db"))
	if err != nil {
		t.Fatal(err)
	}
	if o.BotDelay == 0 {
		o.BotDelay = -1
	}
	if o.AddressRate == 0 && o.PlayerRate == 0 {
		o.AddressRate, o.PlayerRate = -1, -1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := server.New(ctx, db, o)
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		db.Close()
	})
	return &Server{URL: "http://" + ln.Addr().String(), Srv: srv, DB: db}
}
