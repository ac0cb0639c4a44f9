package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// TestActionIsAHeapOnlyUpdate: an action at a table in play changes no
// indexed column of its row, so PostgreSQL writes the row's new version
// beside the old one and adds no entry to any of the table's four indexes
// (a heap-only update, counted by the transaction's statistics). It wrote
// updated before, which the index (status, updated) holds: every action
// added an entry to each index.
func TestActionIsAHeapOnlyUpdate(t *testing.T) {
	ctx := context.Background()
	db, err := postgres.OpenWith(ctx, pgtest.DSN(t), postgres.Options{Node: "hot"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	newTableOn(t, db, "h1")
	mustDo(t, db.AppendAction(ctx, "h1", 1, json.RawMessage(`{"n":1}`), nil)) // the first: waiting → playing
	before, err := db.Table(ctx, "h1")
	mustDo(t, err)
	tx, err := db.W.BeginTx(ctx, nil)
	mustDo(t, err)
	defer tx.Rollback()
	// The counts are the backend's not yet reported: earlier
	// transactions' may be among them; the difference is the actions'.
	counts := func() (updated, hot int) {
		mustDo(t, tx.QueryRowContext(ctx, `SELECT pg_stat_get_xact_tuples_updated(c.oid), pg_stat_get_xact_tuples_hot_updated(c.oid)
			FROM pg_class AS c WHERE c.oid = 'tables'::regclass`).Scan(&updated, &hot))
		return updated, hot
	}
	updated0, hot0 := counts()
	const n = 10
	for i := 2; i <= n+1; i++ {
		mustDo(t, db.AppendOneIn(ctx, tx, "h1", i, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))))
	}
	updated, hot := counts()
	updated, hot = updated-updated0, hot-hot0
	if updated != n || hot != n {
		t.Fatalf("%d actions updated %d rows of tables, %d of them heap-only: want %d and %d", n, updated, hot, n, n)
	}
	mustDo(t, tx.Commit())
	after, err := db.Table(ctx, "h1")
	mustDo(t, err)
	if after.Actions != n+1 || after.Updated.Before(before.Updated) || after.Status != before.Status {
		t.Fatalf("after the actions: %d actions, updated %v (was %v), status %s: want %d, not earlier, %s",
			after.Actions, after.Updated, before.Updated, after.Status, n+1, before.Status)
	}
}
