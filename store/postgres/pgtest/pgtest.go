// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema in the database that FARKLE_TEST_POSTGRES names, dropped when the
// test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Env is the variable naming the test database.
const Env = "FARKLE_TEST_POSTGRES"

// howTo says how to run the tests that need PostgreSQL.
const howTo = Env + " is not set: these tests need a PostgreSQL where the user may create schemas, e.g. " +
	Env + "=postgres://127.0.0.1:5432/test?sslmode=disable (.ci/run sets it)"

// Base returns the address in FARKLE_TEST_POSTGRES. Without it the test
// is skipped with a message saying how to run it, except under CI=true,
// where it fails.
func Base(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(Env)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(howTo)
		}
		t.Skip(howTo)
	}
	return dsn
}

// DSN returns the address of a new empty schema of the test database, as
// the search path of the connections made with it; the schema is dropped
// (with everything in it) when the test ends.
func DSN(t testing.TB) string {
	t.Helper()
	base := Base(t)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "farkle_test_" + hex.EncodeToString(b)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("pgtest: connect to %s: %v", Env, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("pgtest: drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		// A connection left open on the schema's tables fails the drop
		// rather than holding it forever.
		_, _ = conn.Exec(ctx, `SET lock_timeout = '10s'`)
		if _, err := conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", schema, err)
		}
	})
	return WithSearchPath(base, schema)
}

// WithSearchPath returns dsn with the schema as the connections' search
// path.
func WithSearchPath(dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err == nil {
			q := u.Query()
			q.Set("search_path", schema)
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	return dsn + " search_path=" + schema
}
