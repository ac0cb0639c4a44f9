package server

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/farkle/farkle/store"
)

// Waiting tables expire: a table still waiting for players
// Options.WaitingExpiry after its last change is marked expired in the
// store, leaves memory and the lobby, and its watchers are told. The check
// runs at start and then every expiryEvery(WaitingExpiry).

// expiryEvery returns how often the expiry runs: a 24th of the expiry,
// between 50 ms and 10 minutes, so a table expires at most ~4% late.
func expiryEvery(expiry time.Duration) time.Duration {
	return min(max(expiry/24, 50*time.Millisecond), 10*time.Minute)
}

// startExpiry starts the expiry loops (of waiting tables, and of guests),
// which end with Close.
func (s *Server) startExpiry() {
	if s.opt.GuestExpiry > 0 {
		s.every(expiryEvery(s.opt.GuestExpiry), s.expireGuests)
	}
	if s.opt.WaitingExpiry <= 0 {
		return
	}
	s.every(expiryEvery(s.opt.WaitingExpiry), s.expireWaiting)
}

// every runs f every d, in a goroutine of its own, until Close.
func (s *Server) every(d time.Duration, f func()) {
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		tick := time.NewTicker(d)
		defer tick.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-tick.C:
				f()
			}
		}
	}()
}

// expireWaiting expires the waiting tables past the expiry. A panic is
// logged and the loop goes on.
func (s *Server) expireWaiting() {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic expiring tables", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	reason := s.expiryReason()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ids, err := s.store.ExpireWaiting(ctx, s.opt.Now().Add(-s.opt.WaitingExpiry), reason)
	if err != nil {
		s.log.Error("expiring waiting tables", "err", err)
		return
	}
	for _, id := range ids {
		t := s.drop(id)
		if t == nil {
			continue
		}
		t.mu.Lock()
		t.meta.Status, t.meta.Reason = store.Expired, reason
		t.over.Store(true)
		t.stopTimers()
		t.sendAll(failedMsg{Type: "expired", Table: t.view(), Reason: reason}, nil)
		t.mu.Unlock()
	}
	if len(ids) > 0 {
		s.log.Info("waiting tables expired", "count", len(ids))
	}
}

// expiryReason is the reason stored with an expired table.
func (s *Server) expiryReason() string {
	return fmt.Sprintf("nobody joined within %s", s.opt.WaitingExpiry)
}

// Guests expire: a guest that nothing keeps (store.Store.ExpireGuests:
// never at a table, no account, no SSH key…) and that has not been seen
// for Options.GuestExpiry is deleted with its sessions, so that guests
// made by a flood and never used do not stay for good. The check runs
// every expiryEvery(GuestExpiry), deleting guestBatch guests a write (each
// write short, so that the tables' writes wait little) until none is
// left or guestExpiryTime has passed.
const (
	guestBatch      = 500
	guestExpiryTime = 30 * time.Second
)

// expireGuests deletes the guests past the expiry. A panic is logged and
// the loop goes on.
func (s *Server) expireGuests() {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic expiring guests", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), guestExpiryTime)
	defer cancel()
	before := s.opt.Now().Add(-s.opt.GuestExpiry)
	total := 0
	for ctx.Err() == nil {
		n, err := s.store.ExpireGuests(ctx, before, guestBatch)
		if err != nil {
			s.log.Error("expiring guests", "err", err)
			break
		}
		total += n
		if n < guestBatch {
			break
		}
	}
	if total > 0 {
		s.log.Info("guests expired", "count", total)
	}
}
