package server

import (
	"context"

	"github.com/farkle/farkle/store"
)

// A table goes to the node its players are on. Behind a load balancer that
// routes each table's requests to one node (by the table's ID in the path:
// README, "Running a cluster"), every connection of a table is on that
// node, but the table was created through whichever node the balancer
// chose for the creation (no table ID yet), and that node holds its lease.
// Left so, the creating node would follow every action of the game (read
// it, play it again) for nobody, and run its clock and bots from afar.
//
// So a node that has a table in play in memory with no connection to it,
// and hears that another node took an action there or started its game
// (that node has its players), lets the table go: it yields the lease if it holds it (the
// store keeps the lease from everyone's orphans until it expires, but lets
// any node claim it) and forgets the table, which is loaded again when
// asked for. Each lease round (--lease-every), a node claims in one round
// trip the tables it has connections to and does not lease: a yielded
// lease comes to it within a second. Nobody claiming it, the lease
// expires and the table is an orphan as a dead node's is. Where the
// players of a table are on two nodes (no routing by table), each node has
// a connection and nothing moves: the cluster works as before.

// letGo lets the table t go from this node after change c, as above, and
// reports whether it did. It needs a store that can yield (store.Yielder).
// t.mu is not held.
func (s *Server) letGo(ctx context.Context, t *table, c store.Change) bool {
	y, ok := s.cluster.(store.Yielder)
	if !ok || c.Table == "" || c.Status != store.Playing || s.draining.Load() {
		return false
	}
	t.mu.Lock()
	// An action or a seat taken here is in memory before its hint arrives
	// (the commit holds t.mu): an action after the last this node stored
	// (or the table's count when it was loaded), or a game started while
	// it waits here, are another node's doing. The actions this node has
	// read are no measure: following an earlier hint it may have read the
	// table with this hint's action already in it (the hints of a game's
	// first actions then all fell at or below its count, and the table
	// never went).
	elsewhere := (t.meta.Status == store.Playing && c.Actions > t.actedHere) || t.meta.Status == store.Waiting
	ok = elsewhere && !t.closed && !t.over.Load() && len(t.clients) == 0
	if ok && t.leased {
		if err := y.Yield(ctx, t.id); err != nil {
			s.log.Warn("cannot yield a table's lease", "table", t.id, "err", err)
			ok = false
		} else {
			t.setLeased(false)
		}
	}
	t.mu.Unlock()
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.closed || s.tables[t.id] != t || t.closed || len(t.clients) > 0 {
		return false // a client came meanwhile: it is followed here as before
	}
	delete(s.tables, t.id)
	t.closed, t.slept = true, true // a request holding it loads it again (ws.go)
	t.stopTimers()
	s.mLetGo.Inc()
	return true
}

// claimConnected claims, in one round trip, the leases of the open tables
// in memory that this node has connections to and does not lease (far,
// unleasedConnected's): those another node yielded come here, and those of
// a node that died, once their leases expire.
func (s *Server) claimConnected(ctx context.Context, far []*table) {
	y, ok := s.cluster.(store.Yielder)
	if !ok || s.draining.Load() {
		return
	}
	var want []string
	byID := map[string]*table{}
	for _, t := range far {
		want = append(want, t.id)
		byID[t.id] = t
	}
	if len(want) == 0 {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, s.opt.LeaseEvery)
	held, err := y.ClaimEach(cctx, want)
	cancel()
	if err != nil {
		s.log.Warn("cannot claim the leases of the tables played here", "err", err)
		return
	}
	for _, id := range held {
		t := byID[id]
		t.mu.Lock()
		if !t.closed && !t.over.Load() {
			t.setLeased(true) // yielded to this node, or its node died
			s.log.Info("table taken over", "event", "lease_moved", "table", id)
		} else if err := s.cluster.Release(ctx, id); err != nil {
			s.log.Warn("cannot give a lease up", "table", id, "err", err)
		}
		t.mu.Unlock()
	}
}

// unleasedConnected returns the open tables in memory that this node has
// connections to and does not lease.
func (s *Server) unleasedConnected() []*table {
	var out []*table
	for _, t := range s.inMemory() {
		t.mu.Lock()
		if !t.leased && !t.closed && !t.over.Load() && len(t.clients) > 0 {
			out = append(out, t)
		}
		t.mu.Unlock()
	}
	return out
}

// orphansToTake returns the orphans of this look that this node takes:
// those it has connections to, and those that were orphans at its
// previous look too (takeOrphans).
func (s *Server) orphansToTake(orphans []string) []string {
	s.orphanMu.Lock()
	defer s.orphanMu.Unlock()
	seen := s.orphansSeen
	s.orphansSeen = make(map[string]bool, len(orphans))
	var take []string
	for _, id := range orphans {
		s.orphansSeen[id] = true
		if seen[id] || s.playedHere(id) {
			take = append(take, id)
		}
	}
	return take
}

// playedHere reports whether this node has a connection to the table
// with id.
func (s *Server) playedHere(id string) bool {
	s.mu.Lock()
	t, ok := s.tables[id]
	s.mu.Unlock()
	if !ok {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.clients) > 0
}
