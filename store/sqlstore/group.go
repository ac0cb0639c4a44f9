package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/farkle/farkle/store"
)

// Group commits the actions of many tables together (group commit): the
// appends that arrive while a batch commits wait and form the next batch,
// so that one transaction, one flush of the log, serves them all. Each
// store gives its own way of committing a batch (Commit): SQLite's
// savepoints, PostgreSQL's one statement an action and one change hint a
// batch. A call returns once its action is durable, with its own answer.
//
// No goroutine of its own commits: an append that finds no batch under
// way commits its batch itself, on the caller's goroutine (a leader), and
// one that finds the committers busy waits in the queue. A leader that
// has committed its batch hands the queue over to the first append
// waiting in it, which then commits the next batch, the one it is in.
// An action that comes alone (a quiet server) is thus committed without
// waking any other goroutine; under load each batch costs one wakeup
// more than its answers, as it did with a committer of its own.
type Group struct {
	// Commit commits the batch and returns each append's error (nil:
	// committed), in the batch's order; it is called by one goroutine at a
	// time (NewGroup), or by n at once (NewGroupOf).
	Commit func(batch []*Append) []error

	n       int        // the most batches under way at once
	mu      sync.Mutex // guards what follows
	queue   []*groupReq
	leaders int        // batches under way (goroutines committing), at most n
	closed  bool       // Close was called: no more appends
	idle    *sync.Cond // on mu: signalled when leaders falls to 0

	batches, written atomic.Int64 // batches committed and the actions they wrote (Stats)
}

// MaxBatch is the most actions committed in one transaction.
const MaxBatch = 128

// groupReq is one append waiting for its batch.
type groupReq struct {
	a Append
	// done receives the append's answer, and before it errLead if its
	// goroutine is to commit the next batch: room for both, so that no
	// committer ever waits to answer.
	done   chan error
	called bool // errLead was sent (under Group.mu)
}

// errLead tells an append waiting in the queue to commit the next batch.
var errLead = errors.New("sqlstore: commit the next batch")

// NewGroup makes a group commit through commit, one batch at a time;
// Close stops it.
func NewGroup(commit func(batch []*Append) []error) *Group {
	return NewGroupOf(1, commit)
}

// NewGroupOf makes a group commit of up to n batches under way at once,
// each taking the appends queued when it begins: while one batch waits for
// its flush the next is sent, and a database that flushes concurrent
// commits together (PostgreSQL) serves both with one. commit is then
// called by n goroutines at once: a table has at most one append waiting
// (its next action waits for the answer), so two batches of one node
// never hold the same table. Close stops it.
func NewGroupOf(n int, commit func(batch []*Append) []error) *Group {
	g := &Group{Commit: commit, n: max(1, n)}
	g.idle = sync.NewCond(&g.mu)
	return g
}

// Append queues the action for the next batch and waits for its answer:
// it commits the batch itself when no other batch is under way, or when
// the leader of the batch before hands it the queue.
func (g *Group) Append(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	a, err := NewAppend(tableID, n, entry, fin)
	if err != nil {
		return err
	}
	return g.append(ctx, a)
}

// AppendQuiet is Append of an action that does not end its game and that
// no other node needs to hear of (Append.Quiet).
func (g *Group) AppendQuiet(ctx context.Context, tableID string, n int, entry json.RawMessage) error {
	a, err := NewAppend(tableID, n, entry, nil)
	if err != nil {
		return err
	}
	a.Quiet = true
	return g.append(ctx, a)
}

// append queues a for the next batch and waits for its answer (Append).
func (g *Group) append(ctx context.Context, a Append) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := &groupReq{a: a, done: make(chan error, 2)}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return store.Errorf(store.EINVALID, "the database is closed")
	}
	g.queue = append(g.queue, req)
	lead := g.leaders < g.n
	if lead {
		g.leaders++
	}
	g.mu.Unlock()
	for {
		if lead {
			g.lead()
		}
		err := <-req.done // always answered, even after ctx ends: the action may be committed
		if err != errLead {
			return err
		}
		lead = true
	}
}

// Close waits for the batches queued and under way to be committed; later
// appends fail with EINVALID. Closing twice is a no-op.
func (g *Group) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for g.leaders > 0 { // an append queued always has a leader to come
		g.idle.Wait()
	}
}

// lead commits the next batch of the queue, as one of the n leaders, and
// then hands the queue to the first append waiting in it; it goes on
// itself if that one was handed the queue already (by another leader).
// With the queue empty it stops leading.
func (g *Group) lead() {
	for {
		g.mu.Lock()
		k := min(len(g.queue), MaxBatch)
		batch := make([]*groupReq, k)
		copy(batch, g.queue)
		rest := copy(g.queue, g.queue[k:])
		clear(g.queue[rest:])
		g.queue = g.queue[:rest]
		g.mu.Unlock()
		if k > 0 {
			g.commit(batch)
		}
		g.mu.Lock()
		if len(g.queue) == 0 {
			g.leaders--
			if g.leaders == 0 {
				g.idle.Broadcast()
			}
			g.mu.Unlock()
			return
		}
		if next := g.queue[0]; !next.called {
			// Sent under mu (done has room: it never waits), so that
			// the handover is in done before any batch can take next
			// and answer it: an append reads it first and gives the
			// turn back. Sent after mu, another leader could answer
			// next first, and next returned with the turn never given
			// back (the group then waited for it: Close hung).
			next.called = true
			next.done <- errLead
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
	}
}

// commit commits one batch and answers each of its appends.
func (g *Group) commit(batch []*groupReq) {
	as := make([]*Append, len(batch))
	for i, r := range batch {
		as[i] = &r.a
	}
	errs := g.safeCommit(as)
	var n int64
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	g.batches.Add(1)
	g.written.Add(n)
	for i, r := range batch {
		r.done <- errs[i]
	}
}

// Stats returns how many batches the group has committed and how many
// actions they wrote; the second over the first is the actions a commit.
func (g *Group) Stats() (batches, actions int64) {
	return g.batches.Load(), g.written.Load()
}

// safeCommit is Commit, with a panic in it (a bug in a store) turned into
// each append's error: the leader's turn must not be lost with it (every
// later append would wait for ever, and Close too), nor the appends of
// the batch left unanswered. A commit that answers the wrong number of
// appends is such a bug too.
func (g *Group) safeCommit(as []*Append) (errs []error) {
	defer func() {
		if p := recover(); p != nil {
			errs = failAll(len(as), fmt.Errorf("sqlstore: the commit of %d actions failed: %v", len(as), p))
		}
	}()
	errs = g.Commit(as)
	if len(errs) != len(as) {
		return failAll(len(as), fmt.Errorf("sqlstore: the commit of %d actions answered %d", len(as), len(errs)))
	}
	return errs
}

// failAll is n answers, each err.
func failAll(n int, err error) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}
