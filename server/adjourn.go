package server

import (
	"context"
	"net/http"
	"time"

	"github.com/farkle/farkle/store"
)

// Adjourned games. A game of one person against bots waits for its player
// (clock_bots.go); left long enough (Options.AdjournAfter, --adjourn-after:
// a week by default, from the later of the table's last change and the
// player's last connection going) it is adjourned: store.Adjourned, a
// status of its own. An adjourned game is never lost, rated or in anyone's
// stats; it counts against no cap on tables (the player's or the
// server's), leaves memory (it is read like a finished table when asked
// for) and takes no action. It shows in its player's games with a Resume
// button: POST /api/tables/{id}/resume, by its player and within the
// player's caps as a new table would be, makes it playing again as it
// stood. The node holding the table's lease adjourns it, and the store
// adjourns it only if nobody acted since (store.Adjourn), so a move made
// meanwhile on another node wins.

// codeAdjourned refuses an action at an adjourned table.
const codeAdjourned = "adjourned"

// adjournable reports whether the table is one its player could leave to
// be adjourned: one person's against bots, in play, run by this node. t.mu
// is held.
func (t *table) adjournable() bool {
	return t.srv.opt.AdjournAfter > 0 && t.leased && !t.closed && !t.over.Load() && t.play != nil &&
		t.meta.Status == store.Playing && t.waitsForPlayer()
}

// person returns the seat of the one person at a table against bots, -1
// if none.
func (t *table) person() int {
	for i, s := range t.meta.Seats {
		if s.Bot == "" {
			return i
		}
	}
	return -1
}

// scheduleAdjourn arms the adjournment of a table against bots while its
// player has no connection to it, and disarms it otherwise. t.mu is held.
func (t *table) scheduleAdjourn() {
	if t.adjournTimer != nil {
		t.adjournTimer.Stop()
		t.adjournTimer = nil
	}
	seat := t.person()
	if !t.adjournable() || seat < 0 || t.present(seat) {
		return
	}
	since := t.meta.Updated
	if t.leftAt.After(since) {
		since = t.leftAt
	}
	left := max(0, t.srv.opt.AdjournAfter-t.srv.opt.Now().Sub(since))
	n := t.meta.Actions
	t.adjournTimer = t.afterGuarded(left, "adjourn", func() { t.adjourn(n) })
}

// adjourn adjourns the table if it is still adjournable with n actions and
// its player still away.
func (t *table) adjourn(n int) {
	t.mu.Lock()
	seat := t.person()
	if !t.adjournable() || seat < 0 || t.present(seat) || t.meta.Actions != n {
		t.mu.Unlock()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err := t.srv.store.Adjourn(ctx, t.id, n)
	cancel()
	if err != nil {
		t.srv.log.Warn("table not adjourned", "table", t.id, "err", err)
		t.mu.Unlock()
		return
	}
	t.srv.log.Info("table adjourned", "table", t.id, "away", t.srv.opt.AdjournAfter)
	t.adjourned()
	t.mu.Unlock()
	t.srv.release(t)
}

// adjourned brings the table in memory to the adjourned status: nothing
// runs there, and it leaves memory once nobody watches. t.mu is held.
func (t *table) adjourned() {
	t.meta.Status = store.Adjourned
	t.meta.Updated = t.srv.opt.Now()
	t.over.Store(true) // no longer open: no clock, no bots, no lease, not counted (quota.go)
	t.stopTimers()
	for c := range t.clients {
		c.sendWelcome()
	}
}

// handleResume serves POST /api/tables/{id}/resume: the seated player of
// an adjourned table makes it playing again, within the caps on their
// tables (quota.go). 404 without such a table, 403 for anyone but its
// player, 409 if it is not adjourned, 429 over a cap.
func (s *Server) handleResume(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	id := r.PathValue("id")
	tb, err := s.store.Table(r.Context(), id)
	if err != nil {
		s.httpError(w, err)
		return
	}
	mine := false
	for _, seat := range tb.Seats {
		mine = mine || (seat.Bot == "" && seat.PlayerID == p.ID)
	}
	if !mine {
		writeJSON(w, http.StatusForbidden, apiError{Error: "only the table's player may resume it", Code: "forbidden"})
		return
	}
	if tb.Status != store.Adjourned {
		s.httpError(w, store.Errorf(store.ECONFLICT, "table %s is %s, not adjourned: there is nothing to resume", id, tb.Status.Phrase()))
		return
	}
	err = s.admit(r.Context(), p, tb.Seats, func() error { return s.store.Resume(r.Context(), id) })
	if err != nil {
		s.httpError(w, err)
		return
	}
	if old := s.drop(id); old != nil { // the adjourned table in memory: its watchers connect again, to the game resumed
		old.mu.Lock()
		for c := range old.clients {
			c.close(goingAway, "the game is resumed")
		}
		old.mu.Unlock()
	}
	t, err := s.getTable(r.Context(), id)
	if err != nil {
		s.httpError(w, err)
		return
	}
	t.mu.Lock()
	v := t.view()
	t.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// maxAdjournedListed is how many of a player's adjourned games GET
// /api/me/games lists, after its open ones.
const maxAdjournedListed = 50

// adjournedLines returns the player's adjourned games as lines of its
// games, the latest first, read from the store alone (an adjourned table
// is not loaded for them).
func (s *Server) adjournedLines(ctx context.Context, player string) ([]gameLine, error) {
	tbs, err := s.store.Tables(ctx, store.TableFilter{PlayerID: player, Status: []store.Status{store.Adjourned}, Limit: maxAdjournedListed})
	if err != nil {
		return nil, err
	}
	out := make([]gameLine, 0, len(tbs))
	for _, tb := range tbs {
		l := gameLine{tableView: viewOf(tb), Seat: -1}
		l.Rules, l.Clock = nil, nil
		for i, seat := range tb.Seats {
			if seat.PlayerID == player {
				l.Seat = i
			}
		}
		out = append(out, l)
	}
	return out, nil
}
