package server_test

import (
	"context"
	"errors"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/internal/tcpproxy"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// terminate ends every connection of node db to PostgreSQL, as a restart
// of the database would, and returns how many it ended.
func terminate(t testing.TB, dsn string, db *postgres.DB) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, "farkle "+db.Node()).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestClusterConnectionsKilled: while a person and bots play on node a,
// every database connection of node a is ended again and again (as a
// restart of PostgreSQL ends them). The node reconnects; its clients see
// at worst "server_error" and try again; the games end, nothing lost or
// doubled, and the watchers on node b see every action in order.
func TestClusterConnectionsKilled(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := startNode(t, dsn, "a", server.Options{BotDelay: 5 * time.Millisecond})
	b := startNode(t, dsn, "b", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, a, "Ann")
	people, err := ann.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	bots, err := ann.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Connect(ctx, people.ID); err != nil {
		t.Fatal(err)
	}
	ids := []string{people.ID, bots.ID}
	watchers := make([]*player, len(ids))
	progress := make(chan int, 1024)
	for i, id := range ids {
		watchers[i] = &player{Client: wsclient.New(b.URL), Seat: -1}
		if err := watchers[i].Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, w := range watchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w.Last == nil || w.Last.Phase != "over" {
				m, err := w.Read(ctx)
				if err != nil {
					errs[i] = err
					return
				}
				if m.State != nil {
					progress <- m.State.Version
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs[2] = playThrough(ann, ctx)
	}()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	// End node a's connections each time the games have moved on by a few
	// actions, five times.
	kills, moved := 0, 0
loop:
	for kills < 5 {
		select {
		case <-done:
			break loop
		case <-progress:
			if moved++; moved >= 4 {
				if terminate(t, dsn, a.Store.(*postgres.DB)) > 0 {
					kills++
				}
				moved = 0
			}
		}
	}
	<-done
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	t.Logf("node a's connections were ended %d times", kills)
	if kills == 0 {
		t.Fatal("no connection was ended: the test proved nothing")
	}
	for i, id := range ids {
		checkConsecutive(t, watchers[i].Seen)
		rec := verified(t, b, id)
		if watchers[i].Last.Version != len(rec.Actions) {
			t.Fatalf("table %s: the watcher ended at version %d, the record has %d actions", id, watchers[i].Last.Version, len(rec.Actions))
		}
	}
}

// TestClusterCutOff: node a loses its database. It refuses the actions
// sent to it ("server_error": it cannot store them) rather than accept
// them, stores nothing, and stops its bots; node b takes the table over
// and the game goes on there to a record that verifies.
func TestClusterCutOff(t *testing.T) {
	dsn := pgtest.DSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Skip("FARKLE_TEST_POSTGRES is not a URL: the proxy needs its host")
	}
	px := tcpproxy.New(t, u.Host) // a node behind it is cut off from its database by Close
	viaProxy := *u
	viaProxy.Host = px.Addr()
	a := startNode(t, viaProxy.String(), "a", server.Options{})
	b := startNode(t, dsn, "b", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, a, "Ann")
	tb, err := ann.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for ann.Last == nil || ann.Last.Actor != ann.Seat {
		if _, err := ann.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	before, err := b.Store.Actions(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	px.Close()
	v := ann.Last.Version
	for range 3 {
		typ, d := choose(ann.Last)
		if err := ann.Act(ctx, v, typ, d); err != nil {
			t.Fatal(err)
		}
		m, err := ann.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type != "error" || m.Code != "server_error" {
			t.Fatalf("node a without its database answered %s %s %s, want server_error", m.Type, m.Code, m.Message)
		}
	}
	after, err := b.Store.Actions(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("%d actions stored while node a was cut off, want none", len(after)-len(before))
	}
	// Ann goes to node b, which takes the table's bot over once node a's
	// lease expires.
	ann.Close()
	ann.Client = at(ann.Client, b)
	ann.Last = nil
	if err := ann.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := playThrough(ann, ctx); err != nil {
		t.Fatal(err)
	}
	verified(t, b, tb.ID)
}
