package server

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"runtime/debug"
	"time"

	"github.com/farkle/farkle/store"
)

// Idle open tables leave memory. A table waiting or in play that nobody
// has a connection to, where neither a bot nor the server is about to act
// and nothing was asked of it for Options.TableIdle (--table-idle, 10
// minutes), is dropped from memory: a game at your own pace waiting days
// for a move costs a few words, not its game. It is loaded again from the
// store (as at a restart) by the next request or connection, or by this
// node itself when it must act there: when its own-pace clock runs out,
// when it is to be adjourned (adjourn.go), or when another node of a
// cluster changed it. What only memory held is kept aside: the player's
// leaving (for the adjournment) and the clock's timeouts in a row.
//
// The node keeps the table's lease while it sleeps (its leases are renewed
// as a whole), so that no other node takes it over as an orphan; it gives
// it up when draining or closing, as it does for the tables in memory. A
// table whose lease another node holds is only forgotten here.
//
// A table whose clock runs from the moment it was scheduled (a turn clock
// of at most an hour, not at your own pace) is not put to sleep while the
// clock runs: its deadline could not be loaded again.

// sleeper is what this node keeps of an open table asleep. s.mu guards it.
type sleeper struct {
	botsOnly bool         // counted as open tables are (quota.go)
	actions  int          // its actions and status when it fell asleep: a change hint naming
	status   store.Status // others wakes it (cluster.go)
	seats    []store.Seat // its seats, which change while it waits
	leftAt   time.Time    // when its player's last connection went (clock_bots.go)
	timeouts map[int]int  // the clock's timeouts in a row by seat (clock.go)
	wake     *time.Timer  // loads it when this node must act there; nil if never
}

// idleEvery returns how often the idle tables are looked for: a quarter of
// the idle time, between 50 ms and a minute.
func idleEvery(idle time.Duration) time.Duration {
	return min(max(idle/4, 50*time.Millisecond), time.Minute)
}

// startIdle starts the loop putting idle tables to sleep, which ends with
// Close.
func (s *Server) startIdle() {
	if s.opt.TableIdle > 0 {
		s.every(idleEvery(s.opt.TableIdle), s.sleepIdle)
	}
}

// touch notes that the table was used now. Any goroutine.
func (t *table) touch() { t.used.Store(t.srv.opt.Now().UnixNano()) }

// idle reports whether the table may leave memory at now, and when it
// must be loaded again to act (zero: only when asked for). t.mu is held.
func (t *table) idle(now time.Time) (wake time.Time, ok bool) {
	if t.closed || t.over.Load() || t.kind == nil || len(t.clients) > 0 ||
		now.Sub(time.Unix(0, t.used.Load())) < t.srv.opt.TableIdle {
		return time.Time{}, false
	}
	if seat, _, acting := t.actorNow(); acting {
		if _, bot := t.bots[seat]; bot || t.clock.auto == seat {
			return time.Time{}, false // a bot or the server acts there soon
		}
		if t.clock.seat >= 0 && t.leased {
			if t.meta.Pace == "" {
				return time.Time{}, false // the clock runs from when it was scheduled
			}
			wake = t.clock.deadline
		}
	}
	if t.adjournTimer != nil {
		since := t.meta.Updated
		if t.leftAt.After(since) {
			since = t.leftAt
		}
		at := time.Now().Add(max(0, t.srv.opt.AdjournAfter-now.Sub(since)))
		if wake.IsZero() || at.Before(wake) {
			wake = at
		}
	}
	return wake, true
}

// sleepIdle puts the idle tables to sleep. A table busy (its lock held)
// is not idle. A panic is logged and the loop goes on.
func (s *Server) sleepIdle() {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic putting tables to sleep", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	now := s.opt.Now()
	for _, t := range s.inMemory() {
		s.mu.Lock()
		if s.closed || s.draining.Load() {
			s.mu.Unlock()
			return
		}
		if s.tables[t.id] == t && t.mu.TryLock() {
			if wake, ok := t.idle(now); ok {
				s.sleep(t, wake)
			}
			t.mu.Unlock()
		}
		s.mu.Unlock()
	}
}

// sleep drops t from memory, keeping its sleeper if this node leases it.
// The table in memory is closed: a request that still holds it changes
// nothing there. s.mu and t.mu are held.
func (s *Server) sleep(t *table, wake time.Time) {
	delete(s.tables, t.id)
	t.closed, t.slept = true, true
	t.stopTimers()
	s.mSlept.Inc()
	if !t.leased {
		return
	}
	sl := &sleeper{botsOnly: t.botsOnly, actions: t.meta.Actions, status: t.meta.Status, seats: t.meta.Seats, leftAt: t.leftAt, timeouts: maps.Clone(t.clock.timeouts)}
	if !wake.IsZero() {
		id := t.id
		sl.wake = time.AfterFunc(max(0, time.Until(wake)), func() { s.wake(id) })
	}
	s.asleep[t.id] = sl
}

// wake loads the table asleep with id, so that this node acts there; on
// the store's error it tries again in a few seconds.
func (s *Server) wake(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := s.getTable(ctx, id)
	if err == nil || err == errClosed || store.Code(err) == store.ENOTFOUND {
		return
	}
	s.log.Warn("cannot wake a table", "table", id, "err", err)
	s.mu.Lock()
	defer s.mu.Unlock()
	if sl, ok := s.asleep[id]; ok && !s.closed {
		sl.wake = time.AfterFunc(5*time.Second, func() { s.wake(id) })
	}
}

// woke gives t, just loaded, what its sleeper kept, and forgets the
// sleeper. s.mu is held; t is not yet shared.
func (s *Server) woke(t *table) {
	sl, ok := s.asleep[t.id]
	if !ok {
		return
	}
	s.forgetSleeper(t.id, sl)
	t.leftAt = sl.leftAt
	t.clock.timeouts = sl.timeouts
}

// forgetSleeper forgets the table asleep with id. s.mu is held.
func (s *Server) forgetSleeper(id string, sl *sleeper) {
	if sl.wake != nil {
		sl.wake.Stop()
	}
	delete(s.asleep, id)
}

// forgetAsleep forgets the table asleep with id, if it is: it ended
// without being loaded, or this node's lease on it is gone.
func (s *Server) forgetAsleep(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sl, ok := s.asleep[id]; ok {
		s.forgetSleeper(id, sl)
	}
}

// dropAsleep forgets every table asleep and returns their IDs: a node
// draining or closing gives their leases up.
func (s *Server) dropAsleep() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.asleep))
	for id, sl := range s.asleep {
		s.forgetSleeper(id, sl)
		ids = append(ids, id)
	}
	return ids
}

// asleepCounts counts the tables asleep, and of those the bots-only ones
// (open tables, for the caps: quota.go).
func (s *Server) asleepCounts() (open, bots int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sl := range s.asleep {
		open++
		if sl.botsOnly {
			bots++
		}
	}
	return open, bots
}

// isAsleep reports whether the table with id sleeps on this node.
func (s *Server) isAsleep(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.asleep[id]
	return ok
}

// keepAsleep forgets the tables asleep whose lease this node no longer
// holds (held: the leases it renewed): another node runs them now.
func (s *Server) keepAsleep(held map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, sl := range s.asleep {
		if !held[id] {
			s.forgetSleeper(id, sl)
		}
	}
}

// heardAsleep wakes the tables asleep that a change hint says another
// node changed: the one it names if its actions or status moved (or its
// seats: any hint while waiting), or, for a hint that hints were lost,
// each whose stored row moved.
func (s *Server) heardAsleep(ctx context.Context, c store.Change) {
	s.mu.Lock()
	var ids []string
	if c.Table == "" {
		for id := range s.asleep {
			ids = append(ids, id)
		}
	} else if sl, ok := s.asleep[c.Table]; ok && (c.Actions != sl.actions || c.Status != sl.status || c.Status == store.Waiting) {
		ids = append(ids, c.Table) // one look-up, not a walk of every table asleep
	}
	s.mu.Unlock()
	for _, id := range ids {
		if c.Table == "" {
			tb, err := s.store.Table(ctx, id)
			if err != nil {
				if store.Code(err) == store.ENOTFOUND {
					s.forgetAsleep(id)
				}
				continue
			}
			s.mu.Lock()
			sl, ok := s.asleep[id]
			same := ok && tb.Actions == sl.actions && tb.Status == sl.status && reflect.DeepEqual(tb.Seats, sl.seats)
			s.mu.Unlock()
			if same {
				continue
			}
		}
		s.wake(id)
	}
}
