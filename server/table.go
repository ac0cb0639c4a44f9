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

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// table is one table in memory: its stored description, the game once
// every seat is filled, the bots, and the clients watching. mu guards all
// of it; an action holds mu from its checks to its broadcast, so actions of
// a table are committed and broadcast in order.
type table struct {
	srv *Server
	id  string

	mu       sync.Mutex
	meta     store.Table
	game     *record.Game // nil while seats are free
	bots     map[int]bot.Strategy
	log      []logLine
	clients  map[*client]struct{}
	botTimer *time.Timer
	closed   bool
	analysis *Analysis
	over     atomic.Bool
	dg       *dragonTable // a Dragon Farkle table (dragon.go); nil for ordinary Farkle
	clock    tableClock   // the turn clock (clock.go)
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

// logLine is one event of the game as the log shows it.
type logLine struct {
	Version int    `json:"version"` // the state version after the action
	Type    string `json:"type"`
	Player  int    `json:"player"`
	Text    string `json:"text"`
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
// stored actions and seed. A table that cannot be loaded is a *loadError;
// other errors are the store's.
func (s *Server) loadTable(ctx context.Context, tb store.Table) (*table, error) {
	if tb.Kind == store.KindDragon {
		return s.loadDragonTable(ctx, tb)
	}
	if err := tb.Rules.Validate(); err != nil {
		return nil, cannotLoad("its rules are refused now: %v", strings.TrimPrefix(err.Error(), "rules: "))
	}
	t := s.newTable(tb)
	var err error
	if tb.Status != store.Over {
		if t.bots, err = s.newBots(tb.Seats, tb.Rules); err != nil {
			return nil, cannotLoad("its bots cannot be made: %v", err)
		}
	}
	if tb.Status == store.Waiting && !t.seatsFull() {
		return t, nil
	}
	if tb.Status == store.Over {
		rec, err := s.store.FinalRecord(ctx, tb.ID)
		if err != nil {
			return nil, err
		}
		g, err := record.Resume(rec, tb.Seed)
		if err != nil {
			return nil, cannotLoad("its record does not replay: %v", err)
		}
		t.game = g
		t.over.Store(true)
		t.rebuildLog()
		return t, nil
	}
	acts, err := s.store.Actions(ctx, tb.ID)
	if err != nil {
		return nil, err
	}
	rec := t.newRecord()
	rec.Actions = acts
	g, err := record.Resume(rec, tb.Seed)
	if err != nil {
		return nil, cannotLoad("its actions do not resume: %v", err)
	}
	t.game = g
	t.rebuildLog()
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
func (t *table) newRecord() *record.Record {
	rec := record.New(t.meta.Rules, t.names(), t.meta.Seed)
	rec.Meta.Started = t.meta.Created.UTC().Format(time.RFC3339)
	rec.Meta.Extra = map[string]string{"table": t.id}
	for i, s := range t.meta.Seats {
		if s.Bot != "" {
			rec.Meta.Extra[fmt.Sprintf("seat%d", i)] = "bot:" + s.Bot
		}
	}
	return rec
}

// start begins the game once every seat is filled.
func (t *table) start() error {
	if t.dg != nil {
		return t.startDragon()
	}
	g, err := record.Start(t.meta.Rules, t.names(), t.meta.Seed)
	if err != nil {
		return err
	}
	g.Record.Meta = t.newRecord().Meta
	t.game = g
	t.log = nil
	return nil
}

func (t *table) rebuildLog() {
	t.log = nil
	_, steps, err := record.Replay(t.game.Record)
	if err != nil {
		return
	}
	names := t.names()
	for i, st := range steps {
		t.appendLog(i+1, st.Events, names)
	}
}

func (t *table) appendLog(version int, evs []engine.Event, names []string) []logLine {
	start := len(t.log)
	for _, e := range evs {
		t.log = append(t.log, logLine{Version: version, Type: e.Kind.String(), Player: e.Player, Text: e.Describe(names)})
	}
	return t.log[start:]
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
func (t *table) playerAct(p *store.Player, seat int, version int, a engine.Action) *refusal {
	start := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if p == nil || seat < 0 || seat >= len(t.meta.Seats) || t.meta.Seats[seat].PlayerID != p.ID {
		return refuse(codeNotSeated, "your token does not hold seat %d at this table", seat)
	}
	if r := t.failedRefusal(); r != nil {
		return r
	}
	if t.game == nil {
		return refuse(codeNotStarted, "the game has not started: seats are still free")
	}
	st := t.game.State
	if st.Over() {
		return refuse(codeGameOver, "the game is over")
	}
	if actor := st.Actor(); actor != seat {
		return refuse(codeNotYourTurn, "it is %s's turn, not yours", t.meta.Seats[actor].Name)
	}
	a.Player = seat
	if err := engine.Check(st, a); err != nil {
		return refuse(codeIllegal, "%s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	if version != st.Version {
		return refuse(codeStale, "you acted on version %d but the game is at version %d: look again", version, st.Version)
	}
	t.acted(seat)
	if r := t.commit(a); r != nil {
		return r
	}
	t.srv.mLatency.Observe(time.Since(start).Seconds())
	return nil
}

// commit applies a legal action, stores it, and only then broadcasts it.
// If the store refuses, the game is rebuilt as it was and nothing is sent.
// t.mu is held.
func (t *table) commit(a engine.Action) *refusal {
	g := t.game
	ev, err := g.Do(a)
	if err != nil {
		return refuse(codeIllegal, "%s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	n := len(g.Record.Actions)
	var fin *store.Finish
	if g.State.Over() {
		g.Record.Meta.Ended = t.srv.opt.Now().UTC().Format(time.RFC3339)
		fin = t.finish()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err = t.srv.store.AppendAction(ctx, t.id, n, g.Record.Actions[n-1], fin)
	cancel()
	if err != nil {
		t.srv.log.Error("action not stored", "table", t.id, "action", n, "err", err)
		rec := *g.Record
		rec.Actions = rec.Actions[:n-1]
		rec.Seed = ""
		rec.Meta.Ended, rec.Meta.Winners, rec.Meta.Scores = "", nil, nil
		if back, rerr := record.Resume(&rec, t.meta.Seed); rerr == nil {
			t.game = back
		}
		return refuse(codeServer, "the action could not be saved; try again")
	}
	lines := t.appendLog(g.State.Version, ev, t.names())
	var winners, scores []int
	if fin != nil {
		winners, scores = fin.Winners, fin.Scores
	}
	t.settle(n, fin != nil, winners, scores, func() { t.broadcastUpdate(a, lines) })
	return nil
}

// settle brings the table's metadata up to date once action n is stored
// (over: it ended the game, with the winners and scores), tells the clients
// with broadcast, schedules the next bot, and lets a finished table nobody
// watches go. It serves both kinds of game; t.mu is held.
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

// finish builds the results of the finished game.
func (t *table) finish() *store.Finish {
	st := t.game.State
	fin := &store.Finish{Record: t.game.Record, Winners: st.Winners}
	for i, p := range st.Players {
		fin.Scores = append(fin.Scores, p.Score)
		won := false
		for _, w := range st.Winners {
			won = won || w == i
		}
		seat := t.meta.Seats[i]
		key := seat.PlayerID
		if seat.Bot != "" {
			key = "bot:" + seat.Bot
		}
		fin.Results = append(fin.Results, store.Result{Seat: i, PlayerKey: key, Name: seat.Name, Score: p.Score, Won: won,
			Turns: p.Turns, Farkles: p.Farkles, Banked: p.Banked, BestTurn: p.BestTurn, Penalties: p.Penalty})
	}
	return fin
}

// scheduleBot starts the bot's timer when a bot is to act. t.mu is held.
func (t *table) scheduleBot() {
	if t.dg != nil {
		t.scheduleDragonBot()
		return
	}
	if t.closed || t.game == nil || t.game.State.Over() {
		return
	}
	seat := t.game.State.Actor()
	if _, ok := t.bots[seat]; !ok {
		t.scheduleAuto()
		return
	}
	version := t.game.State.Version
	if t.botTimer != nil {
		t.botTimer.Stop()
	}
	t.botTimer = t.afterGuarded(t.srv.opt.BotDelay, "bot", func() { t.botAct(version) })
}

// botAct plays the bot's move if the game is still at version. The bot
// chooses without the table's lock: a solver bot's first decision may
// take long, and the table keeps serving its watchers meanwhile.
func (t *table) botAct(version int) {
	t.mu.Lock()
	if t.closed || t.over.Load() || t.game == nil || t.game.State.Over() || t.game.State.Version != version {
		t.mu.Unlock()
		return
	}
	seat := t.game.State.Actor()
	b, ok := t.bots[seat]
	st := t.game.State
	t.mu.Unlock()
	if !ok {
		return
	}
	a := b.Choose(st)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.over.Load() || t.game == nil || t.game.State.Version != version {
		return
	}
	t.botDone(seat, a, t.commit(a), func() { t.botAct(version) })
}

// botDone counts the outcome r of the bot's action at seat (nil: accepted).
// A refusal is logged, and one on the server's side (codeServer) is tried
// again by retry after a second unless the table has closed. t.mu is held.
func (t *table) botDone(seat int, action fmt.Stringer, r *refusal, retry func()) {
	if r != nil {
		t.srv.mActions.WithLabelValues("refused", "bot").Inc()
		t.srv.log.Error("bot action refused", "table", t.id, "seat", seat, "action", action.String(), "err", r.Msg)
		if r.Code == codeServer && !t.closed {
			t.botTimer = t.afterGuarded(time.Second, "bot", retry)
		}
		return
	}
	t.srv.mActions.WithLabelValues("accepted", "bot").Inc()
}

// makeBot returns a bot of the level for rules r: bot.New, or the
// Options' maker.
func (s *Server) makeBot(level string, r rules.Rules) (bot.Strategy, error) {
	if s.opt.Bots != nil {
		return s.opt.Bots(level, r)
	}
	return bot.New(level, r)
}

// newBots makes the bots of the seats.
func (s *Server) newBots(seats []store.Seat, r rules.Rules) (map[int]bot.Strategy, error) {
	bots := map[int]bot.Strategy{}
	for i, seat := range seats {
		if seat.Bot == "" {
			continue
		}
		b, err := s.makeBot(seat.Bot, r)
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
		if _, slow := b.(bot.Preparer); !slow {
			continue
		}
		t.goGuarded("bot preparation", func() {
			if err := bot.Prepare(b); err != nil {
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

// broadcastUpdate sends the new state and the action's log lines to every
// client. t.mu is held.
func (t *table) broadcastUpdate(a engine.Action, lines []logLine) {
	v := t.view()
	v.Rules = nil // the rules never change: they come with the welcome
	msg := updateMsg{Type: "update", Table: v, State: t.stateView(), Action: &a, Log: lines}
	b, err := json.Marshal(msg)
	if err != nil {
		t.srv.log.Error("encode update", "err", err)
		return
	}
	for c := range t.clients {
		c.send(b)
	}
}

// tableView is what clients see of a table.
type tableView struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind,omitempty"` // "dragon" for Dragon Farkle
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
	v := tableView{ID: tb.ID, Kind: tb.Kind, Status: string(tb.Status), Rules: tb.Rules, Commitment: tb.Commitment(), Actions: tb.Actions,
		Created: tb.Created.UTC(), Updated: tb.Updated.UTC(), Winners: tb.Winners, Scores: tb.Scores}
	if tb.Status == store.Over || tb.Status == store.Failed {
		v.Seed = tb.Seed.Hex() // a failed game never goes on
	}
	if d := clockOf(tb.Seats); d > 0 {
		v.Clock = &clockView{Seconds: d.Seconds()}
	}
	v.Reason = tb.Reason
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
	if v.Clock != nil && !t.over.Load() {
		v.Clock = t.clockView()
	}
	if t.dg != nil {
		v.Rules, v.Hints = t.dg.kit.game.Rules(), true
	}
	for i, b := range t.bots {
		if f, ok := b.(interface{ Fallback() string }); ok && i < len(v.Seats) {
			if why := f.Fallback(); why != "" {
				v.Seats[i].Note = "plays as expert: " + why
			}
		}
	}
	return v
}

// stateView is the engine state with what a client needs to draw the
// choices: the seat to act and the legal actions with their points.
type stateView struct {
	engine.State             // its step is "throw", "keep", "choose", or "" outside a turn
	Actor        int         `json:"actor"`
	ToThrow      int         `json:"to_throw"`
	Legal        []legalView `json:"legal"`
	BankWhy      string      `json:"bank_why,omitempty"` // why Bank is not allowed now
}

type legalView struct {
	Type   engine.Kind `json:"type"`
	Dice   []int       `json:"dice,omitempty"`
	Points int         `json:"points,omitempty"`
}

// stateView returns the game state for clients, nil before the game starts.
func (t *table) stateView() *stateView {
	if t.game == nil {
		return nil
	}
	return makeStateView(t.game.State)
}

func makeStateView(s engine.State) *stateView {
	v := &stateView{State: s, Actor: s.Actor(), ToThrow: s.ToThrow(), Legal: []legalView{}}
	if s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
		for _, k := range s.Table().Keeps(s.Throw) {
			v.Legal = append(v.Legal, legalView{Type: engine.Keep, Dice: k.Hand.Faces(), Points: int(k.Points)})
		}
	} else {
		for _, a := range s.Legal() {
			v.Legal = append(v.Legal, legalView{Type: a.Kind})
		}
	}
	if ok, why := s.CanBank(); !ok && s.Phase == engine.PhasePlay && s.Step == engine.StepChoose {
		v.BankWhy = why
	}
	return v
}

// record returns a copy of the table's record (the seed only when the
// game is over), or nil before the game starts.
func (t *table) record() *record.Record {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.game == nil {
		return nil
	}
	rec := *t.game.Record
	rec.Actions = append([]record.Entry(nil), rec.Actions...)
	switch {
	case t.meta.Status == store.Failed:
		rec.Reveal(t.meta.Seed) // a failed game never goes on
	case !t.game.State.Over():
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
