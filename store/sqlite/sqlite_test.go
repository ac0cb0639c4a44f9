package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
	"github.com/farkle/farkle/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}

// TestReopen checks that data survives closing and that migrations run once.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "re.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	tb := store.Table{ID: "t", Kind: game.Farkle, Rules: rulesJSON("cardgames"), Seats: []store.Seat{{Name: "A", PlayerID: "a"}, {Name: "B", Bot: "steady"}}, Seed: dice.SeedFrom("s")}
	if err := db.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if got.Seed != tb.Seed || string(got.Rules) != string(tb.Rules) || got.Kind != game.Farkle {
		t.Fatalf("reopened table differs: %+v", got)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no migration files: %v", err)
	}
	if n != len(files) {
		t.Fatalf("%d migrations recorded, want %d (the files in migrations/)", n, len(files))
	}
	var mode string
	if err := raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Fatalf("journal_mode %q, want wal", mode)
	}
}

func TestOpenRefusesEmptyPath(t *testing.T) {
	if _, err := sqlite.Open(context.Background(), ""); store.Code(err) != store.EINVALID {
		t.Fatalf("Open(\"\") = %v, want EINVALID", err)
	}
}

// engineEntry is an action as an ordinary table stores it: the first
// seat's throw.
func engineEntry() json.RawMessage {
	v, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		panic(err)
	}
	return v.Entry(0, engine.ThrowBy(0), nil)
}

// BenchmarkAppendAction measures the cost of a durable commit: one table
// appending serially (each action its own commit) and 64 tables appending
// in parallel, as a busy server does (the group commit writes them in
// shared transactions), with synchronous NORMAL and FULL in the same run.
//
//	go test ./store/sqlite/ -run '^$' -bench AppendAction -benchmem -benchtime 2s
func BenchmarkAppendAction(b *testing.B) {
	for _, sync := range []string{"NORMAL", "FULL"} {
		for _, tc := range []struct {
			name   string
			tables int
		}{{"serial", 1}, {"parallel64", 64}} {
			b.Run(tc.name+"/"+sync, func(b *testing.B) {
				db, err := sqlite.OpenWith(context.Background(), filepath.Join(b.TempDir(), "b.db"), sqlite.Options{Synchronous: sync})
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				storetest.BenchAppend(b, db, tc.tables)
			})
		}
	}
}

// BenchmarkNewTable measures what a new game asks of the store outside
// the group commit: a table created, then read back, with the store's
// statements kept prepared and, for comparison in the same run, parsed
// and planned at each run as they were before.
//
//	go test ./store/sqlite/ -run '^$' -bench NewTable -benchmem
func BenchmarkNewTable(b *testing.B) {
	for _, keep := range []bool{true, false} {
		name := map[bool]string{true: "prepared", false: "unprepared"}[keep]
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "b.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if !keep {
				db.Prepared.Close()
			}
			rules := rulesJSON("classic")
			b.ReportAllocs()
			b.ResetTimer()
			defer storetest.ReportCPU(b)()
			for i := range b.N {
				id := fmt.Sprint("t", i)
				if err := db.CreateTable(ctx, store.Table{ID: id, Kind: game.Farkle, Rules: rules, Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom(id)}); err != nil {
					b.Fatal(err)
				}
				if _, err := db.Table(ctx, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestAppendAfterClose(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateTable(ctx, store.Table{ID: "t", Kind: game.Farkle, Rules: rulesJSON("classic"), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom("s")}); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendAction(ctx, "t", 1, engineEntry(), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := db.AppendAction(ctx, "t", 2, engineEntry(), nil); store.Code(err) != store.EINVALID {
		t.Fatalf("append after Close: %v, want EINVALID", err)
	}
}

// rulesJSON returns the preset's rules as a table stores them.
func rulesJSON(name string) json.RawMessage {
	v, err := game.NewFarkle(rules.MustPreset(name))
	if err != nil {
		panic(err)
	}
	return v.Rules()
}
