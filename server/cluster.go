package server

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"
	"runtime/debug"
	"sync"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// Several nodes on one store (store.Cluster). Any node serves any table:
// each keeps the tables its clients watch in memory and follows what the
// other nodes commit to them (the store's change hints: the table is read
// again, its new actions replayed from the stored entries and the seed, and
// broadcast). The server's own moves at a table (bots, the turn clock) are
// made only by the node holding the table's lease; the others show the
// table and accept its players' actions. The store's unique action numbers
// settle any race: the loser reads the table again and its client is told
// "stale". A node alone (store.Solo) holds every lease and hears nothing.

// leaseEvery is how often a node renews its leases and looks for tables
// nobody leases.
const leaseEvery = time.Second

// startCluster starts following the other nodes' changes and keeping the
// leases; both end with Close.
func (s *Server) startCluster() {
	ctx, cancel := context.WithCancel(context.Background())
	changes := s.cluster.Changes(ctx)
	s.loops.Add(2)
	go func() {
		defer s.loops.Done()
		<-s.stop
		cancel()
	}()
	go func() {
		defer s.loops.Done()
		s.follow(ctx, changes)
	}()
	s.every(s.opt.LeaseEvery, func() { s.keepLeases(ctx) })
	s.every(s.opt.CatchUpEvery, func() { s.catchUpWatched(ctx) })
}

// catchUpEvery is how often a node of a cluster reads again the tables its
// clients watch (Options.CatchUpEvery). A change hint is only a hint: one
// lost while the database was busy or a listener reconnecting must not
// leave a table's clients waiting for news that already is in the
// database. The cost is one read of each watched, unfinished table per
// period.
const catchUpEvery = 3 * time.Second

// catchUpWatched brings every watched, unfinished table in memory up to
// date with the store.
func (s *Server) catchUpWatched(ctx context.Context) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic catching up", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	for _, t := range s.inMemory() {
		t.mu.Lock()
		if !t.over.Load() && len(t.clients) > 0 {
			if err := t.catchUp(ctx); err != nil {
				s.log.Warn("cannot follow a table", "table", t.id, "err", err)
			}
		}
		t.mu.Unlock()
	}
}

// inMemory returns the tables in memory.
func (s *Server) inMemory() []*table {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	return out
}

// followers is how many goroutines follow the change hints of a cluster,
// each table's hints always on the same one (in their order): a table's
// reads from the store no longer wait behind every other table's.
const followers = 4

// follow hands each change hint to its table's follower until changes
// closes; a hint that hints were lost (no table) is followed here, after
// those before it were handed on.
func (s *Server) follow(ctx context.Context, changes <-chan store.Change) {
	var wg sync.WaitGroup
	queues := make([]chan store.Change, followers)
	for i := range queues {
		queues[i] = make(chan store.Change, 256)
		wg.Go(func() {
			for c := range queues[i] {
				s.heard(ctx, c)
			}
		})
	}
	defer wg.Wait()
	for c := range changes {
		if c.Table == "" {
			s.heard(ctx, c)
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(c.Table))
		queues[h.Sum32()%followers] <- c
	}
	for _, q := range queues {
		close(q)
	}
}

// heard brings the tables concerned by a change hint up to date: the one
// named, or every table in memory for a hint that hints were lost.
func (s *Server) heard(ctx context.Context, c store.Change) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic following a change", "table", c.Table, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	if c.Follow {
		s.heardWant(ctx, c.Table) // quiet.go
		return
	}
	s.heardAsleep(ctx, c) // idle.go
	var ts []*table
	if c.Table == "" {
		ts = s.inMemory()
	} else {
		s.mu.Lock()
		if t, ok := s.tables[c.Table]; ok {
			ts = append(ts, t)
		}
		s.mu.Unlock()
	}
	if c.Table == "" {
		// Hints were lost, or a node handed its tables off as it
		// stopped: some may have no node now.
		defer s.takeOrphans(ctx)
	}
	for _, t := range ts {
		if s.letGo(ctx, t, c) { // affinity.go
			continue
		}
		t.mu.Lock()
		known := c.Actions == t.meta.Actions && c.Status == t.meta.Status && c.Status != store.Waiting // seats change while waiting
		if c.Table != "" && c.Status == store.Playing && t.meta.Status == store.Playing && c.Actions > t.meta.Actions && !t.closed && t.play != nil {
			// The most common hint, actions at a table in play: only
			// the actions are read, not the table (its seats, its end:
			// another status says those changed).
			err := t.replayStored(ctx, c.Actions)
			if errors.Is(err, errFewerStored) {
				// A hint of an action that was not written (a batch's
				// hints go with its commit, before its answers are
				// read): the table says what became of it.
				err = t.catchUp(ctx)
			}
			if err != nil && ctx.Err() == nil {
				s.log.Warn("cannot follow a table", "table", t.id, "err", err)
			}
		} else if c.Table == "" || (c.Actions >= t.meta.Actions && !known) {
			if err := t.catchUp(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("cannot follow a table", "table", t.id, "err", err)
			}
		}
		t.mu.Unlock()
	}
}

// catchUp reads the table again from the store and brings it up to date
// with what another node committed: seats taken (the game starts when they
// are all taken), actions (each replayed from the stored entries and the
// seed, and broadcast as if played here), the table failed or expired.
// t.mu is held.
func (t *table) catchUp(ctx context.Context) error {
	if t.closed || t.kind == nil {
		return nil
	}
	tb, err := t.srv.store.Table(ctx, t.id)
	if err != nil {
		return err
	}
	if t.meta.Status == store.Waiting && !reflect.DeepEqual(tb.Seats, t.meta.Seats) {
		t.meta.Seats = tb.Seats
		if t.play == nil && t.seatsFull() {
			t.meta.Status = store.Playing
			if err := t.start(); err != nil {
				return err
			}
			t.scheduleClock()
		}
		for c := range t.clients {
			c.sendWelcome()
		}
		t.scheduleBot()
	}
	for i, seat := range tb.Seats { // a seat another node lost on time (ontime.go)
		if i < len(t.meta.Seats) && seat.LostOnTime && !t.meta.Seats[i].LostOnTime {
			t.meta.Seats[i].LostOnTime = true
			if t.play != nil {
				t.play.Record().Meta.SetLostOnTime(i)
			}
		}
	}
	if tb.Actions > t.meta.Actions && t.play != nil {
		if err := t.replayStored(ctx, tb.Actions); err != nil {
			return err
		}
	}
	if tb.Status.Ended() && !t.meta.Status.Ended() {
		t.ended(tb.Status, tb.Reason)
	}
	if tb.Status == store.Adjourned && t.meta.Status != store.Adjourned { // adjourned by the node that ran it (adjourn.go)
		t.adjourned()
		if len(t.clients) == 0 {
			go t.srv.release(t)
		}
	}
	return nil
}

// errFewerStored: the store has fewer actions than a change hint said.
var errFewerStored = errors.New("fewer actions stored than hinted")

// replayStored plays the stored actions after those in memory, up to n,
// broadcasting each. Only those actions are read, and each is played on
// the game in memory, its dice drawn from the seed as the node that took
// it drew them: the entry the seed gives must be the one stored. A
// follower's work for an action does not grow with the game's length.
// t.mu is held.
func (t *table) replayStored(ctx context.Context, n int) error {
	have := t.actionsDone()
	stored, err := t.srv.store.ActionsFrom(ctx, t.id, have+1)
	if err != nil {
		return err
	}
	if have+len(stored) < n {
		return fmt.Errorf("%w: the store has %d actions, this node %d, the change says %d", errFewerStored, have+len(stored), have, n)
	}
	for k, raw := range stored {
		i := have + k // the action's index: it is action i+1
		g := t.play.Game()
		seat, a, err := game.EntryAction(g.Variant(), g, raw)
		if err != nil {
			return fmt.Errorf("stored action %d: %w", i+1, err)
		}
		evs, err := t.play.Do(seat, a)
		if err != nil {
			return fmt.Errorf("stored action %d: %w", i+1, err)
		}
		rec := t.play.Record()
		if got := rec.Actions[len(rec.Actions)-1]; !game.SameEntry(got, raw) {
			uerr := t.undo()
			return errors.Join(fmt.Errorf("stored action %d: the seed gives %s but the store says %s", i+1, got, raw), uerr)
		}
		t.remember(evs)
		t.srv.mFollowed.Inc()
		g = t.play.Game()
		var winners, scores []int
		if g.Over() {
			rec.Meta.Ended = t.srv.opt.Now().UTC().Format(time.RFC3339)
			winners, scores = g.Winners(), g.Scores()
		}
		t.settle(i+1, g.Over(), winners, scores, func() { t.broadcastUpdate(seat, a, evs) })
	}
	return nil
}

// ended marks the table failed or expired by another node, stops its
// timers and tells its clients. t.mu is held.
func (t *table) ended(status store.Status, reason string) {
	t.meta.Status, t.meta.Reason = status, reason
	t.meta.Updated = t.srv.opt.Now()
	t.over.Store(true)
	t.stopTimers()
	typ := "failed"
	if status == store.Expired {
		typ = "expired"
	}
	t.sendAll(failedMsg{Type: typ, Table: t.view(), Reason: reason}, nil)
	if len(t.clients) == 0 {
		go t.srv.release(t)
	}
}

// claim takes the table's lease if it can, and starts the server's moves
// there when it does: the bots and the clock. A table that has ended needs
// none. t.mu is held.
func (t *table) claim(ctx context.Context) {
	if t.leased || t.closed || t.over.Load() || t.srv.draining.Load() {
		return
	}
	held, err := t.srv.cluster.Claim(ctx, t.id)
	if err != nil {
		t.srv.log.Warn("cannot take a table's lease", "table", t.id, "err", err)
		return
	}
	t.setLeased(held)
}

// setLeased records whether this node holds the table's lease, starting
// or stopping the server's moves there. t.mu is held.
func (t *table) setLeased(held bool) {
	if held == t.leased {
		return
	}
	t.leased = held
	if !held {
		t.stopTimers()
	}
	t.scheduleClock()
	t.scheduleBot()
}

// releaseAll gives up the leases of the tables (a node closing), within a
// few seconds: a lease not given up expires.
func (s *Server) releaseAll(ids []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for _, id := range ids {
		if err := s.cluster.Release(ctx, id); err != nil {
			s.log.Warn("cannot give a lease up: another node takes the table when it expires", "table", id, "err", err)
			return
		}
	}
}

// keepLeases renews this node's leases, stops the server's moves at the
// tables whose lease it lost (a renewal that fails loses them all: another
// node may take them), gives up those of tables that ended or left memory,
// and takes the tables nobody leases (a dead node's).
func (s *Server) keepLeases(ctx context.Context) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic keeping leases", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	rctx, cancel := context.WithTimeout(ctx, s.opt.LeaseEvery)
	held, err := s.cluster.Renew(rctx)
	cancel()
	if err != nil {
		s.log.Warn("cannot renew the leases: the bots and clocks of this node stop", "err", err)
	}
	holds := map[string]bool{}
	for _, id := range held {
		holds[id] = true
	}
	open := s.inMemory()
	inMemory := map[string]bool{}
	for _, t := range open {
		t.mu.Lock()
		inMemory[t.id] = !t.over.Load()
		t.setLeased(holds[t.id] && !t.over.Load())
		t.mu.Unlock()
	}
	for id := range holds {
		if !inMemory[id] && !s.isAsleep(id) {
			if err := s.cluster.Release(ctx, id); err != nil {
				s.log.Warn("cannot give a lease up", "table", id, "err", err)
			}
		}
	}
	if err != nil {
		return
	}
	s.keepAsleep(holds)
	far := s.unleasedConnected()
	s.claimConnected(ctx, far)    // affinity.go
	s.askHintsConnected(ctx, far) // quiet.go
	s.takeOrphans(ctx)
}

// takeOrphans takes the tables nobody leases: those of a node that died or
// handed them off as it stopped (drain.go). A node draining takes none. A
// node takes at once the orphans its clients are at (affinity.go), the
// others only when they were orphans at its previous look too: a table
// just created has no lease until its creator claims it, a round trip
// later, and is not another node's to take.
func (s *Server) takeOrphans(ctx context.Context) {
	if s.draining.Load() {
		return
	}
	orphans, err := s.cluster.Orphans(ctx)
	if err != nil {
		s.log.Warn("cannot look for tables without a node", "err", err)
		return
	}
	orphans = s.orphansToTake(orphans)
	for _, id := range orphans {
		t, err := s.getTable(ctx, id)
		if err != nil {
			s.log.Warn("cannot take a table over", "table", id, "err", err)
			continue
		}
		t.mu.Lock()
		if err := t.catchUp(ctx); err != nil {
			s.log.Warn("cannot follow a table", "table", id, "err", err)
		}
		t.claim(ctx)
		if t.leased {
			s.log.Info("table taken over", "event", "lease_moved", "table", id)
		}
		t.mu.Unlock()
	}
}
