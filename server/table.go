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

	mu       sync.Mutex
	meta     store.Table
	kind     gameKind        // nil for a table whose game cannot be opened (failed)
	play     *game.Play      // nil while seats are free
	events   [][]game.Event  // events[0]: the start's; events[i]: action i's
	bots     map[int]seatBot // by seat
	botSrc   *lockedSource   // the bots' random choices (Dragon Farkle)
	clients  map[*client]struct{}
	botTimer *time.Timer
	closed   bool
	analysis *Analysis
	over     atomic.Bool
	clock    tableClock // the turn clock (clock.go)
}

// newTable returns the in-memory table of tb with nobody watching, no
// game and no bots.
func (s *Server) newTable(tb store.Table) *table {
	t := &table{srv: s, id: tb.ID, meta: tb, clients: map[*client]struct{}{}}
	t.clock.seat, t.clock.auto = -1, -1
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
		t.over.Store(true)
	} else if rec.Actions, err = s.store.Actions(ctx, tb.ID); err != nil {
		return nil, err
	}
	p, steps, err := game.Resume(rec, tb.Seed)
	if err != nil {
		return nil, cannotLoad("its actions do not resume: %v", err)
	}
	t.play = p
	t.events = [][]game.Event{p.Started()}
	for _, st := range steps {
		t.events = append(t.events, st.Events)
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
	}
	return rec
}

// start begins the game once every seat is filled. t.mu is held.
func (t *table) start() error {
	p, evs, err := game.Start(t.kind.variant(), t.names(), t.meta.Seed)
	if err != nil {
		return err
	}
	p.Record().Meta = t.newRecord().Meta
	t.play = p
	t.events = [][]game.Event{evs}
	return nil
}

// Refusal codes sent in error messages, in the order the checks are made.
const (
	codeBadMessage  = "bad_message"   // not JSON, unknown type, unknown action
	codeNotSeated   = "not_seated"    // the connection's token holds no such seat
	codeNotStarted  = "not_started"   // seats are still free
	codeGameOver    = "game_over"     // the game has ended
	codeNotYourTurn = "not_your_turn" // another seat is to act
	codeIllegal     = "illegal"       // the engine refuses the action now
	codeStale       = "stale"         // the version sent is not the current one
	codeRateLimited = "rate_limited"  // too many messages a second
	codeUnavailable = "unavailable"   // hints without an advisor
	codeServer      = "server_error"  // the action could not be stored
)

// refusal is why an action was refused.
type refusal struct {
	Code string
	Msg  string
}

func refuse(code, format string, args ...any) *refusal {
	return &refusal{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// playerAct checks and applies an action sent by player for seat with the
// state version the client saw. The checks run in the documented order.
// t.mu is held.
func (t *table) playerAct(p *store.Player, seat int, version int, a game.Action) *refusal {
	if p == nil || seat < 0 || seat >= len(t.meta.Seats) || t.meta.Seats[seat].PlayerID != p.ID {
		return refuse(codeNotSeated, "your token does not hold seat %d at this table", seat)
	}
	if r := t.failedRefusal(); r != nil {
		return r
	}
	if t.play == nil {
		return refuse(codeNotStarted, "the game has not started: seats are still free")
	}
	g := t.play.Game()
	if g.Over() {
		return refuse(codeGameOver, "the game is over")
	}
	if actor := g.ToAct(); actor != seat {
		return refuse(codeNotYourTurn, "it is %s's turn, not yours", t.meta.Seats[actor].Name)
	}
	if err := g.Check(seat, a); err != nil {
		return refuse(codeIllegal, "%s", gameError(err))
	}
	if version != g.Version() {
		return refuse(codeStale, "you acted on version %d but the game is at version %d: look again", version, g.Version())
	}
	t.acted(seat)
	return t.commit(seat, a)
}

// gameError is the message of a refusal of the game, without the
// package's prefix.
func gameError(err error) string {
	msg := err.Error()
	for _, p := range []string{"engine: ", "dragon: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

// commit plays a legal action of seat, stores it, and only then
// broadcasts it. If the store refuses, the game is rebuilt as it was and
// nothing is sent. t.mu is held.
func (t *table) commit(seat int, a game.Action) *refusal {
	p := t.play
	evs, err := p.Do(seat, a)
	if err != nil {
		return refuse(codeIllegal, "%s", gameError(err))
	}
	rec := p.Record()
	n := len(rec.Actions)
	g := p.Game()
	var fin *store.Finish
	if g.Over() {
		rec.Meta.Ended = t.srv.opt.Now().UTC().Format(time.RFC3339)
		fin = t.finish()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err = t.srv.store.AppendAction(ctx, t.id, n, rec.Actions[n-1], fin)
	cancel()
	if err != nil {
		t.srv.log.Error("action not stored", "table", t.id, "action", n, "err", err)
		back := *rec
		back.Actions = back.Actions[:n-1]
		back.Seed = ""
		back.Meta.Ended, back.Meta.Winners, back.Meta.Scores = "", nil, nil
		if prev, _, rerr := game.Resume(&back, t.meta.Seed); rerr == nil {
			t.play = prev
		}
		return refuse(codeServer, "the action could not be saved; try again")
	}
	t.events = append(t.events, evs)
	var winners, scores []int
	if fin != nil {
		winners, scores = fin.Winners, fin.Scores
	}
	t.settle(n, fin != nil, winners, scores, func() { t.broadcastUpdate(seat, a, evs) })
	return nil
}

// settle brings the table's metadata up to date once action n is stored
// (over: it ended the game, with the winners and scores), tells the clients
// with broadcast, schedules the next bot, and lets a finished table nobody
// watches go. t.mu is held.
func (t *table) settle(n int, over bool, winners, scores []int, broadcast func()) {
	t.meta.Actions = n
	t.meta.Updated = t.srv.opt.Now()
	if t.meta.Status == store.Waiting {
		t.meta.Status = store.Playing
	}
	if over {
		t.meta.Status = store.Over
		t.meta.Winners, t.meta.Scores = winners, scores
		t.over.Store(true)
	}
	t.scheduleClock()
	broadcast()
	t.scheduleBot()
	if over && len(t.clients) == 0 {
		go t.srv.release(t) // nobody watches: forget it; it loads again when asked for
	}
}

// finish builds the results of the finished game: a line for each seat
// with its score, whether it won, and the counts its kind keeps.
func (t *table) finish() *store.Finish {
	g := t.play.Game()
	fin := &store.Finish{Record: t.play.Record(), Winners: g.Winners(), Scores: g.Scores()}
	for i, seat := range t.meta.Seats {
		won := false
		for _, w := range fin.Winners {
			won = won || w == i
		}
		key := seat.PlayerID
		if seat.Bot != "" {
			key = "bot:" + seat.Bot
		}
		r := store.Result{Seat: i, PlayerKey: key, Name: seat.Name, Score: fin.Scores[i], Won: won}
		t.kind.result(g, i, &r)
		fin.Results = append(fin.Results, r)
	}
	return fin
}

// newBots makes the bots of the table's seats. t.mu is held or the table
// is not yet shared.
func (t *table) newBots() (map[int]seatBot, error) {
	bots := map[int]seatBot{}
	for i, seat := range t.meta.Seats {
		if seat.Bot == "" {
			continue
		}
		b, err := t.kind.bot(t, seat.Bot)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w", i, err)
		}
		bots[i] = b
	}
	return bots, nil
}

// prepareBots starts loading what the table's solver bots need in the
// background (solving a rule set the first time takes minutes; the result
// is cached by package bot). A panic there fails the table.
func (t *table) prepareBots() {
	for seat, b := range t.bots {
		p, ok := b.(interface{ prepare() error })
		if !ok {
			continue
		}
		t.goGuarded("bot preparation", func() {
			if err := p.prepare(); err != nil {
				t.srv.log.Warn("bot preparation failed", "table", t.id, "seat", seat, "level", t.meta.Seats[seat].Bot, "err", err)
			}
		})
	}
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
		for i, s := range t.meta.Seats {
			if s.Bot == "" && s.PlayerID == "" {
				seat = i
				break
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
	seats[seat].PlayerID, seats[seat].Name = p.ID, uniqueName(seats, seat, p.Name)
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

// broadcastUpdate sends every client the new state and the events of
// actor's action a as its seat sees them. t.mu is held.
func (t *table) broadcastUpdate(actor int, a game.Action, evs []game.Event) {
	tv := t.view()
	tv.Rules = nil // the rules never change: they come with the welcome
	bySeat := map[int][]byte{}
	private := t.kind.private()
	for c := range t.clients {
		seat := -1
		if private {
			seat = c.seat()
		}
		b, ok := bySeat[seat]
		if !ok {
			var err error
			if b, err = json.Marshal(t.kind.update(t, seat, tv, actor, a, evs)); err != nil {
				t.srv.log.Error("encode update", "err", err)
				return
			}
			bySeat[seat] = b
		}
		c.send(b)
	}
}

// tableView is what clients see of a table.
type tableView struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind,omitempty"` // "dragon" for Dragon Farkle; none for the ordinary game
	Status     string     `json:"status"`
	Rules      any        `json:"rules,omitempty"` // left out of updates
	Seats      []seatView `json:"seats"`
	Commitment string     `json:"commitment"`
	Seed       string     `json:"seed,omitempty"` // only once the game is over
	Actions    int        `json:"actions"`
	Created    time.Time  `json:"created"`
	Updated    time.Time  `json:"updated"`
	Winners    []int      `json:"winners,omitempty"`
	Scores     []int      `json:"scores,omitempty"`
	Watchers   int        `json:"watchers"`
	Hints      bool       `json:"hints"`
	Clock      *clockView `json:"clock,omitempty"`  // at a table with a turn clock
	Reason     string     `json:"reason,omitempty"` // why a table failed or expired
}

type seatView struct {
	Name     string `json:"name"`
	Bot      string `json:"bot,omitempty"`
	Free     bool   `json:"free"`
	PlayerID string `json:"player_id,omitempty"`
	Note     string `json:"note,omitempty"` // why a bot plays below its level, e.g. "plays as expert: its table would need 2.1 GiB, ..."
}

func viewOf(tb store.Table) tableView {
	v := tableView{ID: tb.ID, Status: string(tb.Status), Rules: tb.Rules, Commitment: tb.Commitment(), Actions: tb.Actions,
		Created: tb.Created.UTC(), Updated: tb.Updated.UTC(), Winners: tb.Winners, Scores: tb.Scores}
	if tb.Status == store.Over || tb.Status == store.Failed {
		v.Seed = tb.Seed.Hex() // a failed game never goes on
	}
	if d := clockOf(tb.Seats); d > 0 {
		v.Clock = &clockView{Seconds: d.Seconds()}
	}
	v.Reason = tb.Reason
	if tb.Kind != game.Farkle {
		v.Kind = string(tb.Kind)
	}
	for _, s := range tb.Seats {
		v.Seats = append(v.Seats, seatView{Name: s.Name, Bot: s.Bot, Free: s.Bot == "" && s.PlayerID == "", PlayerID: s.PlayerID})
	}
	return v
}

// view returns the table as clients see it. t.mu is held.
func (t *table) view() tableView {
	v := viewOf(t.meta)
	v.Watchers = len(t.clients)
	v.Hints = t.srv.opt.Advisor != nil
	if t.kind != nil {
		v.Rules, v.Hints = t.kind.rules(), t.kind.hints()
	}
	if v.Clock != nil && !t.over.Load() {
		v.Clock = t.clockView()
	}
	for i, b := range t.bots {
		if f, ok := b.(interface{ fallback() string }); ok && i < len(v.Seats) {
			if why := f.fallback(); why != "" {
				v.Seats[i].Note = "plays as expert: " + why
			}
		}
	}
	return v
}

// record returns a copy of the table's record (the seed only when the
// game is over), or nil before the game starts.
func (t *table) record() *game.Record {
	t.mu.Lock()
	defer t.mu.Unlock()
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
	if t.over.Load() {
		s.finished.add(t)
		return t, nil
	}
	s.tables[id] = t
	t.mu.Lock()
	t.prepareBots()
	t.scheduleClock()
	t.scheduleBot()
	t.mu.Unlock()
	return t, nil
}

// watch keeps t in memory while a client watches it. t.mu is not held.
func (s *Server) watch(t *table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if _, ok := s.tables[t.id]; !ok {
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
	return t
}
