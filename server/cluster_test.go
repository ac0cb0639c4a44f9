package server_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// clusterTTL is the lease time of the test nodes: a dead node's tables are
// taken over within it and a renewal.
const clusterTTL = time.Second

// startNode starts a server node on the PostgreSQL database at dsn.
func startNode(t testing.TB, dsn, name string, opt server.Options) *testServer {
	t.Helper()
	return startNodeTTL(t, dsn, name, clusterTTL, opt)
}

// startNodeTTL is startNode with the lease time ttl.
func startNodeTTL(t testing.TB, dsn, name string, ttl time.Duration, opt server.Options) *testServer {
	t.Helper()
	// The name is unique over the database server, whose connections
	// other tests may end by their node's name.
	name = fmt.Sprintf("%s-%x", name, rand.Uint64())
	db, err := postgres.OpenWith(context.Background(), dsn, postgres.Options{Node: name, LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	if opt.LeaseEvery == 0 {
		opt.LeaseEvery = 200 * time.Millisecond
	}
	return startOn(t, "127.0.0.1:0", db, opt)
}

// at returns a client of the same player as c (its cookie) on node ts.
func at(c *wsclient.Client, ts *testServer) *wsclient.Client {
	d := *c
	d.Base = ts.URL
	d.Conn = nil
	return &d
}

// verified fetches the table's record from node ts, checks that it
// verifies, and returns it.
func verified(t testing.TB, ts *testServer, id string) *game.Record {
	t.Helper()
	rec, err := game.ParseRecord(recordData(t, wsclient.New(ts.URL), id))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := game.Verify(rec); err != nil {
		t.Fatalf("record of %s does not verify: %v", id, err)
	}
	return rec
}

// TestClusterTable: two people on two nodes and a bot play one table, a
// watcher follows it on a third node; every client sees every action in
// order, the game ends, and its record verifies, as stored, on every node.
func TestClusterTable(t *testing.T) {
	dsn := pgtest.DSN(t)
	nodes := []*testServer{startNode(t, dsn, "a", server.Options{}), startNode(t, dsn, "b", server.Options{}), startNode(t, dsn, "c", server.Options{})}
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, nodes[0], "Ann")
	bea := newPlayer(t, nodes[1], "Bea")
	tb, err := ann.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "human"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	// Bea joins on node b, which learns of the table from the database;
	// node a hears of her seat and starts the game.
	if _, err := bea.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := bea.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	watcher := &player{Client: wsclient.New(nodes[2].URL), Seat: -1}
	if err := watcher.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, p := range []*player{ann, bea} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.PlayToEnd(ctx)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs[2] = watchToEnd(watcher, ctx)
	}()
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*player{ann, bea, watcher} {
		checkConsecutive(t, p.Seen)
	}
	rec := verified(t, nodes[2], tb.ID)
	if got := watcher.Last.Version; got != len(rec.Actions) {
		t.Fatalf("the watcher's last version %d, the record has %d actions", got, len(rec.Actions))
	}
	stored, err := nodes[1].Store.Actions(ctx, tb.ID)
	if err != nil || len(stored) != len(rec.Actions) {
		t.Fatalf("%d actions stored (%v), the record has %d", len(stored), err, len(rec.Actions))
	}
}

// TestClusterTakeover: the node running a bots-only table dies (its
// leases are not given up); another node takes the table over within the
// lease time and the game goes on to its end, its watcher on the
// surviving node seeing every action in order.
func TestClusterTakeover(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := startNode(t, dsn, "a", server.Options{BotDelay: 20 * time.Millisecond})
	b := startNode(t, dsn, "b", server.Options{BotDelay: 20 * time.Millisecond})
	ctx := ctxT(t, time.Minute)
	host := newPlayer(t, a, "Host")
	tb, err := host.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	watcher := &player{Client: wsclient.New(b.URL), Seat: -1}
	if err := watcher.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for watcher.Last == nil || watcher.Last.Version < 3 {
		if _, err := watcher.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	a.Store.Close() // a dies: its bots stop, its leases stay until they expire
	a.Srv.Close()
	died := time.Now()
	if err := watchToEnd(watcher, ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("node b finished the game %v after node a died", time.Since(died))
	checkConsecutive(t, watcher.Seen)
	verified(t, b, tb.ID)
	got, err := b.Store.Table(ctx, tb.ID)
	if err != nil || got.Status != store.Over {
		t.Fatalf("table after the takeover: %+v, %v", got, err)
	}
}

// TestClusterRace: Ann holds her seat over two connections, one on each
// node, and sends the same action on both at once. The database takes one:
// one connection is refused (stale, or not her turn, or illegal, by how far
// its node had heard of the other's action), the other is not, and the game
// goes on to a record that verifies.
func TestClusterRace(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := startNode(t, dsn, "a", server.Options{}), startNode(t, dsn, "b", server.Options{})
	ctx := ctxT(t, 30*time.Second)
	ann := newPlayer(t, a, "Ann")
	tb, err := ann.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	ann2 := &player{Client: at(ann.Client, b), Seat: -1}
	for _, p := range []*player{ann, ann2} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		for p.Last == nil || p.Last.Actor != p.Seat || p.Last.Phase == "over" {
			if _, err := p.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if ann.Last.Version != ann2.Last.Version {
		t.Fatalf("the nodes show versions %d and %d", ann.Last.Version, ann2.Last.Version)
	}
	v := ann.Last.Version
	typ, d := choose(ann.Last)
	refused := make([]string, 2)
	var wg sync.WaitGroup
	for i, p := range []*player{ann, ann2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Act(ctx, v, typ, d); err != nil {
				refused[i] = err.Error()
				return
			}
			// The server answers a connection's messages in order: the
			// refusal, if any, comes before the pong.
			if err := p.Send(ctx, map[string]string{"type": "ping", "id": "after"}); err != nil {
				refused[i] = err.Error()
				return
			}
			for {
				m, err := p.Read(ctx)
				if err != nil {
					refused[i] = err.Error()
					return
				}
				if m.Type == "error" {
					refused[i] = m.Code
				}
				if m.Type == "pong" {
					return
				}
			}
		}()
	}
	wg.Wait()
	n := 0
	for _, r := range refused {
		switch r {
		case "":
		case "stale", "not_your_turn", "illegal":
			n++
		default:
			t.Fatalf("refusal %q", r)
		}
	}
	if n != 1 {
		t.Fatalf("refusals %q: want exactly one of the two actions taken", refused)
	}
	ann2.Close()
	if err := ann.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	rec := verified(t, a, tb.ID)
	stored, err := b.Store.Actions(ctx, tb.ID)
	if err != nil || len(stored) != len(rec.Actions) {
		t.Fatalf("%d actions stored (%v), the record has %d", len(stored), err, len(rec.Actions))
	}
}

// TestClusterHandover: a node that closes (a deploy, SIGTERM) gives its
// tables' leases up, so that another node takes them at once rather than
// when they expire; the game goes on there.
func TestClusterHandover(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := startNodeTTL(t, dsn, "a", time.Hour, server.Options{BotDelay: 20 * time.Millisecond})
	b := startNodeTTL(t, dsn, "b", time.Hour, server.Options{BotDelay: 20 * time.Millisecond})
	ctx := ctxT(t, time.Minute)
	host := newPlayer(t, a, "Host")
	tb, err := host.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	watcher := &player{Client: wsclient.New(b.URL), Seat: -1}
	if err := watcher.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for watcher.Last == nil || watcher.Last.Version < 3 {
		if _, err := watcher.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	a.Stop()
	// With an hour's lease, only a lease given up lets node b go on.
	if err := watchToEnd(watcher, ctx); err != nil {
		t.Fatal(err)
	}
	checkConsecutive(t, watcher.Seen)
	verified(t, b, tb.ID)
}
