package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/sqlite"
)

// botLoad plays bot games on a server, one after another on each of n
// workers, until stop is closed; it keeps the IDs of the games seen to end
// and when.
type botLoad struct {
	mu       sync.Mutex
	finished map[string]time.Time
	errs     []error
	wg       sync.WaitGroup
}

func startBotLoad(ctx context.Context, t *testing.T, base string, n int, stop <-chan struct{}) *botLoad {
	t.Helper()
	l := &botLoad{finished: map[string]time.Time{}}
	rules := map[string]any{"base": "classic", "game": map[string]any{"target": 1000}}
	for w := range n {
		host := wsclient.New(base)
		if _, _, err := host.NewPlayer(ctx, fmt.Sprint("Host", w)); err != nil {
			t.Fatal(err)
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				tb, err := host.CreateTable(ctx, rules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
				if err == nil {
					_, err = watch(ctx, base, tb.ID, func() {})
				}
				l.mu.Lock()
				if err != nil {
					l.errs = append(l.errs, err)
					l.mu.Unlock()
					return
				}
				l.finished[tb.ID] = time.Now()
				l.mu.Unlock()
			}
		}()
	}
	return l
}

// finishedBefore returns the games seen to end before at.
func (l *botLoad) finishedBefore(at time.Time) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []string
	for id, end := range l.finished {
		if end.Before(at) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (l *botLoad) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.finished)
}

// waitFor waits until the load has finished at least n games.
func (l *botLoad) waitFor(ctx context.Context, t *testing.T, n int) {
	t.Helper()
	for l.count() < n {
		select {
		case <-ctx.Done():
			t.Fatalf("only %d games finished", l.count())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestDBBackupUnderLoad backs up the database of a running farkle serve
// while bot games play on it, three times; every game seen to end before a
// backup began is in it, over, and the backup checks. Then the server
// stops, the last backup is restored in place of the database, and the
// server started on it serves every one of those games' records, which
// verify.
func TestDBBackupUnderLoad(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "farkle.db")
	stderr := &syncbuf.Buffer{}
	flags := []string{"--db", db, "--bot-delay", "0", "--rate-address", "0", "--rate-player", "0", "--ws-per-address", "0",
		"--max-bot-tables", "0", "--max-open-tables", "0"}
	cmd, base, _ := spawnServe(t, stderr, flags...)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	stop := make(chan struct{})
	load := startBotLoad(ctx, t, base, 4, stop)
	load.waitFor(ctx, t, 8)
	var backup string
	var inBackup []string
	for i := range 3 {
		began := time.Now()
		before := load.finishedBefore(began)
		backup = filepath.Join(dir, fmt.Sprintf("backup-%d.db", i))
		out, errOut, code := execFarkle(t, "", "db", "backup", "--from", db, "--to", backup)
		if code != 0 {
			t.Fatalf("db backup: exit %d: %s%s", code, out, errOut)
		}
		t.Logf("backup %d: %s (games finished: %d before, %d after)", i, strings.TrimSpace(out), len(before), load.count())
		if !strings.Contains(out, "every record verified") {
			t.Errorf("db backup said %q", out)
		}
		bk, err := sqlite.OpenWith(ctx, backup, sqlite.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range before {
			tb, err := bk.Table(ctx, id)
			if err != nil || tb.Status != store.Over {
				t.Errorf("game %s ended before backup %d began; in it: %v %v", id, i, tb.Status, err)
			}
		}
		bk.Close()
		inBackup = before
		load.waitFor(ctx, t, load.count()+2) // the games went on
	}
	close(stop)
	load.wg.Wait()
	for _, err := range load.errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Fatalf("the server's log:\n%s", stderr)
	}
	// Restore: stop the server, put the backup in place of the database
	// (its write-ahead log and shared memory files go: they belong to the
	// old file), start again.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v\n%s", err, stderr)
	}
	for _, f := range []string{db, db + "-wal", db + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	copyFile(t, backup, db)
	if out, errOut, code := execFarkle(t, "", "db", "check", db); code != 0 {
		t.Fatalf("db check of the restored database: exit %d: %s%s", code, out, errOut)
	}
	_, base, _ = spawnServe(t, io.Discard, flags...)
	for _, id := range inBackup {
		resp, err := http.Get(base + "/api/tables/" + id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("record of %s after the restore: HTTP %d %s", id, resp.StatusCode, data)
		}
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := game.Verify(rec); err != nil {
			t.Errorf("record of %s after the restore: %v", id, err)
		}
	}
	t.Logf("restored: %d games served and verified", len(inBackup))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// filledDB returns a SQLite database holding games of every kind and
// status (fillStore), closed.
func filledDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "farkle.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	fillStore(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDBCheck: a sound database checks; each kind of damage is found and
// named: a record changed, a stored outcome changed, a migration missing
// or unknown, a column or index gone, a file that is not a database.
func TestDBCheck(t *testing.T) {
	out, errOut, code := execFarkle(t, "", "db", "check", filledDB(t))
	if code != 0 || !strings.Contains(out, "2 finished games, every record verified") || !strings.Contains(out, "6 tables") {
		t.Fatalf("db check of a sound database: exit %d: %q %q", code, out, errOut)
	}
	for _, tc := range []struct {
		name    string
		damage  string // SQL run on the database
		mention string
	}{
		{"record", `UPDATE tables SET record = replace(record, '"dice":[', '"dice":[1,') WHERE id = 'over1'`, "over1"},
		{"outcome", `UPDATE tables SET scores = '[0,0]' WHERE id = 'over2'`, "table over2: stored winners"},
		{"actions", `UPDATE tables SET actions = actions + 1 WHERE id = 'over1'`, "table over1"},
		{"older", `DELETE FROM schema_migrations WHERE version = 18`, "lacks migrations [18]"},
		{"newer", `INSERT INTO schema_migrations VALUES (99, 'future', 0)`, "does not know"},
		{"index", `DROP INDEX ` + anIndex(t), "is missing"},
		{"column", `ALTER TABLE tables DROP COLUMN local`, "table tables is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filledDB(t)
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec(tc.damage); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			out, errOut, code := execFarkle(t, "", "db", "check", path)
			if code != 1 || !strings.Contains(errOut, tc.mention) {
				t.Fatalf("db check: exit %d, stdout %q, stderr %q: want exit 1 naming %q", code, out, errOut, tc.mention)
			}
		})
	}
	notDB := writeTestFile(t, "notes.db", strings.Repeat("not a database\n", 400))
	if _, errOut, code := execFarkle(t, "", "db", "check", notDB); code != 1 || !strings.Contains(errOut, "not a database") {
		t.Errorf("db check of a text file: exit %d, %q", code, errOut)
	}
}

// anIndex returns the name of one of the indexes of a new database.
func anIndex(t *testing.T) string {
	t.Helper()
	want, err := freshSQLiteSchema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range want {
		if o.Kind == "index" && !strings.HasPrefix(name, "sqlite_") {
			return name
		}
	}
	t.Fatal("a new database has no index")
	return ""
}

// TestDBBackupUsage: what db backup and db check refuse, each with one
// line naming the flag or file, and nothing created.
func TestDBBackupUsage(t *testing.T) {
	src := filledDB(t)
	dir := t.TempDir()
	exists := writeTestFile(t, "exists.db", "keep me")
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"db", "backup", "--from", src}, "--to"},
		{[]string{"db", "backup", "--from", filepath.Join(dir, "none.db"), "--to", filepath.Join(dir, "b.db")}, "no such database"},
		{[]string{"db", "backup", "--from", "postgres://h/db", "--to", filepath.Join(dir, "b.db")}, "pg_dump"},
		{[]string{"db", "backup", "--from", src, "--to", exists}, "--force"},
		{[]string{"db", "backup", "--from", src, "--to", src, "--force"}, "the database itself"},
		{[]string{"db", "backup", "--from", src, "--to", dir}, "not a file"},
		{[]string{"db", "backup", "--from", src, "--to", filepath.Join(dir, "b.db"), "extra"}, "extra"},
		{[]string{"db", "check"}, "one database"},
		{[]string{"db", "check", filepath.Join(dir, "none.db")}, "no such database"},
		{[]string{"db"}, "copy, backup or check"},
		{[]string{"db", "restore"}, "copy, backup or check"},
	} {
		_, errOut, code := execFarkle(t, "", tc.args...)
		checkBadInput(t, errOut, code, tc.mention)
	}
	if data, _ := os.ReadFile(exists); string(data) != "keep me" {
		t.Errorf("a refused backup changed %s", exists)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 0 {
		t.Errorf("refused commands left %v", left)
	}
	// --force replaces; the backup checks.
	out, errOut, code := execFarkle(t, "", "db", "backup", "--from", src, "--to", exists, "--force")
	if code != 0 || !strings.Contains(out, "2 finished games") {
		t.Fatalf("db backup --force: exit %d: %q %q", code, out, errOut)
	}
	if _, errOut, code := execFarkle(t, "", "db", "check", exists); code != 0 {
		t.Fatalf("db check of the backup: exit %d: %q", code, errOut)
	}
	// $FARKLE_DB names the database when --from is not given.
	to := filepath.Join(t.TempDir(), "env.db")
	if out, errOut, code := execFarkleEnv(t, []string{"FARKLE_DB=" + src}, "", "db", "backup", "--to", to); code != 0 || !strings.Contains(out, src) {
		t.Fatalf("db backup with FARKLE_DB: exit %d: %q %q", code, out, errOut)
	}
}

// TestDBCheckPostgres: db check of a PostgreSQL database verifies every
// finished game, and finds a record changed and a migration missing.
func TestDBCheckPostgres(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	fillStore(t, db)
	db.Close()
	out, errOut, code := runFarkle(t, "", "db", "check", dsn)
	if code != 0 || !strings.Contains(out, "2 finished games, every record verified") {
		t.Fatalf("db check: exit %d: %q %q", code, out, errOut)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE tables SET record = replace(record::text, '"dice":[', '"dice":[1,')::jsonb WHERE id = 'over1'`); err != nil {
		if _, err := conn.Exec(ctx, `UPDATE tables SET record = replace(record, '"dice":[', '"dice":[1,') WHERE id = 'over1'`); err != nil {
			t.Fatal(err)
		}
	}
	if _, errOut, code := runFarkle(t, "", "db", "check", dsn); code != 1 || !strings.Contains(errOut, "over1") {
		t.Fatalf("db check of a changed record: exit %d: %q", code, errOut)
	}
	if _, err := conn.Exec(ctx, `DELETE FROM schema_migrations WHERE version = 18`); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runFarkle(t, "", "db", "check", dsn); code != 1 || !strings.Contains(errOut, "lacks migrations [18]") {
		t.Fatalf("db check of an older schema: exit %d: %q", code, errOut)
	}
}
