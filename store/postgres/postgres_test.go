package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"

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

// TestMigrateTogether: nodes starting together on an empty schema migrate
// it once (the advisory lock), and a node starting later finds nothing
// to do.
func TestMigrateTogether(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := postgres.Open(ctx, dsn)
			if err == nil {
				db.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	var names string
	if err := conn.QueryRow(ctx, `SELECT count(*), string_agg(name, ' ' ORDER BY version) FROM schema_migrations`).Scan(&n, &names); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("migrations/*.sql")
	if n != len(files) || !strings.HasPrefix(names, "0001_init.sql") {
		t.Fatalf("schema_migrations holds %d rows (%s), want one for each of the %d files", n, names, len(files))
	}
}

// TestHintsCarryNoSeed: the change hints of a whole game, read off the
// channel as any client of the database could, name the table and its
// count and status, never the seed or the moves.
func TestHintsCarryNoSeed(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `LISTEN `+db.Channel()); err != nil {
		t.Fatal(err)
	}
	r := rules.MustPreset("classic")
	r.Game.Target = 1000
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	seed := dice.SeedFrom("secret")
	tb := store.Table{ID: "t", Kind: v.Kind(), Rules: v.Rules(), Seats: []store.Seat{{Name: "A", Bot: "steady"}, {Name: "B", Bot: "steady"}}, Seed: seed, Status: store.Playing}
	if err := db.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	p, _, err := game.Start(v, []string{"A", "B"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	pick := rand.New(rand.NewPCG(1, 2))
	for n := 1; !p.Game().Over(); n++ {
		if n > 2000 {
			t.Fatal("no end after 2000 actions")
		}
		g := p.Game()
		legal := g.Legal(g.ToAct())
		if _, err := p.Do(g.ToAct(), legal[pick.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
		var fin *store.Finish
		if g := p.Game(); g.Over() {
			fin = &store.Finish{Record: p.Record(), Winners: g.Winners(), Scores: g.Scores()}
		}
		if err := db.AppendAction(ctx, "t", n, p.Record().Actions[n-1], fin); err != nil {
			t.Fatal(err)
		}
		note, err := conn.WaitForNotification(ctx)
		if err != nil {
			t.Fatal(err)
		}
		status := "playing"
		if fin != nil {
			status = "over"
		}
		if want := fmt.Sprintf("%d %s t", n, status); note.Payload != want {
			t.Fatalf("hint %q, want %q", note.Payload, want)
		}
		if strings.Contains(note.Payload, seed.Hex()) {
			t.Fatal("a hint carries the seed")
		}
	}
}
