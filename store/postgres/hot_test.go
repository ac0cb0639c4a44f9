package postgres_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"
	"time"

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
	db := oneNode(t, "hot")
	newTableOn(t, db, "h1")
	mustDo(t, db.AppendAction(ctx, "h1", 1, json.RawMessage(`{"n":1}`), nil)) // the first: waiting → playing
	before, err := db.Table(ctx, "h1")
	mustDo(t, err)
	tx, err := db.W.BeginTx(ctx, nil)
	mustDo(t, err)
	defer tx.Rollback()
	counts := func() (updated, hot int) { return tablesUpdated(t, tx) }
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

// TestBatchedActionsAreHeapOnlyUpdates: the statement that writes many
// tables' later actions at once changes no indexed column either: each of
// its tables' rows is a heap-only update, as with the statement of one.
func TestBatchedActionsAreHeapOnlyUpdates(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "hotmany")
	var ids []string
	var ns []int
	var entries []json.RawMessage
	for i := range 8 {
		id := fmt.Sprint("m", i)
		newTableOn(t, db, id)
		mustDo(t, db.AppendAction(ctx, id, 1, json.RawMessage(`{"n":1}`), nil)) // waiting → playing
		ids, ns, entries = append(ids, id), append(ns, 2), append(entries, json.RawMessage(`{"n":2}`))
	}
	tx, err := db.W.BeginTx(ctx, nil)
	mustDo(t, err)
	defer tx.Rollback()
	updated0, hot0 := tablesUpdated(t, tx)
	wrote, err := db.AppendManyIn(ctx, tx, ids, ns, entries)
	mustDo(t, err)
	updated, hot := tablesUpdated(t, tx)
	updated, hot = updated-updated0, hot-hot0
	if wrote != len(ids) || updated != len(ids) || hot != len(ids) {
		t.Fatalf("%d actions (%d written) updated %d rows of tables, %d of them heap-only: want %d of each", len(ids), wrote, updated, hot, len(ids))
	}
}

// tablesUpdated returns the rows of tables that tx's backend updated so
// far, and how many of them heap-only. The counts are the backend's not
// yet reported: earlier transactions' may be among them; the difference
// between two readings is what came between them.
func tablesUpdated(t *testing.T, tx *sql.Tx) (updated, hot int) {
	t.Helper()
	mustDo(t, tx.QueryRowContext(context.Background(), `SELECT pg_stat_get_xact_tuples_updated(c.oid), pg_stat_get_xact_tuples_hot_updated(c.oid)
		FROM pg_class AS c WHERE c.oid = 'tables'::regclass`).Scan(&updated, &hot))
	return updated, hot
}

// TestUpdatedAtMostTwoSecondsStale: the nodes of the release before read
// only a table's updated; an action writes it again once it is 2 s old, so
// that they see it at most that stale, while the table's time of last
// change (the later of updated and acted) is the last action's.
func TestUpdatedAtMostTwoSecondsStale(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "stale")
	t0 := time.Unix(1_800_000_000, 0)
	now := t0
	db.Now = func() time.Time { return now }
	newTableOn(t, db, "s1")
	stored := func() (updated, acted time.Time) {
		var u, a int64
		mustDo(t, db.R.QueryRowContext(ctx, `SELECT updated, acted FROM tables WHERE id = 's1'`).Scan(&u, &a))
		return time.Unix(0, u), time.Unix(0, a)
	}
	for i, c := range []struct {
		at      time.Duration
		updated time.Duration // what the row's updated holds after the action
	}{{0, 0}, {time.Second, 0}, {1900 * time.Millisecond, 0}, {2100 * time.Millisecond, 2100 * time.Millisecond}, {3 * time.Second, 2100 * time.Millisecond}, {10 * time.Second, 10 * time.Second}} {
		now = t0.Add(c.at)
		mustDo(t, db.AppendAction(ctx, "s1", i+1, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i+1)), nil))
		u, a := stored()
		if !u.Equal(t0.Add(c.updated)) || !a.Equal(now) {
			t.Fatalf("action %d at +%s: updated +%s, acted +%s; want +%s and +%s", i+1, c.at, u.Sub(t0), a.Sub(t0), c.updated, c.at)
		}
		tb, err := db.Table(ctx, "s1")
		mustDo(t, err)
		if !tb.Updated.Equal(now) {
			t.Fatalf("action %d at +%s: the table's time of last change is +%s", i+1, c.at, tb.Updated.Sub(t0))
		}
	}
}

// oneNode opens the test's database as the node named node, closed when
// the test ends.
func oneNode(t *testing.T, node string) *postgres.DB {
	t.Helper()
	db, err := postgres.OpenWith(context.Background(), pgtest.DSN(t), postgres.Options{Node: node})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
