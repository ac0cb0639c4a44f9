package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := postgres.Open(context.Background(), pgtest.DSN(t))
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}

// TestCluster: two nodes on one database share a table's lease (one holds
// it; the other takes it once it expires) and each hears the other's
// changes.
func TestCluster(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	open := func(node string) *postgres.DB {
		db, err := postgres.OpenWith(ctx, dsn, postgres.Options{Node: node, LeaseTTL: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open("a"), open("b")
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	heard := b.Changes(lctx)
	if c := <-heard; c.Table != "" {
		t.Fatalf("first change %+v, want the one saying to read everything", c)
	}
	tb := store.Table{ID: "t1", Kind: game.Farkle, Rules: json.RawMessage(`{}`), Seats: []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}, Seed: dice.SeedFrom("t1"), Status: store.Playing}
	if err := a.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	orphans, err := b.Orphans(ctx)
	if err != nil || fmt.Sprint(orphans) != "[t1]" {
		t.Fatalf("Orphans = %v, %v; want [t1]", orphans, err)
	}
	if held, err := a.Claim(ctx, "t1"); !held || err != nil {
		t.Fatalf("a.Claim = %v, %v", held, err)
	}
	if held, err := b.Claim(ctx, "t1"); held || err != nil {
		t.Fatalf("b.Claim of a's live lease = %v, %v", held, err)
	}
	if got, err := a.Renew(ctx); err != nil || fmt.Sprint(got) != "[t1]" {
		t.Fatalf("a.Renew = %v, %v", got, err)
	}
	if orphans, _ := b.Orphans(ctx); len(orphans) != 0 {
		t.Fatalf("Orphans with a live lease = %v", orphans)
	}
	if _, err := b.Claim(ctx, "nope"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("Claim of no table: %v", err)
	}
	// a stops renewing: once the lease expires b takes it and a has lost it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		held, err := b.Claim(ctx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		if held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took the expired lease")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got, err := a.Renew(ctx); err != nil || len(got) != 0 {
		t.Fatalf("a.Renew after b took over = %v, %v", got, err)
	}
	// a's append is heard by b, with the table's number of actions.
	if err := a.AppendAction(ctx, "t1", 1, json.RawMessage(`{"x":1}`), nil); err != nil {
		t.Fatal(err)
	}
	if c := <-heard; c != (store.Change{Table: "t1", Actions: 1, Status: store.Playing}) {
		t.Fatalf("b heard %+v, want t1 at 1 action", c)
	}
	if err := a.FailTable(ctx, "t1", "test"); err != nil {
		t.Fatal(err)
	}
	if c := <-heard; c != (store.Change{Table: "t1", Actions: 1, Status: store.Failed}) {
		t.Fatalf("b heard %+v, want t1 failed", c)
	}
	if got, _ := b.Renew(ctx); len(got) != 0 {
		t.Fatalf("the lease of a failed table is still held: %v", got)
	}
}
