package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"
)

// recorder is a batch commit that remembers what it committed, refuses
// every action whose number is a multiple of 5 (each append must get its
// own answer, not its batch's), and measures how many batches are under
// way at once.
type recorder struct {
	mu        sync.Mutex
	committed map[string][]int
	inFlight  atomic.Int32
	most      atomic.Int32
	largest   atomic.Int32
	batches   atomic.Int64 // calls of commit
}

func (r *recorder) commit(batch []*sqlstore.Append) []error {
	r.batches.Add(1)
	now := r.inFlight.Add(1)
	defer r.inFlight.Add(-1)
	for {
		m := r.most.Load()
		if now <= m || r.most.CompareAndSwap(m, now) {
			break
		}
	}
	if k := int32(len(batch)); k > r.largest.Load() {
		r.largest.Store(k)
	}
	errs := make([]error, len(batch))
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, a := range batch {
		if a.N%5 == 0 {
			errs[i] = store.Errorf(store.ECONFLICT, "action %d of %s refused", a.N, a.Table)
			continue
		}
		r.committed[a.Table] = append(r.committed[a.Table], a.N)
	}
	return errs
}

// Many tables appending at once: each append gets its own answer, each
// action is committed exactly once and in its table's order, batches stay
// within MaxBatch, and no more than n are under way at once.
func TestGroupAnswersEachAppend(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r := &recorder{committed: map[string][]int{}}
			g := sqlstore.NewGroupOf(n, r.commit)
			const tables, actions = 300, 40
			var wg sync.WaitGroup
			for i := range tables {
				wg.Go(func() {
					id := fmt.Sprintf("t%03d", i)
					for k := 1; k <= actions; k++ {
						err := g.Append(context.Background(), id, k, json.RawMessage(`{}`), nil)
						if want := k%5 == 0; want != (store.Code(err) == store.ECONFLICT) || (!want && err != nil) {
							t.Errorf("%s action %d: %v", id, k, err)
							return
						}
					}
				})
			}
			wg.Wait()
			g.Close()
			for i := range tables {
				id := fmt.Sprintf("t%03d", i)
				got := r.committed[id]
				var want []int
				for k := 1; k <= actions; k++ {
					if k%5 != 0 {
						want = append(want, k)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s committed %v, want %v", id, got, want)
				}
			}
			if m := r.most.Load(); m > int32(n) {
				t.Errorf("%d batches under way at once, want at most %d", m, n)
			}
			if l := r.largest.Load(); l > sqlstore.MaxBatch {
				t.Errorf("a batch of %d appends, want at most %d", l, sqlstore.MaxBatch)
			}
			// Stats: every batch, and the actions written (not those
			// refused).
			batches, written := g.Stats()
			if want := int64(tables * (actions - actions/5)); written != want {
				t.Errorf("Stats: %d actions written, want %d", written, want)
			}
			if batches != r.batches.Load() {
				t.Errorf("Stats: %d batches (the commit was called %d times) for %d actions", batches, r.batches.Load(), written)
			}
		})
	}
}

// Close waits for the batch under way and the appends queued behind it,
// which are all committed; an append after Close is refused.
func TestGroupCloseCommitsQueued(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	var mu sync.Mutex
	var committed []string
	g := sqlstore.NewGroup(func(batch []*sqlstore.Append) []error {
		if batch[0].Table == "first" {
			close(entered)
			<-release // the first batch holds the others in the queue
		}
		mu.Lock()
		for _, a := range batch {
			committed = append(committed, a.Table)
		}
		mu.Unlock()
		return make([]error, len(batch))
	})
	answers := make(chan error, 10)
	go func() { answers <- g.Append(context.Background(), "first", 1, json.RawMessage(`{}`), nil) }()
	<-entered
	for i := range 9 {
		go func() { answers <- g.Append(context.Background(), fmt.Sprint("q", i), 1, json.RawMessage(`{}`), nil) }()
	}
	closed := make(chan struct{})
	// The nine are queued behind the first once each has gone past
	// Append's check of closed; Close only after that, or some would be
	// refused as after Close.
	for sqlstore.Queued(g) < 9 {
		runtime.Gosched()
	}
	go func() {
		g.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while a batch was under way")
	default:
	}
	close(release)
	<-closed
	if len(committed) != 10 {
		t.Fatalf("committed %v after Close, want all 10", committed)
	}
	for range 10 {
		if err := <-answers; err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Append(context.Background(), "late", 1, json.RawMessage(`{}`), nil); store.Code(err) != store.EINVALID {
		t.Fatalf("append after Close: %v, want EINVALID", err)
	}
	if err := g.Append(context.Background(), "bad", 1, json.RawMessage(`{`), nil); err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("an entry that is not JSON: %v", err)
	}
}

// BenchmarkGroup measures the group commit's own cost of an append, with a
// commit that does nothing: alone (each append its own batch, as on a
// quiet server) and from 64 tables at once (batches, as on a busy one).
// Where a committer goroutine of its own took every batch, an append alone
// cost two goroutine wakeups.
//
//	go test ./store/sqlstore/ -run '^$' -bench Group -benchmem
func BenchmarkGroup(b *testing.B) {
	entry := json.RawMessage(`{"a":1}`)
	b.Run("alone", func(b *testing.B) {
		g := sqlstore.NewGroup(func(batch []*sqlstore.Append) []error { return make([]error, len(batch)) })
		defer g.Close()
		for i := range b.N {
			if err := g.Append(context.Background(), "t", i, entry, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel64", func(b *testing.B) {
		g := sqlstore.NewGroup(func(batch []*sqlstore.Append) []error { return make([]error, len(batch)) })
		defer g.Close()
		b.SetParallelism(32) // 64 goroutines on 2 cores
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				if err := g.Append(context.Background(), "t", i, entry, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// Once every append has its answer no goroutine commits or is to commit:
// a leader's turn handed to an append that another leader's batch then
// answered must still be given back (with two batches under way, an
// append answered before it read the handover returned without it, and
// after a few such the group waited for leaders that never came: Close,
// and a server's shutdown, hung).
func TestGroupLeadersReturn(t *testing.T) {
	// More threads than cores: a goroutine is then more often set aside
	// between two steps, as the fault needs (the old group failed 5 runs
	// of 5 so, and under -race).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	for round := range 100 {
		g := sqlstore.NewGroupOf(2, func(batch []*sqlstore.Append) []error {
			runtime.Gosched()
			return make([]error, len(batch))
		})
		var wg sync.WaitGroup
		for i := range 64 {
			wg.Go(func() {
				for k := 1; k <= 50; k++ {
					if err := g.Append(context.Background(), fmt.Sprint(i), k, json.RawMessage(`{}`), nil); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if n := sqlstore.Leaders(g); n != 0 {
			t.Fatalf("round %d: every append answered, and %d leaders still counted", round, n)
		}
		g.Close()
	}
}

// TestGroupSurvivesAPanickingCommit: a commit that panics (a bug in a
// store) answers each append of its batch with an error and gives its
// turn back, so that the appends after it are committed and Close
// returns; before, the leader's turn was lost with the panic and every
// later append waited for ever.
func TestGroupSurvivesAPanickingCommit(t *testing.T) {
	var calls atomic.Int32
	g := sqlstore.NewGroup(func(batch []*sqlstore.Append) []error {
		if calls.Add(1) == 1 {
			panic("a bug in the store")
		}
		return make([]error, len(batch))
	})
	ctx := context.Background()
	entry := json.RawMessage(`{}`)
	first := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("the panic reached the caller: %v", p)
			}
		}()
		return g.Append(ctx, "t1", 1, entry, nil)
	}()
	if first == nil || !strings.Contains(first.Error(), "a bug in the store") || strings.Contains(first.Error(), "reached the caller") {
		t.Fatalf("the append of the panicking batch: %v, want an error naming the panic", first)
	}
	// A lost turn is a wait for ever: each wait below has a deadline, so
	// that the test fails saying so instead of hanging.
	done := make(chan error, 1)
	go func() { done <- g.Append(ctx, "t2", 1, entry, nil) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the append after the panic: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the append after the panic was never answered: the leader's turn was lost")
	}
	closed := make(chan struct{})
	go func() { g.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close never returned: the leader's turn was lost")
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d commits, want 2", n)
	}
}
