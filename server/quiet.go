package server

import (
	"context"
	"sync"
	"time"

	"github.com/farkle/farkle/store"
)

// Change hints only where they are needed (store.Quieter). Every node of a
// cluster hears every hint, so that a node with clients at a table hears
// of what another node committed there. Behind a load balancer routing by
// table (affinity.go) the node that commits a table's actions holds its
// lease and is the only one with clients there, and its hints are read by
// every other node for nothing: each node of n read the hints of the
// actions of the n-1 others, work that grew with the cluster.
//
// So a node commits an action quietly (no hint) when it holds the table's
// lease and no other node asked for the table's hints lately. A node with
// clients at a table whose lease it does not hold asks (WantHints) when
// the first of them arrives and every lease round after; a request lasts
// three rounds. An action is hinted as before when its node does not hold
// the lease (the holder runs the table's bots and clock, and lets a table
// go to the node its players are on when it hears of it), and so are a
// game's first and last actions and every change of seats or status.
//
// A node that did not ask, and has a table in memory all the same (its
// last client there left, and the table stays until --table-idle), missed
// the actions committed quietly meanwhile: when a client comes it reads the
// table again before the welcome (ws.go). And a holder may commit quietly
// after the asking node read the table and before it hears the request:
// so when it hears a request it did not have, it sends a hint of the table
// as it has it, and the asking node reads every action it missed.
//
// A node of an older release does not ask: during a rolling upgrade its
// clients at a table held by a newer node see its actions when the node
// reads its tables again (Options.CatchUpEvery), not at once.

// wantedHints is what a node knows of the other nodes' requests.
type wantedHints struct {
	q     store.Quieter // nil: every action is hinted
	mu    sync.Mutex
	until map[string]time.Time // by table: when the last request ends
}

// init readies w for the cluster c.
func (w *wantedHints) init(c store.Cluster) {
	if q, ok := c.(store.Quieter); ok {
		w.q, w.until = q, map[string]time.Time{}
	}
}

// want records a request for table id's hints lasting until end, and
// reports whether it is new (no request lasted at now).
func (w *wantedHints) want(id string, now, end time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	last, ok := w.until[id]
	w.until[id] = end
	return !ok || last.Before(now)
}

// wanted reports whether a request for table id's hints lasts at now.
func (w *wantedHints) wanted(id string, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	end, ok := w.until[id]
	return ok && !end.Before(now)
}

// count returns how many tables' hints are asked for at now (by another
// node: of every node, this one holding their leases or not).
func (w *wantedHints) count(now time.Time) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, end := range w.until {
		if !end.Before(now) {
			n++
		}
	}
	return n
}

// expire forgets the requests that ended before now.
func (w *wantedHints) expire(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for id, end := range w.until {
		if end.Before(now) {
			delete(w.until, id)
		}
	}
}

// hintsLast is how long a request for a table's hints lasts.
func (s *Server) hintsLast() time.Duration { return 3 * s.opt.LeaseEvery }

// quiet reports whether action n of t, ending its game if fin is set,
// is committed without a hint (above). t.mu is held.
func (t *table) quiet(n int, fin *store.Finish) bool {
	s := t.srv
	return s.asked.q != nil && fin == nil && n > 1 && t.leased && !s.asked.wanted(t.id, time.Now())
}

// heardWant records another node's request for the hints of table id, and
// if it is new and this node holds the table in memory, hints it as it is.
func (s *Server) heardWant(ctx context.Context, id string) {
	now := time.Now()
	if !s.asked.want(id, now, now.Add(s.hintsLast())) {
		return
	}
	s.mu.Lock()
	t, ok := s.tables[id]
	s.mu.Unlock()
	if !ok {
		return // not in memory here: nothing was committed quietly
	}
	t.mu.Lock()
	c := store.Change{Table: t.id, Actions: t.meta.Actions, Status: t.meta.Status}
	send := t.leased && !t.closed
	t.mu.Unlock()
	if !send {
		return
	}
	hctx, cancel := context.WithTimeout(ctx, s.opt.LeaseEvery)
	defer cancel()
	if err := s.asked.q.Hint(hctx, c); err != nil && ctx.Err() == nil {
		s.log.Warn("cannot hint a table another node follows", "table", id, "err", err)
	}
}

// askHintsConnected asks for the hints of the tables this node has clients
// at and does not lease (far, those of the lease round's start not claimed
// since), and forgets the requests of other nodes that ended.
func (s *Server) askHintsConnected(ctx context.Context, far []*table) {
	if s.asked.q == nil {
		return
	}
	var ids []string
	for _, t := range far {
		t.mu.Lock()
		if !t.leased {
			ids = append(ids, t.id)
		}
		t.mu.Unlock()
	}
	s.askHints(ctx, ids)
	s.asked.expire(time.Now())
}

// askHints asks the other nodes for the hints of the tables (above). A
// failure is only logged: the next lease round asks again.
func (s *Server) askHints(ctx context.Context, ids []string) {
	if s.asked.q == nil || len(ids) == 0 {
		return
	}
	actx, cancel := context.WithTimeout(ctx, s.opt.LeaseEvery)
	defer cancel()
	if err := s.asked.q.WantHints(actx, ids); err != nil && ctx.Err() == nil && !s.stopping() {
		s.log.Warn("cannot ask for the hints of the tables followed here", "tables", len(ids), "err", err)
	}
}

// stopping reports whether Close has begun.
func (s *Server) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}
