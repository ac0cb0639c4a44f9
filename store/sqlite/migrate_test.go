package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// TestMigrateKeepsData builds a database with only the first two
// migrations' schema and rows in every table, as a server of before the
// failed and expired statuses left it, then opens it with this code: the
// rows survive the rebuild of the tables table, foreign keys still hold,
// and the new statuses and columns work.
func TestMigrateKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=foreign_keys(ON)")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := raw.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`)
	for i, name := range []string{"0001_init.sql", "0002_table_kind.sql"} {
		v := i + 1
		body, err := os.ReadFile(filepath.Join("migrations", name))
		if err != nil {
			t.Fatal(err)
		}
		exec(string(body))
		exec(`INSERT INTO schema_migrations VALUES (?, ?, 1)`, v, name)
	}
	r := rules.MustPreset("classic")
	tb := store.Table{ID: "old", Rules: r, Seats: []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}, Seed: dice.SeedFrom("old")}
	g, err := record.Start(r, []string{"Ann", "Bot"}, tb.Seed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New("steady", r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Do(b.Choose(g.State)); err != nil {
		t.Fatal(err)
	}
	// Write through today's code paths' formats: rules and seats JSON,
	// one action, a finished table with results and a waiting dragon one.
	rj, sj, ej := mustJSON(t, r), mustJSON(t, tb.Seats), mustJSON(t, g.Record.Actions[0])
	exec(`INSERT INTO players VALUES ('p1', 'Ann', 'h1', 1)`)
	exec(`INSERT INTO tables (id, rules, seats, seed, status, actions, created, updated) VALUES ('old', ?, ?, ?, 'playing', 1, 10, 11)`, rj, sj, tb.Seed.Hex())
	exec(`INSERT INTO actions VALUES ('old', 1, ?)`, ej)
	exec(`INSERT INTO tables (id, rules, seats, seed, status, actions, created, updated, winners, scores, record) VALUES ('done', ?, ?, 'ab', 'over', 0, 5, 6, '[0]', '[500,100]', '{}')`, rj, sj)
	exec(`INSERT INTO results VALUES ('done', 0, 'p1', 'Ann', 500, 1, 3, 1, 500, 300, 0, 6)`)
	exec(`INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated) VALUES ('drag', 'dragon', ?, ?, 'cd', 'waiting', 0, 7, 7)`, rj, sj)
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old, err := db.Table(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if old.Status != store.Playing || old.Actions != 1 || old.Seed != tb.Seed || old.Rules.Hash() != r.Hash() || old.Creator != "" || old.Reason != "" {
		t.Fatalf("migrated table: %+v", old)
	}
	acts, err := db.Actions(ctx, "old")
	if err != nil || len(acts) != 1 {
		t.Fatalf("migrated actions: %v, %v", acts, err)
	}
	done, err := db.Table(ctx, "done")
	if err != nil || done.Status != store.Over || len(done.Scores) != 2 || done.Scores[0] != 500 {
		t.Fatalf("migrated finished table: %+v, %v", done, err)
	}
	if st, err := db.Stats(ctx, "p1"); err != nil || st.Games != 1 || st.Wins != 1 {
		t.Fatalf("migrated stats: %+v, %v", st, err)
	}
	if d, err := db.Table(ctx, "drag"); err != nil || d.Kind != store.KindDragon || d.Status != store.Waiting {
		t.Fatalf("migrated dragon table: %+v, %v", d, err)
	}
	if n, err := db.CountTables(ctx, store.TableFilter{}); err != nil || n != 3 {
		t.Fatalf("%d tables after the migration (%v), want 3", n, err)
	}
	// The new statuses pass the new CHECK; the foreign keys still refer
	// to the rebuilt table.
	if err := db.FailTable(ctx, "old", "rules refused"); err != nil {
		t.Fatal(err)
	}
	if ids, err := db.ExpireWaiting(ctx, time.Unix(100, 0), "late"); err != nil || len(ids) != 1 || ids[0] != "drag" {
		t.Fatalf("ExpireWaiting after the migration = %v, %v", ids, err)
	}
	if err := db.Health(ctx); err != nil {
		t.Fatal(err)
	}
	check, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	var fkBad int
	if err := check.QueryRow(`SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fkBad); err != nil || fkBad != 0 {
		t.Fatalf("foreign key check after the migration: %d rows, %v", fkBad, err)
	}
	var ref string
	if err := check.QueryRow(`SELECT "table" FROM pragma_foreign_key_list('actions')`).Scan(&ref); err != nil || ref != "tables" {
		t.Fatalf("actions refer to %q (%v), want tables", ref, err)
	}
	var bad error
	_, bad = check.Exec(`UPDATE tables SET status = 'bogus' WHERE id = 'done'`)
	if bad == nil {
		t.Fatal("the status CHECK constraint is gone after the migration")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
