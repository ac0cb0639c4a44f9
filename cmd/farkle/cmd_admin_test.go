package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// makeAccount stores a guest of the ID and makes it the account of the
// name with a passkey, as farkle serve would have.
func makeAccount(t *testing.T, ctx context.Context, st store.Store, id, name string) {
	t.Helper()
	if err := st.CreatePlayer(ctx, store.Player{ID: id, Name: "guest", TokenHash: "t" + id}); err != nil {
		t.Fatal(err)
	}
	cred, _ := json.Marshal(map[string]any{"id": id})
	if err := st.CreateAccount(ctx, store.Account{PlayerID: id, Name: name, RecoveryHash: "r"}, store.Passkey{ID: "k" + id, PlayerID: id, Label: "key", Credential: cred},
		store.Session{TokenHash: "s" + id}); err != nil {
		t.Fatal(err)
	}
}

// withStore runs f on the store at addr, opened for it and closed after
// (also while a node serves on it).
func withStore(t *testing.T, addr string, f func(ctx context.Context, st store.Store)) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, addr, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f(ctx, st)
}

// makeAccountIn is makeAccount on the database at addr.
func makeAccountIn(t *testing.T, addr, id, name string) {
	t.Helper()
	withStore(t, addr, func(ctx context.Context, st store.Store) { makeAccount(t, ctx, st, id, name) })
}

// seedAccounts stores the guest "Guest" (g1) and the accounts Maud (m1)
// and Ann (a1) in the database at addr, as farkle serve would have.
func seedAccounts(t *testing.T, addr string) {
	t.Helper()
	withStore(t, addr, func(ctx context.Context, st store.Store) {
		if err := st.CreatePlayer(ctx, store.Player{ID: "g1", Name: "Guest", TokenHash: "tg1"}); err != nil {
			t.Fatal(err)
		}
		makeAccount(t, ctx, st, "m1", "Maud")
		makeAccount(t, ctx, st, "a1", "Ann Lee")
	})
}

// moderatorsOf reads the moderators of the database back, and checks the
// audit log holds only farkle admin's entries.
func moderatorsOf(t *testing.T, addr string) []string {
	t.Helper()
	var out []string
	withStore(t, addr, func(ctx context.Context, st store.Store) {
		mods, err := st.Moderators(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mods {
			out = append(out, m.PlayerID)
		}
		log, err := st.AuditLog(ctx, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range log {
			if e.Moderator != operator || e.Reason != "farkle admin" {
				t.Errorf("an audit entry of farkle admin: %+v", e)
			}
		}
	})
	return out
}

// testAdmin runs farkle admin on the database at addr, named by
// $FARKLE_DB and once by --db.
func testAdmin(t *testing.T, addr string) {
	seedAccounts(t, addr)
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return execFarkleEnv(t, []string{dbEnv + "=" + addr}, "", append([]string{"admin"}, args...)...)
	}
	if out, errOut, code := run("moderator", "list"); code != 0 || !strings.Contains(out, "has no moderators") {
		t.Fatalf("list of none: %d %q %q", code, out, errOut)
	}
	if out, errOut, code := run("moderator", "add", "maud", "--db", addr); code != 0 || !strings.Contains(out, "Maud (m1) is a moderator") {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	if _, errOut, code := run("moderator", "add", "Maud"); code != 2 || !strings.Contains(errOut, "is a moderator already") {
		t.Fatalf("add twice: %d %q", code, errOut)
	}
	if _, errOut, code := run("moderator", "add", "Guest"); code != 2 || !strings.Contains(errOut, `no account is called "Guest"`) {
		t.Fatalf("a guest made a moderator: %d %q", code, errOut)
	}
	if _, errOut, code := run("moderator", "add", "Ann", "Lee"); code != 2 || !strings.Contains(errOut, "takes one account name") {
		t.Fatalf("two words: %d %q", code, errOut)
	}
	if out, errOut, code := run("moderator", "add", "Ann Lee"); code != 0 || !strings.Contains(out, "Ann Lee (a1) is a moderator") {
		t.Fatalf("add Ann Lee: %d %q %q", code, out, errOut)
	}
	if got := moderatorsOf(t, addr); strings.Join(got, ",") != "m1,a1" {
		t.Fatalf("moderators after two adds: %v", got)
	}
	out, errOut, code := run("moderator", "list")
	if code != 0 || !strings.HasPrefix(out, "Maud\tm1\tsince ") || !strings.Contains(out, "\nAnn Lee\ta1\tsince ") {
		t.Fatalf("list: %d %q %q", code, out, errOut)
	}
	if out, errOut, code := run("moderator", "remove", "Maud"); code != 0 || !strings.Contains(out, "Maud (m1) is no longer a moderator") {
		t.Fatalf("remove: %d %q %q", code, out, errOut)
	}
	if _, errOut, code := run("moderator", "remove", "Maud"); code != 2 || !strings.Contains(errOut, "is not a moderator") {
		t.Fatalf("remove twice: %d %q", code, errOut)
	}
	if got := moderatorsOf(t, addr); strings.Join(got, ",") != "a1" {
		t.Fatalf("moderators after the remove: %v", got)
	}
	for _, bad := range [][]string{{}, {"moderator"}, {"moderator", "promote", "x"}, {"user", "add", "x"}, {"moderator", "list", "x"}} {
		if _, errOut, code := run(bad...); code != 2 || !strings.HasPrefix(errOut, "farkle admin: admin ") {
			t.Errorf("farkle admin %q: exit %d, %q", bad, code, errOut)
		}
	}
}

// TestAdminModeratorsSQLite: farkle admin names, lists and removes the
// moderators of a SQLite database, only accounts, each change in the audit
// log; a database that does not exist is refused, not made.
func TestAdminModeratorsSQLite(t *testing.T) {
	dir := t.TempDir()
	testAdmin(t, filepath.Join(dir, "farkle.db"))
	missing := filepath.Join(dir, "typo.db")
	if _, errOut, code := execFarkle(t, "", "admin", "moderator", "list", "--db", missing); code != 2 || !strings.Contains(errOut, "no such database file") {
		t.Fatalf("a missing database: %d %q", code, errOut)
	}
	if m, _ := filepath.Glob(missing + "*"); len(m) != 0 {
		t.Fatalf("farkle admin made %v", m)
	}
}

// TestAdminModeratorsPostgres: the same on PostgreSQL.
func TestAdminModeratorsPostgres(t *testing.T) {
	testAdmin(t, pgtest.DSN(t))
}
