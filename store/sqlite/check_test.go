package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// filled writes a database of tables tables with actions actions each
// and closes it, leaving everything in the main file.
func filled(t testing.TB, path string, tables, actions int, opt sqlite.Options) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.OpenWith(ctx, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: game.Farkle, Rules: rulesJSON("classic"), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom(id)}); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, tables)
	for i := range tables {
		go func() {
			id := fmt.Sprint("t", i)
			for n := 1; n <= actions; n++ {
				if err := db.AppendAction(ctx, id, n, engineEntry(), nil); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range tables {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func wantDamaged(t *testing.T, path string, err error) {
	t.Helper()
	var d *sqlite.DamagedError
	if !errors.As(err, &d) {
		t.Fatalf("Open of a damaged file: %v, want a *DamagedError", err)
	}
	msg := err.Error()
	for _, want := range []string{path + " is damaged", "restore it from a backup", "move it aside", "sqlite3 " + path + " .recover"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

// TestOpenRefusesDamagedFile overwrites one page in the middle of a real
// database with garbage: Open refuses it, naming the file and what to do.
func TestOpenRefusesDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	filled(t, path, 4, 500, sqlite.Options{Synchronous: "NORMAL"})
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	pages := fi.Size() / page
	if pages < 10 {
		t.Fatalf("only %d pages written", pages)
	}
	// It opens before the damage.
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, page)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	if _, err := f.WriteAt(garbage, pages/2*page); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, check := range []string{"quick", "full"} {
		_, err = sqlite.OpenWith(context.Background(), path, sqlite.Options{Check: check})
		wantDamaged(t, path, err)
		t.Logf("check %s: %v", check, err)
	}
}

// TestOpenRefusesNonDatabase: a file that is not a SQLite database at all.
func TestOpenRefusesNonDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	text := strings.Repeat("this is not a database, just some text\n", 200)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := sqlite.Open(context.Background(), path)
	wantDamaged(t, path, err)
	t.Log(err)
	if got, _ := os.ReadFile(path); string(got) != text {
		t.Fatal("Open changed the file it refused")
	}
}

// TestHealthReadOnly: a file that cannot be written opens (nothing is due)
// but Health fails, as do writes; the same file read-write is healthy.
func TestHealthReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ro.db")
	filled(t, path, 1, 3, sqlite.Options{})
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Health(ctx); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Fatalf("Health of a read-only file: %v, want a read-only failure", err)
	} else {
		t.Log(err)
	}
	if got, err := db.Table(ctx, "t0"); err != nil || got.Actions != 3 {
		t.Fatalf("reading a read-only file: %+v, %v", got, err)
	}
	if err := db.AppendAction(ctx, "t0", 4, engineEntry(), nil); err == nil {
		t.Fatal("append to a read-only file succeeded")
	}
	rw, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	if err := rw.Health(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestHealthDiskFull: when the database cannot grow (here capped by
// MaxBytes, as a full disk would), writes fail and so does Health.
func TestHealthDiskFull(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "full.db")
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{MaxBytes: 512 << 10, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Health(ctx); err != nil {
		t.Fatal(err)
	}
	tb := store.Table{ID: "t", Kind: game.Farkle, Rules: rulesJSON("classic"), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom("t")}
	if err := db.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	var full error
	for n := 1; n <= 100000 && full == nil; n++ { // 512 KiB holds far fewer actions
		full = db.AppendAction(ctx, "t", n, engineEntry(), nil)
	}
	if full == nil || !strings.Contains(full.Error(), "full") {
		t.Fatalf("appends past the cap: %v, want a full database", full)
	}
	if err := db.Health(ctx); err == nil {
		t.Fatal("Health succeeded on a full database")
	} else {
		t.Log(err)
	}
}

// BenchmarkOpenCheck measures Open of a 100 MB database (24,000 tables of
// 80 actions, as the OS has it cached) with each Options.Check.
//
//	go test ./store/sqlite/ -run '^$' -bench OpenCheck -benchtime 3x
func BenchmarkOpenCheck(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "big.db")
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{Synchronous: "NORMAL", Check: "off"})
	if err != nil {
		b.Fatal(err)
	}
	tb := store.Table{ID: "t0", Kind: game.Farkle, Rules: rulesJSON("classic"), Seats: []store.Seat{{Name: "A", PlayerID: "p"}, {Name: "B", Bot: "steady"}}, Seed: dice.SeedFrom("t")}
	if err := db.CreateTable(ctx, tb); err != nil {
		b.Fatal(err)
	}
	if err := db.AppendAction(ctx, "t0", 1, engineEntry(), nil); err != nil {
		b.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, reason, creator)
			WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 24000)
			SELECT 'x' || i, kind, rules, seats, seed, 'over', 80, created + i, updated + i, '', 'p' || (i % 100) FROM tables, c WHERE id = 't0'`,
		`INSERT INTO actions (table_id, n, entry)
			WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 80)
			SELECT t.id, c.i, a.entry FROM tables t, c, actions a WHERE t.id <> 't0' AND a.table_id = 't0'`,
	} {
		if _, err := raw.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	raw.Close()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("database of %d MB", fi.Size()>>20)
	for _, check := range []string{"off", "quick", "full"} {
		b.Run(check, func(b *testing.B) {
			for range b.N {
				db, err := sqlite.OpenWith(ctx, path, sqlite.Options{Check: check})
				if err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
		})
	}
}
