package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/farkle/farkle/store"
)

// TestStatusRefused: the tables' status is checked by a trigger on the
// writes that set it (migration 0025), not by a CHECK compiled at every
// write: a status outside the six is still refused, on an insert and on
// an update, as a check violation naming the old constraint, and leaves
// the row as it was; the statuses the store writes pass.
func TestStatusRefused(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "s")
	newTableOn(t, db, "s1")
	refused := func(what string, err error) {
		t.Helper()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "23514" || pe.ConstraintName != "tables_status_check" {
			t.Fatalf("%s: %v, want a check violation of tables_status_check", what, err)
		}
	}
	_, err := db.W.ExecContext(ctx, `UPDATE tables SET status = 'lost' WHERE id = 's1'`)
	refused("an update to status lost", err)
	_, err = db.W.ExecContext(ctx, `INSERT INTO tables (id, rules, seats, seed, status, created, updated) SELECT 's2', rules, seats, seed, 'bogus', created, updated FROM tables WHERE id = 's1'`)
	refused("an insert with status bogus", err)
	tb, err := db.Table(ctx, "s1")
	if err != nil || tb.Status != store.Waiting {
		t.Fatalf("s1 after the refused update: %+v, %v", tb.Status, err)
	}
	if _, err := db.Table(ctx, "s2"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("s2 after the refused insert: %v", err)
	}
	for n := 1; n <= 3; n++ { // the first action sets playing, the later ones no status
		mustDo(t, db.AppendAction(ctx, "s1", n, json.RawMessage(`{"n":1}`), nil))
	}
	mustDo(t, db.FailTable(ctx, "s1", "test"))
	if tb, err := db.Table(ctx, "s1"); err != nil || tb.Status != store.Failed || tb.Actions != 3 {
		t.Fatalf("s1 played and failed: %+v %d, %v", tb.Status, tb.Actions, err)
	}
}
