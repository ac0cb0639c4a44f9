package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// needPGClient returns Debian's PostgreSQL client tools' directory on the
// PATH (pg_dump, pg_restore, createdb); without them the test is skipped
// saying how to get them, except under CI=true, where it fails (.ci/run
// installs postgresql-client).
func needPGClient(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"pg_dump", "pg_restore", "createdb"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " is not installed: these tests run the guide's PostgreSQL backup with Debian's client tools (apt-get install postgresql-client)"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg + "; .ci/run installs them")
			}
			t.Skip(msg)
		}
	}
}

// guideBlockAfter returns the first ```sh block of the guide after the
// heading.
func guideBlockAfter(t *testing.T, guide, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(guide, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/OPERATIONS.md has no %q", heading)
	}
	_, rest, ok = strings.Cut(rest, "```sh\n")
	if !ok {
		t.Fatalf("docs/OPERATIONS.md has no sh block after %q", heading)
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatalf("the block after %q is not closed", heading)
	}
	return block
}

// TestGuidePostgresBackup runs the operator's guide's PostgreSQL backup
// and restore as written (pg_dump, createdb, pg_restore, farkle db check),
// only with the test's server and databases in place of the guide's: a
// database with finished games is dumped and restored into a new one, and
// db check verifies every record of the restored one. A restore that
// lost the games would fail the check's count.
func TestGuidePostgresBackup(t *testing.T) {
	needPGClient(t)
	base := pgtest.Base(t)
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	src, dst := "farkle_guide_"+hex.EncodeToString(b), "farkle_guide_"+hex.EncodeToString(b)+"_restored"
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", pgtest.Env, err)
	}
	if _, err := admin.Exec(ctx, `CREATE DATABASE `+src); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		defer admin.Close(ctx)
		for _, db := range []string{dst, src} {
			if _, err := admin.Exec(ctx, `DROP DATABASE IF EXISTS `+db+` WITH (FORCE)`); err != nil {
				t.Errorf("drop %s: %v", db, err)
			}
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	addr := func(db string) string {
		v := *u
		v.Path = "/" + db
		return v.String()
	}
	st, err := postgres.Open(ctx, addr(src))
	if err != nil {
		t.Fatal(err)
	}
	fillStore(t, st)
	st.Close()

	script := guideBlockAfter(t, repoFile(t, "docs/OPERATIONS.md"), "### PostgreSQL")
	for _, cmd := range []string{"pg_dump ", "createdb ", "pg_restore ", "farkle db check "} {
		if !strings.Contains(script, cmd) {
			t.Fatalf("the guide's PostgreSQL block lacks %q:\n%s", cmd, script)
		}
	}
	script = strings.NewReplacer("'postgres://farkle@db.internal/farkle_restored'", "'"+addr(dst)+"'",
		"'postgres://farkle@db.internal/farkle'", "'"+addr(src)+"'", "farkle_restored", dst).Replace(script)
	if strings.Contains(script, "db.internal") {
		t.Fatalf("the guide's block names a server the test does not replace:\n%s", script)
	}
	bin := t.TempDir()
	if err := os.Symlink(farkleBin, filepath.Join(bin, "farkle")); err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("bash", "-euo", "pipefail", "-c", script)
	sh.Dir = t.TempDir()
	// createdb and pg_restore --dbname=NAME reach the server through
	// libpq's variables, as they would on the operator's machine.
	sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	pass, _ := u.User.Password()
	for k, v := range map[string]string{"PGHOST": u.Hostname(), "PGPORT": u.Port(), "PGUSER": u.User.Username(), "PGPASSWORD": pass, "PGSSLMODE": u.Query().Get("sslmode")} {
		if v != "" {
			sh.Env = append(sh.Env, k+"="+v)
		}
	}
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("the guide's PostgreSQL backup: %v\n%s\n%s", err, script, out)
	}
	if !strings.Contains(string(out), "is sound") || !strings.Contains(string(out), "2 finished games, every record verified") {
		t.Fatalf("db check of the restored database: %s", out)
	}
	t.Logf("%s", out)
}
