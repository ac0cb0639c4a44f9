package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
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
	listenCtx, stop := context.WithCancel(ctx)
	defer stop()
	heard := nodes[1].Changes(listenCtx)
	select { // the listener is listening once its first (empty) change comes
	case <-heard:
	case <-time.After(30 * time.Second):
		t.Fatal("the listener did not start")
	}
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
