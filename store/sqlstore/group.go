package sqlstore

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/farkle/farkle/store"
)

// Group commits the actions of many tables together (group commit): the
// appends that arrive while a batch commits wait and form the next batch,
// so that one transaction, one flush of the log, serves them all. Each
// store gives its own way of committing a batch (Commit): SQLite's
// savepoints, PostgreSQL's one statement an action and one change hint a
// batch. A call returns once its action is durable, with its own answer.
type Group struct {
	// Commit commits the batch and returns each append's error (nil:
	// committed), in the batch's order; it is called by one goroutine at a
	// time (NewGroup), or by n (NewGroupOf).
	Commit func(batch []*Append) []error

	appends chan *groupReq
	quit    chan struct{}
	stopped chan struct{}
	mu      sync.RWMutex // closed; held while queueing an append
	closed  bool
}

// MaxBatch is the most actions committed in one transaction.
const MaxBatch = 128

// groupReq is one append waiting for its batch.
type groupReq struct {
	a    Append
	done chan error
}

// NewGroup starts the committer of batches through commit; Close stops it.
func NewGroup(commit func(batch []*Append) []error) *Group {
	return NewGroupOf(1, commit)
}

// NewGroupOf starts n committers of batches through commit, each taking
// the appends queued when it is free: while one batch waits for its flush
// the next is sent, and a database that flushes concurrent commits
// together (PostgreSQL) serves both with one. commit is then called by n
// goroutines at once: a table has at most one append waiting (its next
// action waits for the answer), so two batches of one node never hold the
// same table. Close stops them all.
func NewGroupOf(n int, commit func(batch []*Append) []error) *Group {
	g := &Group{Commit: commit, appends: make(chan *groupReq, MaxBatch), quit: make(chan struct{}), stopped: make(chan struct{})}
	var wg sync.WaitGroup
	for range max(1, n) {
		wg.Go(g.run)
	}
	go func() {
		wg.Wait()
		close(g.stopped)
	}()
	return g
}

// Append queues the action for the next batch and waits for its answer.
func (g *Group) Append(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	a, err := NewAppend(tableID, n, entry, fin)
	if err != nil {
		return err
	}
	req := &groupReq{a: a, done: make(chan error, 1)}
	g.mu.RLock()
	if g.closed {
		g.mu.RUnlock()
		return store.Errorf(store.EINVALID, "the database is closed")
	}
	select {
	case g.appends <- req:
	case <-ctx.Done():
		g.mu.RUnlock()
		return ctx.Err()
	}
	g.mu.RUnlock()
	return <-req.done // always answered, even after ctx ends: the action may be committed
}

// Close commits what is queued and stops the committer; later appends
// fail with EINVALID. Closing twice is a no-op.
func (g *Group) Close() {
	g.mu.Lock()
	already := g.closed
	g.closed = true
	g.mu.Unlock()
	if already {
		return
	}
	close(g.quit)
	<-g.stopped
}

// run commits queued appends in batches until Close.
func (g *Group) run() {
	for {
		var first *groupReq
		select {
		case first = <-g.appends:
		case <-g.quit:
			// No more come (Close set closed first): commit what is queued.
			for {
				select {
				case r := <-g.appends:
					g.commit([]*groupReq{r})
				default:
					return
				}
			}
		}
		batch := []*groupReq{first}
	fill:
		for len(batch) < MaxBatch {
			select {
			case r := <-g.appends:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		g.commit(batch)
	}
}

// commit commits one batch and answers each of its appends.
func (g *Group) commit(batch []*groupReq) {
	as := make([]*Append, len(batch))
	for i, r := range batch {
		as[i] = &r.a
	}
	errs := g.Commit(as)
	for i, r := range batch {
		r.done <- errs[i]
	}
}
