package server_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// longRules make a game that outlasts the tests here.
var longRules = map[string]any{"base": "classic", "game": map[string]any{"target": rules.MaxTarget}}

// playSome plays n actions at the table of ps, one after the other: each
// is read by every player before the next is sent.
func playSome(t *testing.T, ctx context.Context, ps []*player, n int) {
	t.Helper()
	for _, p := range ps {
		for p.Last == nil || p.Seat < 0 {
			if _, err := p.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range n {
		var actor *player
		for _, p := range ps {
			if p.Last.Actor == p.Seat {
				actor = p
			}
		}
		if actor == nil || actor.Last.Phase == "over" {
			t.Fatalf("nobody to act at version %d (phase %s)", ps[0].Last.Version, ps[0].Last.Phase)
		}
		v := actor.Last.Version
		typ, d := choose(actor.Last)
		if err := actor.Act(ctx, v, typ, d); err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			for p.Last.Version <= v {
				m, err := p.Read(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if m.Type == "error" {
					t.Fatalf("%s: %s", m.Code, m.Message)
				}
			}
		}
	}
}

// connectAndJoin connects each player to the table, as the web page does
// before the game starts, and then seats the last (a two-player table
// whose first seat is its creator's).
func connectAndJoin(t *testing.T, ctx context.Context, id string, ps []*player) {
	t.Helper()
	for _, p := range ps {
		if err := p.Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
	}
	if _, err := ps[len(ps)-1].Join(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// holds reports whether node ts holds the table's lease (renewing it).
func holds(t *testing.T, ctx context.Context, ts *testServer, id string) bool {
	t.Helper()
	held, err := ts.Store.(store.Cluster).Renew(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Contains(held, id)
}

// TestClusterAffinity: a table created on node a and played by both its
// players on node b (a load balancer routing by table) moves to b: a lets
// it go at the first action it hears of, b takes its lease within a lease
// round, and no node plays again another's actions. Where the players are
// on two nodes, the table stays with its creator and each node follows
// the other's actions, as before.
func TestClusterAffinity(t *testing.T) {
	dsn := pgtest.DSN(t)
	// Nothing here waits for a lease to lapse (a table moves when its
	// node lets it go): a lease longer than clusterTTL keeps a node
	// starved of CPU for a second (a loaded machine) from losing one.
	const ttl = 10 * time.Second
	a, b := startNodeTTL(t, dsn, "a", ttl, server.Options{}), startNodeTTL(t, dsn, "b", ttl, server.Options{})
	ctx := ctxT(t, time.Minute)
	setUp := func(annOn, beaOn *testServer) (string, []*player) {
		ann, bea := newPlayer(t, a, "Ann"), newPlayer(t, b, "Bea")
		tb, err := ann.CreateTable(ctx, longRules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
		if err != nil {
			t.Fatal(err)
		}
		if !holds(t, ctx, a, tb.ID) {
			t.Fatal("the node the table was created on does not hold its lease")
		}
		// Ann waits at her table, as the web page does, and Bea looks at it
		// from the link's page before she takes her seat: each node has its
		// connection before the game starts (a node with none lets a table
		// another node plays go, whenever that happens).
		ps := []*player{{Client: at(ann.Client, annOn), Seat: -1}, {Client: at(bea.Client, beaOn), Seat: -1}}
		connectAndJoin(t, ctx, tb.ID, ps)
		return tb.ID, ps
	}
	followed := func(ts *testServer) float64 { return metricValue(t, ts, "farkle_followed_actions_total") }
	letGo := func(ts *testServer) float64 { return metricValue(t, ts, "farkle_tables_let_go_total") }

	// Both players on b.
	id, ps := setUp(b, b)
	playSome(t, ctx, ps, 10)
	deadline := time.Now().Add(10 * time.Second)
	for !holds(t, ctx, b, id) {
		if time.Now().After(deadline) {
			t.Fatal("the node of the table's players did not take its lease")
		}
		select { // the lease rounds are 200 ms apart: a look each 50 ms
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if holds(t, ctx, a, id) {
		t.Fatal("both nodes hold the lease")
	}
	playSome(t, ctx, ps, 30)
	if n := letGo(a); n != 1 {
		t.Fatalf("node a let %v tables go, want 1", n)
	}
	if fa, fb := followed(a), followed(b); fa != 0 || fb != 0 {
		t.Fatalf("with every connection on b, node a followed %v actions and b %v, want none", fa, fb)
	}
	for _, p := range ps {
		checkConsecutive(t, p.Seen)
	}

	// The players on two nodes: nothing moves, both nodes follow.
	id, ps = setUp(a, b)
	playSome(t, ctx, ps, 40)
	if !holds(t, ctx, a, id) || holds(t, ctx, b, id) {
		t.Fatal("with a player on each node the lease moved from the table's creator")
	}
	if n := letGo(a) + letGo(b); n != 1 {
		t.Fatalf("%v tables let go in all, want still 1", n)
	}
	if fa, fb := followed(a), followed(b); fa == 0 || fb == 0 {
		t.Fatalf("with a player on each node, node a followed %v actions and b %v: each should follow the other's", fa, fb)
	}
}
