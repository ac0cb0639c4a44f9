package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/sqlstore"
)

// The group commit under load from two nodes: many tables' actions
// appended at once, some of them by both nodes (of two appending action n
// of a table, exactly one wins, the other is told ECONFLICT, whatever else
// shares its batch); every table ends with every action in order, and a
// third node listening hears each table's last action.
func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	const tables, actions = 24, 15
	heard := listening(t, nodes[1])
	for i := range tables {
		newTableOn(t, nodes[0], fmt.Sprintf("g%02d", i))
	}
	var wg sync.WaitGroup
	wins := make([][actions + 1]int, tables)
	var mu sync.Mutex
	for i := range tables {
		for node := range 2 {
			if node == 1 && i%3 != 0 {
				continue // every third table is played from both nodes at once
			}
			wg.Go(func() {
				id := fmt.Sprintf("g%02d", i)
				for n := 1; n <= actions; n++ {
					err := nodes[node].AppendAction(ctx, id, n, json.RawMessage(fmt.Sprintf(`{"n":%d,"node":%d}`, n, node)), nil)
					switch {
					case err == nil:
						mu.Lock()
						wins[i][n]++
						mu.Unlock()
					case store.Code(err) == store.ECONFLICT:
					default:
						t.Errorf("table %s action %d from node %d: %v", id, n, node, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	for i := range tables {
		id := fmt.Sprintf("g%02d", i)
		got, err := nodes[0].Actions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != actions {
			t.Fatalf("table %s has %d actions, want %d", id, len(got), actions)
		}
		for n := 1; n <= actions; n++ {
			if wins[i][n] != 1 {
				t.Errorf("table %s action %d was answered as written %d times", id, n, wins[i][n])
			}
			if !strings.Contains(string(got[n-1]), fmt.Sprintf(`"n":%d,`, n)) {
				t.Errorf("table %s action %d is %s", id, n, got[n-1])
			}
		}
	}
	// The group commits' counters (farkle_commit_*): each action won
	// once (a batch of appends that all lost writes none).
	b0, a0 := nodes[0].GroupCommits()
	b1, a1 := nodes[1].GroupCommits()
	if a0+a1 != tables*actions || b0+b1 == 0 {
		t.Errorf("the group commits counted %d and %d actions in %d and %d batches; %d were written", a0, a1, b0, b1, tables*actions)
	}
	if nodes[0].Batched()+nodes[1].Batched() == 0 {
		t.Error("no action was committed in a batch of more than one")
	}
	t.Logf("actions committed in batches of more than one: %d and %d", nodes[0].Batched(), nodes[1].Batched())
	last := map[string]int{}
	deadline := time.After(30 * time.Second)
	for len(last) < tables {
		select {
		case c := <-heard:
			if c.Actions == actions {
				last[c.Table] = c.Actions
			}
		case <-deadline:
			t.Fatalf("heard the last action of %d tables of %d", len(last), tables)
		}
	}
}

// listening returns the hints db hears, once it listens (its first,
// empty, change has come); it stops listening when the test ends.
func listening(t *testing.T, db *postgres.DB) <-chan store.Change {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	heard := db.Changes(ctx)
	select {
	case <-heard:
	case <-time.After(30 * time.Second):
		t.Fatal("the listener did not start")
	}
	return heard
}

// joinHints: every hint once, in order, no notification over the bound.
func TestJoinHints(t *testing.T) {
	var hints []string
	for i := range 500 {
		hints = append(hints, fmt.Sprintf("%d playing table-%d", i, i*7919))
	}
	for _, limit := range []int{40, 100, 7900} {
		msgs := postgres.JoinHints(hints, limit)
		var back []string
		for _, m := range msgs {
			if len(m) > limit {
				t.Errorf("a notification of %d bytes, over %d", len(m), limit)
			}
			back = append(back, strings.Split(m, "\n")...)
		}
		if strings.Join(back, ",") != strings.Join(hints, ",") {
			t.Errorf("limit %d: the hints do not come back as sent", limit)
		}
	}
	if got := postgres.JoinHints(nil, 100); len(got) != 0 {
		t.Errorf("no hint makes %q", got)
	}
}

// hintsUpTo counts the hints heard ("TABLE N") until last's: a node hears
// them in the order of their commits, so every hint committed before last
// is counted.
func hintsUpTo(t *testing.T, heard <-chan store.Change, last string) map[string]int {
	t.Helper()
	count := map[string]int{}
	deadline := time.After(30 * time.Second)
	for count[last] == 0 {
		select {
		case c := <-heard:
			if c.Table != "" {
				count[fmt.Sprint(c.Table, " ", c.Actions)]++
			}
		case <-deadline:
			t.Fatalf("the hint of %s was not heard; heard %v", last, count)
		}
	}
	return count
}

// A batch is one pipeline: its actions, its commit and its hints. When a
// statement fails in the database the whole pipeline is skipped, hints
// included, and each action is written alone with its own answer and
// hint: no hint is heard of the action that failed, and each written
// action's once.
func TestBatchPipeline(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "n0")
	heard := listening(t, db)
	for _, id := range []string{"p1", "p2", "p3"} {
		newTableOn(t, db, id)
	}
	// An action 1 of p2 stored behind the table's back (its count still
	// 0): appending action 1 there fails in the database (the key).
	if _, err := db.W.ExecContext(ctx, `INSERT INTO actions (table_id, n, entry) VALUES ('p2', 1, '{}')`); err != nil {
		t.Fatal(err)
	}
	appends := func(specs ...string) []*sqlstore.Append {
		var out []*sqlstore.Append
		for _, s := range specs {
			var id string
			var n int
			if _, err := fmt.Sscanf(s, "%s %d", &id, &n); err != nil {
				t.Fatal(err)
			}
			a, err := sqlstore.NewAppend(id, n, json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)), nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, &a)
		}
		return out
	}
	errs := db.CommitBatch(appends("p1 1", "p2 1", "p3 1"))
	if errs[0] != nil || errs[2] != nil {
		t.Fatalf("the actions beside the one that failed: %v, %v", errs[0], errs[2])
	}
	if store.Code(errs[1]) != store.ECONFLICT {
		t.Fatalf("the action whose number is taken: %v, want ECONFLICT", errs[1])
	}
	for id, want := range map[string]int{"p1": 1, "p3": 1} {
		got, err := db.Actions(ctx, id)
		if err != nil || len(got) != want {
			t.Fatalf("%s: %d actions (%v), want %d", id, len(got), err, want)
		}
	}
	// A last action alone, then every hint up to its own.
	if errs := db.CommitBatch(appends("p1 2")); errs[0] != nil {
		t.Fatal(errs[0])
	}
	count := hintsUpTo(t, heard, "p1 2")
	if count["p1 1"] != 1 || count["p3 1"] != 1 || count["p2 1"] != 0 {
		t.Fatalf("hints heard %v: want p1 1 and p3 1 once, none of p2", count)
	}
	// A batch whose statements all run, one of them writing nothing.
	errs = db.CommitBatch(appends("p1 3", "p3 1"))
	if errs[0] != nil || store.Code(errs[1]) != store.ECONFLICT {
		t.Fatalf("a batch with an action already taken: %v", errs)
	}
	if got, err := db.Actions(ctx, "p1"); err != nil || len(got) != 3 {
		t.Fatalf("p1: %d actions (%v), want 3", len(got), err)
	}
}

// The hints' statement, after a commit in a pipeline, runs in a
// transaction of its own that waits for no flush of the log, and leaves
// the connection's setting as it was: the next actions' commits wait for
// their flush.
func TestHintsCommitAsync(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SELECT 1`)
	b.Queue(`COMMIT`)
	b.Queue(postgres.HintSQL, "farkle_test_hints", "1 playing x")
	b.Queue(`SELECT current_setting('synchronous_commit')`)
	br := conn.SendBatch(ctx, b)
	for range 3 {
		if _, err := br.Exec(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := br.Exec(); err != nil {
		t.Fatal(err)
	}
	var inside string
	if err := br.QueryRow().Scan(&inside); err != nil {
		t.Fatal(err)
	}
	if err := br.Close(); err != nil {
		t.Fatal(err)
	}
	var after string
	if err := conn.QueryRow(ctx, `SHOW synchronous_commit`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if inside != "off" || after != "on" {
		t.Fatalf("synchronous_commit %q for the hints, %q after them; want off, then on", inside, after)
	}
}
