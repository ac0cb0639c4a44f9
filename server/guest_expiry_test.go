package server_test

import (
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
)

// logSignal is a slog handler that sends on its channel each time a record
// with its message is logged.
type logSignal struct {
	msg string
	ch  chan slog.Record
}

func (h logSignal) Enabled(context.Context, slog.Level) bool { return true }
func (h logSignal) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		select {
		case h.ch <- r:
		default:
		}
	}
	return nil
}
func (h logSignal) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h logSignal) WithGroup(string) slog.Handler      { return h }

// TestGuestsExpire: a guest that nothing keeps is deleted once it has not
// been seen for Options.GuestExpiry, and its token then signs nobody in (a
// new guest may be made with it, as with none); a guest that made a table
// stays.
func TestGuestsExpire(t *testing.T) {
	expired := logSignal{msg: "guests expired", ch: make(chan slog.Record, 1)}
	ts := start(t, "", server.Options{GuestExpiry: 300 * time.Millisecond, BotDelay: time.Hour, Logger: slog.New(expired)})
	ctx := ctxT(t, 30*time.Second)
	bob := newPlayer(t, ts, "Bob") // made first: the expiry, oldest first, weighs him before Ann
	if _, err := bob.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"}); err != nil {
		t.Fatal(err)
	}
	ann := newPlayer(t, ts, "Ann")
	for gone := false; !gone; {
		select {
		case <-expired.ch:
		case <-ctx.Done():
			t.Fatal("Ann, who did nothing, did not expire")
		}
		_, err := ts.Store.Player(ctx, ann.ID)
		if gone = store.Code(err) == store.ENOTFOUND; !gone && err != nil {
			t.Fatal(err)
		}
	}
	var me *struct{ ID string }
	if err := ann.Do(ctx, "GET", "/api/me", nil, &me); err != nil || me != nil {
		t.Fatalf("GET /api/me with the token of a guest expired: %+v, %v; want null", me, err)
	}
	if _, _, err := ann.NewPlayer(ctx, "Ann again"); err != nil {
		t.Fatalf("a new guest from the browser of an expired one: %v", err)
	}
	if err := bob.Do(ctx, "GET", "/api/me", nil, &me); err != nil || me == nil || me.ID != bob.ID {
		t.Fatalf("Bob, who made a table, after the expiry: %+v, %v", me, err)
	}
	if a := send(t, nil, http.MethodGet, ts.URL+"/api/players/"+bob.ID+"/stats", ""); a.Status != 200 {
		t.Fatalf("Bob's stats: %v", a)
	}
}
