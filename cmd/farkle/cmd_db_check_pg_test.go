package main

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// TestDBCheckActionsWithoutTable: PostgreSQL keeps no foreign key from the
// actions to their table (migration 0024), so db check looks for actions
// of no table itself: a sound database passes, one action written for a
// table that does not exist fails it, naming the table.
func TestDBCheckActionsWithoutTable(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	st, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	fillStore(t, st)
	st.Close()
	if out, errOut, code := execFarkle(t, "", "db", "check", dsn); code != 0 || !strings.Contains(out, "is sound") {
		t.Fatalf("db check of a sound database: exit %d\n%s%s", code, out, errOut)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO actions (table_id, n, entry) VALUES ('nowhere', 1, '{}')`); err != nil {
		t.Fatalf("an action of no table (is the foreign key still there?): %v", err)
	}
	_, errOut, code := execFarkle(t, "", "db", "check", dsn)
	if code != 1 || !strings.Contains(errOut, `actions of no table: 1 (the first of table "nowhere")`) {
		t.Fatalf("db check with an action of no table: exit %d, %s", code, errOut)
	}
}
