package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
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
	exec, upgrade := oldDatabase(t, path, "0001_init.sql", "0002_table_kind.sql")
	r := rules.MustPreset("classic")
	tb := store.Table{ID: "old", Seats: []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}, Seed: dice.SeedFrom("old")}
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
	db := upgrade()
	old, err := db.Table(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if old.Status != store.Playing || old.Actions != 1 || old.Seed != tb.Seed || old.Kind != game.Farkle || !sameRules(t, old, r) || old.Creator != "" || old.Reason != "" {
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
	if d, err := db.Table(ctx, "drag"); err != nil || d.Kind != game.Dragon || d.Status != store.Waiting {
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

// sameRules reports whether the table plays the ordinary game under r.
func sameRules(t *testing.T, tb store.Table, r rules.Rules) bool {
	t.Helper()
	v, err := tb.Variant()
	if err != nil {
		t.Fatalf("table %s: %v", tb.ID, err)
	}
	fv, ok := v.(*game.FarkleVariant)
	return ok && fv.RuleSet().Hash() == r.Hash()
}

// TestMigrateOneKind builds a database as a server of before package game
// left it (migrations 1 to 4): an ordinary table finished with its record
// in the first record format, and Dragon Farkle tables of both stored
// variants, one in play with its actions, one finished with its record in
// the Dragon format of its time. Opened with this code every table names
// its kind and opens its variant from its rules alone: the Dragon tables
// play the battle their variant named, their stored actions resume, and
// the old final records of both kinds read and verify.
func TestMigrateOneKind(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	exec, upgrade := oldDatabase(t, path, "0001_init.sql", "0002_table_kind.sql", "0003_failed_expired.sql", "0004_table_variant.sql")
	seats := mustJSON(t, []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bo", PlayerID: "p2"}})
	players := []string{"Ann", "Bo"}

	// An ordinary game played to the end, stored as the server stored it.
	r := rules.MustPreset("classic")
	r.Game.Target = 1000
	g, err := record.Start(r, players, dice.SeedFrom("ord"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New("steady", r)
	if err != nil {
		t.Fatal(err)
	}
	for !g.State.Over() {
		if _, err := g.Do(b.Choose(g.State)); err != nil {
			t.Fatal(err)
		}
	}
	g.Record.Reveal(dice.SeedFrom("ord"))
	exec(`INSERT INTO tables (id, rules, seats, seed, status, actions, created, updated, winners, scores, record) VALUES ('ord', ?, ?, ?, 'over', ?, 5, 6, '[0]', '[1000,0]', ?)`,
		mustJSON(t, r), seats, dice.SeedFrom("ord").Hex(), len(g.Record.Actions), mustJSON(t, g.Record))
	for i, e := range g.Record.Actions {
		exec(`INSERT INTO actions VALUES ('ord', ?, ?)`, i+1, mustJSON(t, e))
	}

	// Dragon tables stored the soldier table as their rules.
	soldiers := dragon.DefaultRules().Soldiers
	soldiers.Name = "dragon"
	army := dragon.MustGame(dragon.DefaultRules(), nil)
	src := dice.NewSource(dice.SeedFrom("army"))
	st, _, err := army.New(players, src)
	if err != nil {
		t.Fatal(err)
	}
	var acts []dragon.Action
	for range 6 {
		a := army.Legal(st)[0]
		if st, _, err = army.Apply(st, a, src); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	exec(`INSERT INTO tables (id, kind, variant, rules, seats, seed, status, actions, created, updated) VALUES ('army', 'dragon', 'army', ?, ?, ?, 'playing', ?, 7, 8)`,
		mustJSON(t, soldiers), seats, dice.SeedFrom("army").Hex(), len(acts))
	for i, a := range acts {
		exec(`INSERT INTO actions VALUES ('army', ?, ?)`, i+1, mustJSON(t, a))
	}
	// A finished Dragon game, its record in the format of its time.
	fin, all := st, append([]dragon.Action(nil), acts...)
	for n := 0; !fin.Over(); n++ {
		if n > 5000 {
			t.Fatal("no end after 5000 actions")
		}
		legal := army.Legal(fin)
		a := legal[n%len(legal)]
		if fin, _, err = army.Apply(fin, a, src); err != nil {
			t.Fatal(err)
		}
		all = append(all, a)
	}
	old := dragon.NewRecord(army, players, dice.SeedFrom("army"))
	old.Actions, old.Winners, old.Slain = all, fin.Winners, fin.Slain
	oldJSON, err := old.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO tables (id, kind, variant, rules, seats, seed, status, actions, created, updated, winners, record) VALUES ('dover', 'dragon', 'army', ?, ?, ?, 'over', ?, 7, 9, ?, ?)`,
		mustJSON(t, soldiers), seats, dice.SeedFrom("army").Hex(), len(all), mustJSON(t, fin.Winners), string(oldJSON))
	exec(`INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated) VALUES ('classic', 'dragon', ?, ?, ?, 'waiting', 0, 9, 9)`,
		mustJSON(t, soldiers), seats, dice.SeedFrom("classic").Hex())
	db := upgrade()
	ord, err := db.Table(ctx, "ord")
	if err != nil {
		t.Fatal(err)
	}
	if ord.Kind != game.Farkle || !sameRules(t, ord, r) {
		t.Fatalf("migrated ordinary table: kind %q rules %s", ord.Kind, ord.Rules)
	}
	rec, err := db.FinalRecord(ctx, "ord")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := game.Verify(rec); err != nil || rec.Kind != game.Farkle || len(rec.Actions) != len(g.Record.Actions) {
		t.Fatalf("the old final record reads as %s with %d actions (%v)", rec.Kind, len(rec.Actions), err)
	}
	for id, battle := range map[string]string{"army": dragon.BattleArmy, "dover": dragon.BattleArmy, "classic": dragon.BattleClassic} {
		tb, err := db.Table(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		v, err := tb.Variant()
		if err != nil {
			t.Fatalf("table %s: %v", id, err)
		}
		dv, ok := v.(*game.DragonVariant)
		if !ok || tb.Kind != game.Dragon || dv.Game().Rules().Battle != battle {
			t.Fatalf("table %s opens as %T with rules %s, want Dragon Farkle with the %s battle", id, v, tb.Rules, battle)
		}
	}
	drec, err := db.FinalRecord(ctx, "dover")
	if err != nil {
		t.Fatal(err)
	}
	if g, _, err := game.Verify(drec); err != nil || drec.Kind != game.Dragon || fmt.Sprint(g.Winners()) != fmt.Sprint(fin.Winners) {
		t.Fatalf("the old Dragon Farkle record reads as %s and verifies with %v", drec.Kind, err)
	}
	tb, _ := db.Table(ctx, "army")
	v, _ := tb.Variant()
	stored, err := db.Actions(ctx, "army")
	if err != nil {
		t.Fatal(err)
	}
	rec = game.NewRecord(v, players, tb.Seed)
	rec.Actions = stored
	p, _, err := game.Resume(rec, tb.Seed)
	if err != nil {
		t.Fatalf("the stored Dragon Farkle actions do not resume: %v", err)
	}
	if got := p.Game().(*game.DragonGame).State(); got.Turn != st.Turn || got.Pool != st.Pool || p.Game().Version() != len(acts) {
		t.Fatalf("resumed at turn %d pool %d, want %d %d", got.Turn, got.Pool, st.Turn, st.Pool)
	}
}

// oldDatabase creates the database file at path with the schema of the
// named migrations only, as a server of their time left it. It returns a
// function that runs a statement on it or fails the test, and upgrade,
// which closes it and opens it with this code (closed when the test ends).
func oldDatabase(t *testing.T, path string, migrations ...string) (exec func(q string, args ...any), upgrade func() *sqlite.DB) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=foreign_keys(ON)")
	if err != nil {
		t.Fatal(err)
	}
	exec = func(q string, args ...any) {
		t.Helper()
		if _, err := raw.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`)
	for i, name := range migrations {
		body, err := os.ReadFile(filepath.Join("migrations", name))
		if err != nil {
			t.Fatal(err)
		}
		exec(string(body))
		exec(`INSERT INTO schema_migrations VALUES (?, ?, 1)`, i+1, name)
	}
	return exec, func() *sqlite.DB {
		t.Helper()
		if err := raw.Close(); err != nil {
			t.Fatal(err)
		}
		db, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
}

// TestMigrateSessions: a database of before sessions held every token
// (migrations 0001 to 0012) with a guest, an account still reached by its
// guest token and by a sign-in, and two accounts whose names look alike
// (made before look-alikes were refused): after the upgrade every old
// token still works as a session of its player, the look-alike accounts
// both stay, and their names keep a third look-alike out.
func TestMigrateSessions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	var names []string
	for i := 1; i <= 12; i++ {
		m, err := filepath.Glob(filepath.Join("migrations", fmt.Sprintf("%04d_*.sql", i)))
		if err != nil || len(m) != 1 {
			t.Fatalf("migration %d: %v %v", i, m, err)
		}
		names = append(names, filepath.Base(m[0]))
	}
	exec, upgrade := oldDatabase(t, path, names...)
	exec(`INSERT INTO players (id, name, token_hash, created) VALUES ('g1', 'Gus', 'hg', 1), ('a1', 'Victim', 'ha-guest', 2), ('a2', 'Vіctim', 'hb-guest', 3)`)
	exec(`INSERT INTO accounts (player_id, name_key, recovery_hash, created) VALUES ('a1', 'victim', 'r', 2), ('a2', 'vіctim', 'r', 3)`)
	exec(`INSERT INTO passkeys (id, player_id, label, credential, created) VALUES ('k1', 'a1', 'one', '{}', 2)`)
	exec(`INSERT INTO sessions (token_hash, player_id, created) VALUES ('ha-sess', 'a1', 5)`)
	db := upgrade()
	for tok, want := range map[string]string{"hg": "g1", "ha-guest": "a1", "ha-sess": "a1", "hb-guest": "a2"} {
		s, p, err := db.SessionByToken(ctx, tok)
		if err != nil || p.ID != want || s.ID == "" || s.LastSeen.IsZero() {
			t.Fatalf("the old token %s after the upgrade: %+v of %+v, %v; want a session of %s", tok, s, p, err, want)
		}
	}
	ss, err := db.Sessions(ctx, "a1")
	if err != nil || len(ss) != 2 || ss[0].TokenHash != "ha-sess" || ss[0].ID == ss[1].ID {
		t.Fatalf("the account's sessions after the upgrade: %+v, %v", ss, err)
	}
	for _, id := range []string{"a1", "a2"} {
		if _, err := db.Account(ctx, id); err != nil {
			t.Fatalf("account %s after the upgrade: %v", id, err)
		}
	}
	if err := db.CreatePlayer(ctx, store.Player{ID: "p3", Name: "Guest", TokenHash: "h3"}); err != nil {
		t.Fatal(err)
	}
	err = db.CreateAccount(ctx, store.Account{PlayerID: "p3", Name: "VICTIM", RecoveryHash: "r"}, store.Passkey{ID: "k3", Credential: json.RawMessage(`{}`)}, store.Session{TokenHash: "s3"})
	if store.Code(err) != store.ECONFLICT {
		t.Fatalf("an account named like two old ones: %v, want ECONFLICT", err)
	}
}
