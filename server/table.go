package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// table is one table in memory, whatever the kind of its game: its stored
// description, the game once every seat is filled with everything that
// happened in it, the bots, and the clients watching. mu guards all of it;
// an action holds mu from its checks to its broadcast, so actions of a
// table are committed and broadcast in order.
type table struct {
	srv *Server
	id  string

	mu      sync.Mutex
	meta    store.Table
	kind    gameKind        // nil for a table whose game cannot be opened (failed)
	play    *game.Play      // nil while seats are free
	events  [][]game.Event  // events[i]: what brought the game to version base+i (0: the start's); a tail (history.go)
	base    int             // the version of events[0]
	bots    map[int]seatBot // by seat
	botSrc  *lockedSource   // the bots' random choices (Dragon Farkle)
	clients map[*client]struct{}
	// updateSize is the longest update encoded at this table: the size of
	// the next one's buffer (broadcastUpdate).
	updateSize int
	botTimer   *time.Timer
	closed     bool
	analysis   *Analysis
	rematch    rematch // the rematch of a finished game, or the seats a rematch keeps (rematch.go)
	over       atomic.Bool
	botsOnly   bool                 // every seat is a bot: fixed when made, so counted without mu (quota.go)
	clock      tableClock           // the turn clock (clock.go)
	ratings    []store.RatingChange // the rating changes of the finished game, if rated (rating.go)
	judged     judged               // the verdict of rating.Judge, made once (verdict)

	chat         []store.ChatLine         // the last lines of the table's chat (chat.go)
	watchersChat []store.ChatLine         // the last lines of its watchers' channel
	chatLoaded   bool                     // chat was read from the store
	chatRate     map[string]*rate.Limiter // chat lines by player
	// leased: this node holds the table's lease, and so makes the
	// server's moves there (bots, the turn clock; cluster.go).
	leased bool
	// actedHere is the number of the last action this node stored, or the
	// table's count when it was loaded: a hint of a later one is another
	// node's doing, even where this node has read it already (affinity.go).
	actedHere int
	// The adjournment of a table against bots its player left
	// (adjourn.go): its timer, and when the player's last connection went.
	adjournTimer *time.Timer
	leftAt       time.Time
	// used is when the table was last asked for or played (unix ns of
	// Options.Now); slept: it left memory, idle, and this copy is closed
	// (idle.go; set under s.mu and t.mu).
	used  atomic.Int64
	slept bool
}

// newTable returns the in-memory table of tb with nobody watching, no
// game and no bots.
func (s *Server) newTable(tb store.Table) *table {
	t := &table{srv: s, id: tb.ID, meta: tb, clients: map[*client]struct{}{}, botsOnly: botsOnly(tb.Seats), actedHere: tb.Actions}
	t.clock.seat, t.clock.auto = -1, -1
	t.touch()
	return t
}

// stopTimers stops the bot's and the clock's timers. t.mu is held.
func (t *table) stopTimers() {
	if t.botTimer != nil {
		t.botTimer.Stop()
	}
	if t.clock.timer != nil {
		t.clock.timer.Stop()
	}
	if t.adjournTimer != nil {
		t.adjournTimer.Stop()
	}
	t.clock.seat, t.clock.auto = -1, -1
}

// loadError is why a stored table cannot be loaded although the store
// answered: rules now refused, bots that cannot be made, actions that do
// not resume. The table fails; the server goes on.
type loadError struct{ err error }

func (e *loadError) Error() string { return e.err.Error() }
func (e *loadError) Unwrap() error { return e.err }

func cannotLoad(format string, args ...any) error {
	return &loadError{fmt.Errorf(format, args...)}
}

// loadTable builds the in-memory table of tb, resuming its game from the
// stored actions (or final record) and seed. A table that cannot be loaded
// is a *loadError; other errors are the store's.
func (s *Server) loadTable(ctx context.Context, tb store.Table) (*table, error) {
	k, err := s.kindOf(tb)
	if err != nil {
		return nil, cannotLoad("its rules are refused now: %v", strings.TrimPrefix(err.Error(), "rules: "))
	}
	t := s.newTable(tb)
	t.kind = k
	if tb.Status != store.Over {
		if t.bots, err = t.newBots(); err != nil {
			return nil, cannotLoad("its bots cannot be made: %v", err)
		}
	}
	if tb.Status == store.Waiting && !t.seatsFull() {
		return t, nil
	}
	rec := t.newRecord()
	if tb.Status == store.Over {
		if rec, err = s.store.FinalRecord(ctx, tb.ID); err != nil {
			return nil, err
		}
		if t.ratings, err = s.store.TableRatings(ctx, tb.ID); err != nil {
			return nil, err
		}
		t.over.Store(true)
	} else if rec.Actions, err = s.store.Actions(ctx, tb.ID); err != nil {
		return nil, err
	}
	p, steps, err := game.Resume(rec, tb.Seed)
	if err != nil {
		return nil, cannotLoad("its actions do not resume: %v", err)
	}
	t.setPlay(p, steps)
	if tb.Status == store.Adjourned {
		t.over.Store(true) // read as a finished table is until resumed (adjourn.go)
	}
	return t, nil
}

// resumeTable loads tb, or fails it when it cannot be loaded (a panic
// while loading included); the error is the store's only.
func (s *Server) resumeTable(ctx context.Context, tb store.Table) (t *table, err error) {
	if tb.Status == store.Failed || tb.Status == store.Expired {
		return s.failedTable(ctx, tb, nil), nil
	}
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic loading a table", "table", tb.ID, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			t, err = s.failedTable(ctx, tb, fmt.Errorf("internal error")), nil
		}
	}()
	t, err = s.loadTable(ctx, tb)
	var le *loadError
	if errors.As(err, &le) {
		return s.failedTable(ctx, tb, le), nil
	}
	return t, err
}

func (t *table) names() []string {
	out := make([]string, len(t.meta.Seats))
	for i, s := range t.meta.Seats {
		out[i] = s.Name
	}
	return out
}

func (t *table) seatsFull() bool {
	for _, s := range t.meta.Seats {
		if s.Bot == "" && s.PlayerID == "" {
			return false
		}
	}
	return true
}

// newRecord returns the empty record of the table's game.
func (t *table) newRecord() *game.Record {
	rec := &game.Record{Format: game.Format, Kind: t.meta.Kind, Rules: t.meta.Rules, Players: t.names(),
		Commitment: t.meta.Seed.Commitment(), Actions: []json.RawMessage{}}
	if t.kind != nil {
		rec.Rules = t.kind.rules()
	}
	rec.Meta.Started = t.meta.Created.UTC().Format(time.RFC3339)
	rec.Meta.Extra = map[string]string{"table": t.id}
	for i, s := range t.meta.Seats {
		if s.Bot != "" {
			rec.Meta.Extra[fmt.Sprintf("seat%d", i)] = "bot:" + s.Bot
		}
		if s.LostOnTime {
			rec.Meta.SetLostOnTime(i) // ontime.go
		}
	}
	return rec
}

// start begins the game once every seat is filled. t.mu is held.
func (t *table) start() error {
	p, _, err := game.Start(t.kind.variant(), t.names(), t.meta.Seed) // its events are p.Started()
	if err != nil {
		return err
	}
	p.Record().Meta = t.newRecord().Meta
	t.setPlay(p, nil)
	return nil
}

// join seats player p at the first free human seat (or the seat asked
// for), starting the game when every seat is filled.
func (t *table) join(ctx context.Context, p store.Player, want int) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, s := range t.meta.Seats {
		if s.PlayerID == p.ID {
			return i, nil
		}
	}
	if t.meta.Status != store.Waiting {
		return -1, store.Errorf(store.ECONFLICT, "table %s is %s: no seat can be taken; you can watch", t.id, t.meta.Status)
	}
	seat := want
	if seat < 0 {
		for _, invited := range []string{p.ID, ""} { // the seat kept for the player first, else the first open one
			for i, s := range t.meta.Seats {
				if s.Bot == "" && s.PlayerID == "" && s.Invited == invited && seat < 0 {
					seat = i
				}
			}
		}
		if seat < 0 {
			return -1, store.Errorf(store.ECONFLICT, "every seat at table %s is taken; you can watch", t.id)
		}
	}
	seats := append([]store.Seat(nil), t.meta.Seats...)
	if seat >= len(seats) || seats[seat].Bot != "" || seats[seat].PlayerID != "" {
		return -1, store.Errorf(store.ECONFLICT, "seat %d is not free", seat)
	}
	if inv := seats[seat].Invited; inv != "" && inv != p.ID {
		return -1, store.Errorf(store.ECONFLICT, "seat %d is kept for %s, who was invited", seat, seats[seat].Name)
	}
	seats[seat].PlayerID, seats[seat].Name = p.ID, uniqueName(seats, seat, p.Name)
	seats[seat].Invited = ""
	full := true
	for _, s := range seats {
		full = full && (s.Bot != "" || s.PlayerID != "")
	}
	status := store.Status("")
	if full {
		status = store.Playing
	}
	if err := t.srv.store.ClaimSeat(ctx, t.id, seat, p.ID, seats[seat].Name, status); err != nil {
		return -1, err
	}
	t.meta.Seats = seats
	if full {
		t.meta.Status = store.Playing
		t.meta.Updated = t.srv.opt.Now() // as ClaimSeat stored it, near enough: the clock of a game at your own pace runs from it
		if err := t.start(); err != nil {
			return -1, err
		}
		t.scheduleClock()
	}
	for c := range t.clients {
		c.sendWelcome()
	}
	t.scheduleBot()
	return seat, nil
}

// uniqueName returns name, or name with a number when another seat has it.
func uniqueName(seats []store.Seat, seat int, name string) string {
	taken := func(n string) bool {
		for i, s := range seats {
			if i != seat && strings.EqualFold(s.Name, n) {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for k := 2; ; k++ {
		n := fmt.Sprintf("%s %d", name, k)
		if !taken(n) {
			return n
		}
	}
}

// record returns a copy of the table's record as memory holds it (the
// seed only when the game is over; the entries of a long game's last
// actions only: fullRecord has them all), or nil before the game starts.
// t.mu is held.
func (t *table) record() *game.Record {
	if t.play == nil {
		return nil
	}
	rec := *t.play.Record()
	rec.Actions = append([]json.RawMessage(nil), rec.Actions...)
	switch {
	case t.meta.Status == store.Failed:
		rec.Seed = t.meta.Seed.Hex() // a failed game never goes on
	case !t.play.Game().Over():
		rec.Seed = ""
	}
	return &rec
}

// getTable returns the table in memory, loading it from the store if
// needed. A finished (or failed) table nobody watches is kept among the
// most recently read (Options.FinishedTables), not for good.
func (s *Server) getTable(ctx context.Context, id string) (*table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if t, ok := s.tables[id]; ok {
		t.touch()
		return t, nil
	}
	if t, ok := s.finished.get(id); ok {
		return t, nil
	}
	tb, err := s.store.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := s.resumeTable(ctx, tb)
	if err != nil {
		return nil, err
	}
	s.woke(t) // idle.go
	if t.over.Load() {
		s.finished.add(t)
		return t, nil
	}
	s.tables[id] = t
	t.mu.Lock()
	t.activate(ctx)
	t.mu.Unlock()
	return t, nil
}

// activate starts what an open table in memory runs: its bots'
// preparation, and, where this node takes its lease, its clock and bots.
// t.mu is held.
func (t *table) activate(ctx context.Context) {
	t.prepareBots()
	t.claim(ctx)
	t.scheduleClock()
	t.scheduleBot()
}

// watch keeps t in memory while a client watches it, unless it fell
// asleep (idle.go): the caller loads it again. t.mu is not held.
func (s *Server) watch(t *table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if _, ok := s.tables[t.id]; !ok && !t.slept {
		s.finished.remove(t.id)
		s.tables[t.id] = t
	}
}

// release moves a finished (or failed) table nobody watches to the
// finished tables kept by recent use; it is loaded again when asked for
// after it leaves them.
func (s *Server) release(t *table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.over.Load() && len(t.clients) == 0 && s.tables[t.id] == t {
		delete(s.tables, t.id)
		s.finished.add(t)
	}
}

// drop forgets the table with id (an expired table). t.mu is not held.
func (s *Server) drop(id string) *table {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[id]
	delete(s.tables, id)
	s.finished.remove(id)
	if sl, ok := s.asleep[id]; ok {
		s.forgetSleeper(id, sl)
	}
	return t
}
