package abuse

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // to write what the server would refuse
)

// TestDamagedDatabase: a page in the middle of the database file
// overwritten with garbage. The server refuses to start, with a message
// that names the file and what to do, instead of starting and answering
// 500 later.
func TestDamagedDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "farkle.db")
	s := startServer(t, db, "--rate-address", "0", "--rate-player", "0")
	for i := range 40 { // enough rows for a file of several pages
		c := s.client()
		c.player(strings.Repeat("x", 20) + string(rune('a'+i%26)))
		tableID(t, c.table("classic", me, bot("steady")))
	}
	s.stop()
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	if st.Size() < 5*4096 {
		t.Fatalf("the database has only %d bytes", st.Size())
	}
	garbage := []byte(strings.Repeat("\xde\xad\xbe\xef", 1024))
	if _, err := f.WriteAt(garbage, (st.Size()/4096/2)*4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := exec.Command(farkleBin, append([]string{"serve", "--db", db}, quiet...)...).CombinedOutput()
	if err == nil {
		t.Fatalf("farkle serve started on a damaged database:\n%s", out)
	}
	msg := string(out)
	if !strings.Contains(msg, db) || !strings.Contains(strings.ToLower(msg), "damaged") {
		t.Errorf("the refusal does not name the file and say it is damaged:\n%s", msg)
	}
	if !strings.Contains(msg, "backup") && !strings.Contains(msg, "move it") {
		t.Errorf("the refusal does not say what to do:\n%s", msg)
	}
}

// TestStoredTableTheServerNowRefuses: a table stored before the rules had
// bounds (a target of 10^15 against the perfect bot — it killed the
// server at every start). The server starts, marks that table failed with
// the reason, lists it as such, keeps its record downloadable, and serves
// the other tables.
func TestStoredTableTheServerNowRefuses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "farkle.db")
	s := startServer(t, db)
	c := s.client()
	c.player("Ann")
	good := tableID(t, c.table("classic", me, bot("steady")))
	bad := tableID(t, c.table("classic", me, bot("perfect")))
	s.stop()
	// What an older server stored: the same table with a target far past
	// the bound.
	sqldb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sqldb.ExecContext(context.Background(),
		`UPDATE tables SET rules = json_set(rules, '$.game.target', 1000000000000000) WHERE id = ?`, bad)
	sqldb.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.start(); err != nil {
		t.Fatalf("the server does not start with a stored table it now refuses: %v", err)
	}
	s.alive()
	var tb struct{ Status, Reason string }
	c.do("GET", "/api/tables/"+bad, nil).json(t, &tb)
	if tb.Status != "failed" || tb.Reason == "" {
		t.Errorf("the refused table is %q (reason %q), want failed with a reason", tb.Status, tb.Reason)
	}
	if a := c.do("GET", "/api/tables/"+bad+"/record", nil); a.Status != http.StatusOK && a.Status != http.StatusNotFound {
		t.Errorf("the failed table's record: %s", a)
	}
	var ok struct{ Status string }
	c.do("GET", "/api/tables/"+good, nil).json(t, &ok)
	if ok.Status != "playing" {
		t.Errorf("the good table is %q after the restart", ok.Status)
	}
	s.restart()
	s.alive()
}

// TestDBCopyMissingSource: `farkle db copy --from missing.db` (issue 23:
// it created an empty SQLite file at that path before failing) is bad
// usage, exit 2, naming the file, and leaves its directory as it was: no
// database, no -wal or -shm beside it. The target is a PostgreSQL server
// nobody listens at: the source is refused before the target is tried.
func TestDBCopyMissingSource(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(farkleBin, "db", "copy", "--from", "missing.db", "--to", "postgres://127.0.0.1:1/none")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "missing.db") {
		t.Fatalf("db copy --from missing.db: %v, want exit 2 naming the file:\n%s", err, out)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("db copy --from missing.db left %s behind", e.Name())
	}
}
