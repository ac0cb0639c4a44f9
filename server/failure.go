package server

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// A table fails when the server cannot go on with it: a panic in one of
// its background goroutines (bot timers, bot preparation, the turn clock),
// or, at start, rules the server now refuses, bots it cannot make, or
// actions that do not resume. The failure is stored with its reason, the
// table shows the status "failed" in the lobby, the API and the WebSocket,
// its record stays downloadable, and the rest of the server goes on.

// guard runs f, turning a panic into the failure of table t: it is logged
// with the table and the stack, and the table is failed with a reason
// naming what (e.g. "bot"). f must not hold t.mu when it panics (every
// locking path unlocks by defer or before calling out).
func (t *table) guard(what string, f func()) {
	defer func() {
		if v := recover(); v != nil {
			t.srv.log.Error("panic in a table's background work", "table", t.id, "in", what, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			t.fail(fmt.Sprintf("internal error in the %s; the table cannot go on", what))
		}
	}()
	f()
}

// goGuarded runs f in a new goroutine under t.guard.
func (t *table) goGuarded(what string, f func()) {
	go t.guard(what, f)
}

// afterGuarded is time.AfterFunc with f under t.guard.
func (t *table) afterGuarded(d time.Duration, what string, f func()) *time.Timer {
	return time.AfterFunc(d, func() { t.guard(what, f) })
}

// failedMsg tells a table's clients that it failed.
type failedMsg struct {
	Type   string    `json:"type"` // "failed"
	Table  tableView `json:"table"`
	Reason string    `json:"reason"`
}

// fail marks the table failed with reason, in the store and in memory,
// stops its timers, tells its clients, and lets it leave memory once
// nobody watches.
func (t *table) fail(reason string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err := t.srv.store.FailTable(ctx, t.id, reason)
	cancel()
	if err != nil {
		t.srv.log.Error("table failure not stored", "table", t.id, "err", err)
	}
	t.mu.Lock()
	if t.meta.Status == store.Failed {
		t.mu.Unlock()
		return
	}
	t.meta.Status, t.meta.Reason = store.Failed, reason
	t.meta.Updated = t.srv.opt.Now()
	t.over.Store(true)
	t.stopTimers()
	t.sendAll(failedMsg{Type: "failed", Table: t.view(), Reason: reason}, nil)
	t.mu.Unlock()
	t.srv.release(t)
}

// failedTable is the in-memory table of a stored table that could not be
// loaded: it has no game, and serves its view and its record (the stored
// actions, with the seed: the game can never go on).
func (s *Server) failedTable(ctx context.Context, tb store.Table, why error) *table {
	if tb.Status != store.Failed && tb.Status != store.Expired {
		reason := fmt.Sprintf("the table could not be resumed: %v", why)
		s.log.Error("table failed at load", "table", tb.ID, "err", why)
		if err := s.store.FailTable(ctx, tb.ID, reason); err != nil {
			s.log.Error("table failure not stored", "table", tb.ID, "err", err)
		}
		tb.Status, tb.Reason = store.Failed, reason
	}
	t := s.newTable(tb)
	t.kind, _ = s.kindOf(tb) // nil if its game cannot be opened
	t.over.Store(true)
	return t
}

// failedRefusal refuses an action at a failed or expired table, nil at
// others. t.mu is held.
func (t *table) failedRefusal() *refusal {
	switch t.meta.Status {
	case store.Failed:
		return refuse(codeGameOver, "the table failed: %s", t.meta.Reason)
	case store.Expired:
		return refuse(codeGameOver, "the table expired: %s", t.meta.Reason)
	case store.Adjourned:
		return refuse(codeAdjourned, "the game is adjourned: resume it first (POST /api/tables/%s/resume)", t.id)
	}
	return nil
}

// storedRecord returns the record of a failed table that has no game in
// memory (it failed at load): its rules, seats and seed, and the actions
// as stored.
func (s *Server) storedRecord(ctx context.Context, t *table) (*game.Record, error) {
	t.mu.Lock()
	failed := t.meta.Status == store.Failed
	rec := t.newRecord()
	t.mu.Unlock()
	if !failed {
		return nil, store.Errorf(store.ENOTFOUND, "the game at table %s has not started", t.id)
	}
	acts, err := s.store.Actions(ctx, t.id)
	if err != nil {
		return nil, err
	}
	rec.Actions = acts
	rec.Seed = t.meta.Seed.Hex()
	return rec, nil
}
