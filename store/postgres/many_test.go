package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/sqlstore"
)

// TestBatchManySameAsAlone: a batch writes its tables' later actions with
// one statement; its answers and what it leaves in the database are those
// of each action written alone. Two sets of tables in the same states take
// the same random appends, one set as batches, the other one action at a
// time (the statement of one action): every answer's code and every
// table's row and actions agree, round after round, through actions that
// follow, that are taken or leave a gap, first actions, tables twice in a
// batch, tables waiting, adjourned or over, tables that do not exist and
// a clock that moves past updated's two seconds.
func TestBatchManySameAsAlone(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "many")
	now := time.Unix(1_800_000_000, 0)
	db.Now = func() time.Time { return now }
	const tables = 12
	rng := rand.New(rand.NewPCG(29, 25))
	for i := range tables {
		newTableOn(t, db, fmt.Sprint("a", i))
		newTableOn(t, db, fmt.Sprint("b", i))
	}
	count := make([]int, tables) // each pair's actions, as the alone set has them
	for round := range 40 {
		now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		// Now and then a status set behind the tables' backs, on both.
		if round%5 == 4 {
			i := rng.IntN(tables)
			st := []string{"playing", "adjourned", "over", "waiting"}[rng.IntN(4)]
			for _, set := range []string{"a", "b"} {
				if _, err := db.W.ExecContext(ctx, `UPDATE tables SET status = $1 WHERE id = $2`, st, fmt.Sprint(set, i)); err != nil {
					t.Fatal(err)
				}
			}
		}
		type spec struct {
			i, n  int  // table (-1: none such) and action number
			quiet bool // no hint (the batch's hints are sent only for the others)
		}
		var specs []spec
		for i := range tables {
			if rng.IntN(4) == 0 {
				continue
			}
			n := count[i] + 1
			switch rng.IntN(10) {
			case 0:
				n = count[i] // taken
			case 1:
				n = count[i] + 2 // a gap
			case 2:
				n = 1
			}
			specs = append(specs, spec{i, max(1, n), rng.IntN(2) == 0})
			if rng.IntN(12) == 0 { // the same table twice
				specs = append(specs, spec{i, max(1, n) + 1, rng.IntN(2) == 0})
			}
		}
		if rng.IntN(3) == 0 {
			specs = append(specs, spec{-1, 1 + rng.IntN(5), false})
		}
		rng.Shuffle(len(specs), func(a, b int) { specs[a], specs[b] = specs[b], specs[a] })
		appends := func(set string) []*sqlstore.Append {
			out := make([]*sqlstore.Append, len(specs))
			for k, s := range specs {
				id := fmt.Sprint(set, s.i)
				if s.i < 0 {
					id = "missing"
				}
				a, err := sqlstore.NewAppend(id, s.n, json.RawMessage(fmt.Sprintf(`{"round":%d,"n":%d}`, round, s.n)), nil)
				if err != nil {
					t.Fatal(err)
				}
				a.Quiet = s.quiet
				out[k] = &a
			}
			return out
		}
		batched := db.CommitBatch(appends("a"))
		// The alone set in the batch's order of writing: by table, then
		// action number.
		alone := appends("b")
		order := make([]int, len(alone))
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(x, y int) int {
			if c := strings.Compare(alone[x].Table, alone[y].Table); c != 0 {
				return c
			}
			return alone[x].N - alone[y].N
		})
		for _, k := range order {
			got := db.CommitBatch(alone[k : k+1])[0]
			if store.Code(got) != store.Code(batched[k]) || (got == nil) != (batched[k] == nil) {
				t.Fatalf("round %d, action %d of table %d: alone %v, in the batch %v", round, specs[k].n, specs[k].i, got, batched[k])
			}
			if got == nil && specs[k].i >= 0 {
				count[specs[k].i] = specs[k].n
			}
		}
		for i := range tables {
			ra, rb := tableRow(t, db, fmt.Sprint("a", i)), tableRow(t, db, fmt.Sprint("b", i))
			if ra != rb {
				t.Fatalf("round %d, table %d: in batches %+v, alone %+v", round, i, ra, rb)
			}
			if ra.actions != count[i] {
				t.Fatalf("round %d, table %d: %d actions, want %d", round, i, ra.actions, count[i])
			}
		}
	}
	for i := range tables {
		ea, err := db.Actions(ctx, fmt.Sprint("a", i))
		mustDo(t, err)
		eb, err := db.Actions(ctx, fmt.Sprint("b", i))
		mustDo(t, err)
		if len(ea) != count[i] || len(eb) != count[i] {
			t.Fatalf("table %d: %d and %d actions stored, want %d", i, len(ea), len(eb), count[i])
		}
		for k := range ea {
			if string(ea[k]) != string(eb[k]) {
				t.Fatalf("table %d, action %d: %s in batches, %s alone", i, k+1, ea[k], eb[k])
			}
		}
	}
	if db.Together() < 50 {
		t.Fatalf("%d actions written by the statement for many: the test did not reach it", db.Together())
	}
}

// row is what an append writes of a table's row.
type row struct {
	status         string
	actions        int
	updated, acted int64
}

// tableRow reads table id's row.
func tableRow(t *testing.T, db *postgres.DB, id string) row {
	t.Helper()
	var r row
	mustDo(t, db.R.QueryRowContext(context.Background(), `SELECT status, actions, updated, coalesce(acted, 0) FROM tables WHERE id = $1`, id).Scan(&r.status, &r.actions, &r.updated, &r.acted))
	return r
}

// TestBatchManyFails: when the statement for many actions fails in the
// database (here an action row stored behind its table's back takes the
// key of one of them), the transaction is given up and each action is
// written alone: that one is refused (ECONFLICT), the others written, and
// nothing of the failed statement is left.
func TestBatchManyFails(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "manyfail")
	var batch []*sqlstore.Append
	for i := range 6 {
		id := fmt.Sprint("f", i)
		newTableOn(t, db, id)
		mustDo(t, db.AppendAction(ctx, id, 1, json.RawMessage(`{"n":1}`), nil))
		a, err := sqlstore.NewAppend(id, 2, json.RawMessage(`{"n":2}`), nil)
		mustDo(t, err)
		a.Quiet = true
		batch = append(batch, &a)
	}
	if _, err := db.W.ExecContext(ctx, `INSERT INTO actions (table_id, n, entry) VALUES ('f3', 2, '{"behind":true}')`); err != nil {
		t.Fatal(err)
	}
	together := db.Together()
	errs := db.CommitBatch(batch)
	for i, err := range errs {
		if want := i != 3; (err == nil) != want {
			t.Fatalf("action 2 of f%d: %v", i, err)
		}
	}
	if store.Code(errs[3]) != store.ECONFLICT {
		t.Fatalf("the action whose key was taken: %v, want ECONFLICT", errs[3])
	}
	if db.Together() != together {
		t.Fatalf("%d actions counted as written together by a statement that failed", db.Together()-together)
	}
	for i := range 6 {
		r := tableRow(t, db, fmt.Sprint("f", i))
		want := 2
		if i == 3 {
			want = 1
		}
		if r.actions != want {
			t.Fatalf("f%d: %d actions, want %d", i, r.actions, want)
		}
	}
}
