package server_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
)

// failingSanctions is a store whose sanctions cannot be read while fail is
// set (a database gone for a moment).
type failingSanctions struct {
	store.Store
	fail atomic.Bool
}

func (f *failingSanctions) Sanctions(ctx context.Context, filter store.SanctionFilter) ([]store.Sanction, error) {
	if f.fail.Load() {
		return nil, errors.New("the database is away")
	}
	return f.Store.Sanctions(ctx, filter)
}

// TestWebSocketWhileSanctionsFail: a player's connection whose sanctions
// cannot be read is still served (the failure is logged), and the table
// stays usable: another player joins it and the server closes. The error
// of that read once took the table's lock with it (the connection's
// handler returned holding it), so the table answered nobody again and the
// server's Close waited for it for ever.
func TestWebSocketWhileSanctionsFail(t *testing.T) {
	db := &failingSanctions{Store: openDB(t)}
	ts := startOn(t, "127.0.0.1:0", db, server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, 20*time.Second)
	ann := newPlayer(t, ts, "Ann")
	tb, err := ann.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	db.fail.Store(true)
	if err := ann.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer ann.Close()
	if m, err := ann.Read(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("Ann's welcome while sanctions fail: %v %v", m.Type, err)
	}
	db.fail.Store(false)
	bea := newPlayer(t, ts, "Bea")
	if _, err := bea.Join(ctx, tb.ID); err != nil {
		t.Fatalf("Bea joins the table: %v", err)
	}
	if err := bea.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer bea.Close()
	if m, err := bea.Read(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("Bea's welcome: %v %v", m.Type, err)
	}
	done := make(chan error, 1)
	go func() { done <- ts.Srv.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("the server's Close waits on a table's lock")
	}
}
