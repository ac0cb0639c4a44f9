package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/store"
)

// Dragon Farkle tables (docs/RULES.md section 5) run beside ordinary ones: the
// same seats, tokens, commitment, check order, group-committed store and
// bot pacing, with package dragon as the game. Each client gets only the
// View and the ViewEvents of its own seat (spectators the Spectator view),
// so no Magic Item of another player ever leaves the server before the
// record is downloaded at the end.

// dragonVariant is the store.Table.Variant of the dragon tables created
// now: the army battle with the seat bonus (dragon.DefaultRules). Tables
// stored before it (Variant "") play on with the classic battle they
// started with.
const dragonVariant = "army"

// dragonShared is what every new dragon table shares: the game (default
// rules and cards), the bots' tables and the odds table, computed once.
var dragonShared = sync.OnceValue(func() *dragonKit { return newDragonKit(dragon.DefaultRules()) })

// dragonClassic is the kit of the tables stored before the army battle.
var dragonClassic = sync.OnceValue(func() *dragonKit { return newDragonKit(dragon.ClassicRules()) })

func newDragonKit(r dragon.Rules) *dragonKit {
	g := dragon.MustGame(r, nil)
	return &dragonKit{game: g, brains: dragon.NewBrains(g), odds: dragon.OddsTable(g.Rules())}
}

// dragonKitOf returns the kit of a stored table's variant.
func dragonKitOf(variant string) (*dragonKit, error) {
	switch variant {
	case dragonVariant:
		return dragonShared(), nil
	case "":
		return dragonClassic(), nil
	}
	return nil, fmt.Errorf("unknown Dragon Farkle variant %q", variant)
}

type dragonKit struct {
	game   *dragon.Game
	brains *dragon.Brains
	odds   []dragon.OddsRow
}

// dragonTable is the dragon game of a table. The table's mu guards it.
type dragonTable struct {
	kit     *dragonKit
	seed    [32]byte
	started bool
	src     dice.Source // the game's source, advanced by New and every Apply
	botSrc  dice.Source // the Random bots' choices
	state   dragon.State
	actions []dragon.Action
	events  [][]dragon.Event // events[0]: New's; events[i]: action i's
	bots    map[int]*dragon.Bot
}

// version is the number of actions played: what clients send back.
func (d *dragonTable) version() int { return len(d.actions) }

// isDragonRules reports whether a table request asks for Dragon Farkle.
func isDragonRules(raw json.RawMessage) bool {
	var name string
	return json.Unmarshal(raw, &name) == nil && name == store.KindDragon
}

// dragonBots makes the bots of a dragon table's seats (levels of
// dragon.ParseLevel).
func dragonBots(seats []store.Seat, kit *dragonKit) (map[int]*dragon.Bot, error) {
	bots := map[int]*dragon.Bot{}
	for i, s := range seats {
		if s.Bot == "" {
			continue
		}
		lv, err := dragon.ParseLevel(s.Bot)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w (Dragon Farkle bots: %s)", i, err, strings.Join(dragon.Levels(), ", "))
		}
		bots[i] = dragon.NewBot(lv, kit.brains)
	}
	return bots, nil
}

// newDragonTable serves POST /api/tables with rules "dragon".
func (s *Server) newDragonTable(w http.ResponseWriter, r *http.Request, p store.Player, req newTableReq, clock time.Duration) {
	kit := dragonShared()
	dr := kit.game.Rules()
	if len(req.Seats) == 0 {
		req.Seats = []seatReq{{Type: "me"}, {Type: "bot", Level: "smart"}}
	}
	if n := len(req.Seats); n < dr.MinPlayers || n > dr.MaxPlayers {
		s.httpError(w, badRequest("seats: %d seats, but Dragon Farkle takes %d to %d players", n, dr.MinPlayers, dr.MaxPlayers))
		return
	}
	seats, err := s.seatsOf(r, req.Seats, func(level string) (string, error) {
		lv, err := dragon.ParseLevel(level)
		if err != nil {
			return "", fmt.Errorf("%v (Dragon Farkle bots: %s)", err, strings.Join(dragon.Levels(), ", "))
		}
		return lv.String(), nil
	})
	if err != nil {
		s.httpError(w, err)
		return
	}
	withClock(seats, clock)
	rs := dr.Soldiers
	rs.Name = store.KindDragon
	tb := store.Table{ID: randomID(9), Kind: store.KindDragon, Variant: dragonVariant, Rules: rs, Seats: seats, Seed: dice.NewSeed(), Status: store.Waiting, Created: s.opt.Now()}
	tb.Updated = tb.Created
	t, err := s.newDragon(tb)
	if err != nil {
		s.httpError(w, badRequest("%v", err))
		return
	}
	v, err := s.openTable(r.Context(), p, tb, t, t.startDragon)
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.log.Info("table created", "table", tb.ID, "kind", tb.Kind, "seats", len(seats), "commitment", tb.Commitment())
	writeJSON(w, http.StatusCreated, v)
}

// newDragon returns the in-memory dragon table of tb, not started.
func (s *Server) newDragon(tb store.Table) (*table, error) {
	if _, ok := s.store.(store.RawStore); !ok {
		return nil, errors.New("this server's store cannot keep Dragon Farkle games")
	}
	kit, err := dragonKitOf(tb.Variant)
	if err != nil {
		return nil, err
	}
	bots, err := dragonBots(tb.Seats, kit)
	if err != nil {
		return nil, err
	}
	seed := [32]byte(tb.Seed)
	t := s.newTable(tb)
	t.dg = &dragonTable{kit: kit, seed: seed, bots: bots, botSrc: dice.NewSource(dice.Seed(seed).Derive("dragon-bots"))}
	return t, nil
}

// loadDragonTable is loadTable for a dragon table: it replays the stored
// actions (or the final record) from the seed.
func (s *Server) loadDragonTable(ctx context.Context, tb store.Table) (*table, error) {
	t, err := s.newDragon(tb)
	if err != nil {
		return nil, cannotLoad("%v", err)
	}
	if tb.Status == store.Waiting && !t.seatsFull() {
		return t, nil
	}
	raw := s.store.(store.RawStore)
	var acts []dragon.Action
	if tb.Status == store.Over {
		data, err := raw.RawFinalRecord(ctx, tb.ID)
		if err != nil {
			return nil, err
		}
		rec, err := dragon.ParseRecord(data)
		if err != nil {
			return nil, cannotLoad("its record does not read: %v", err)
		}
		acts = rec.Actions
		t.over.Store(true)
	} else {
		entries, err := raw.RawActions(ctx, tb.ID)
		if err != nil {
			return nil, err
		}
		for i, e := range entries {
			var a dragon.Action
			if err := json.Unmarshal(e, &a); err != nil {
				return nil, cannotLoad("its action %d does not read: %v", i+1, err)
			}
			acts = append(acts, a)
		}
	}
	if err := t.dg.replay(t.names(), acts); err != nil {
		return nil, cannotLoad("its actions do not resume: %v", err)
	}
	return t, nil
}

// replay rebuilds the game from its actions, leaving the source where
// the next action draws from.
func (d *dragonTable) replay(names []string, acts []dragon.Action) error {
	g := d.kit.game
	src := dice.NewSource(d.seed)
	st, evs, err := g.New(names, src)
	if err != nil {
		return err
	}
	events := [][]dragon.Event{evs}
	for i, a := range acts {
		st, evs, err = g.Apply(st, a, src)
		if err != nil {
			return fmt.Errorf("action %d (%s): %w", i+1, a, err)
		}
		events = append(events, evs)
	}
	d.started, d.src, d.state, d.events = true, src, st, events
	d.actions = append([]dragon.Action(nil), acts...)
	return nil
}

// startDragon deals the game once every seat is filled. t.mu is held.
func (t *table) startDragon() error {
	return t.dg.replay(t.names(), nil)
}

// dragonLine is one line of a dragon table's log, as one seat may read it.
type dragonLine struct {
	Version int    `json:"version"` // the number of actions played when it happened
	Kind    string `json:"kind"`
	Seat    int    `json:"seat"`
	Text    string `json:"text"`
	// Dice, Face and N of a throw (N: its brawl score), so that a front
	// end can show a brawl throw by throw.
	Dice dice.Hand        `json:"dice,omitempty"`
	Face dragon.EventFace `json:"face,omitempty"`
	N    int              `json:"n,omitempty"`
}

// dragonView is the game as one seat sees it, with the state version and,
// on the seat's turn, the soldiers each legal keep is worth.
type dragonView struct {
	dragon.View
	Version int          `json:"version"`
	Keeps   []dragonKeep `json:"keeps,omitempty"`
}

// dragonKeep is one legal keep with what it is worth: Points recruited
// (before a Rally's doubling), or Cost paid in a battle.
type dragonKeep struct {
	Dice   []int `json:"dice"`
	Points int   `json:"points"`
	Cost   int   `json:"cost,omitempty"`
}

// dragonViewFor returns the game for seat (dragon.Spectator for a watcher),
// nil before it starts. t.mu is held.
func (t *table) dragonViewFor(seat int) *dragonView {
	d := t.dg
	if !d.started {
		return nil
	}
	g := d.kit.game
	v := &dragonView{View: g.View(d.state, seat), Version: d.version()}
	seen := map[dice.Hand]bool{}
	for _, a := range v.Legal {
		if a.Kind != dragon.ActKeep || seen[a.Keep] {
			continue
		}
		seen[a.Keep] = true
		pts, _ := g.Table().Points(a.Keep)
		k := dragonKeep{Dice: a.Keep.Faces(), Points: pts}
		if d.state.Mode == dragon.Battling {
			k.Cost = g.BattleCost(d.state, pts)
		}
		v.Keeps = append(v.Keeps, k)
	}
	return v
}

// dragonLog returns the log lines of events for seat.
func (t *table) dragonLog(version int, evs []dragon.Event, seat int) []dragonLine {
	names := t.names()
	out := []dragonLine{}
	for _, e := range dragon.ViewEvents(evs, seat) {
		l := dragonLine{Version: version, Kind: e.Kind.String(), Seat: e.Seat, Text: t.dg.kit.game.Describe(names, e)}
		if e.Kind == dragon.EvThrow {
			l.Dice, l.Face, l.N = e.Dice, e.Face, e.N
		}
		out = append(out, l)
	}
	return out
}

type dragonWelcomeMsg struct {
	Type   string       `json:"type"` // "welcome"
	Kind   string       `json:"kind"` // "dragon"
	You    youView      `json:"you"`
	Table  tableView    `json:"table"`
	Dragon *dragonView  `json:"dragon"` // null before the game starts
	Log    []dragonLine `json:"log"`
}

type dragonUpdateMsg struct {
	Type   string         `json:"type"` // "update"
	Kind   string         `json:"kind"` // "dragon"
	Table  tableView      `json:"table"`
	Dragon *dragonView    `json:"dragon"`
	Action *dragon.Action `json:"action,omitempty"`
	Events []dragon.Event `json:"events"` // filtered for the seat
	Log    []dragonLine   `json:"log"`
}

type dragonHintMsg struct {
	Type    string          `json:"type"` // "hint"
	Kind    string          `json:"kind"` // "dragon"
	Version int             `json:"version"`
	Advice  []dragon.Advice `json:"advice"`
	ID      string          `json:"id,omitempty"`
}

// sendDragonWelcome sends the whole table as the client's seat sees it.
// t.mu is held.
func (c *client) sendDragonWelcome() {
	seat := c.seat()
	you := youView{Seat: seat}
	if c.player != nil {
		you.PlayerID, you.Name = c.player.ID, c.player.Name
	}
	log := []dragonLine{}
	for v, evs := range c.t.dg.events {
		log = append(log, c.t.dragonLog(v, evs, seat)...)
	}
	c.sendJSON(dragonWelcomeMsg{Type: "welcome", Kind: store.KindDragon, You: you, Table: c.t.view(), Dragon: c.t.dragonViewFor(seat), Log: log})
}

// dragonAct checks and plays an action message on a dragon table, in the
// order of playerAct: seat token, game started, not over, the seat's
// turn, the action legal, the version current.
func (c *client) dragonAct(m clientMsg) {
	fail := func(code, msg string) {
		c.srv.mActions.WithLabelValues("refused", "player").Inc()
		c.replyError(m.ID, code, msg)
	}
	if len(m.Action) == 0 || m.Version == nil {
		fail(codeBadMessage, `an action message needs "action" and "version"`)
		return
	}
	var a dragon.Action
	if err := decodeStrict(m.Action, &a); err != nil {
		fail(codeBadMessage, "bad action: "+err.Error())
		return
	}
	if a.Kind == 0 {
		fail(codeBadMessage, "action needs a kind (recruit, brawl, battle, keep, use, accept, roll, stop, retreat, discard)")
		return
	}
	start := time.Now()
	t := c.t
	t.mu.Lock()
	defer t.mu.Unlock()
	seat := c.seat()
	if m.Seat != nil {
		seat = *m.Seat
	}
	if r := t.dragonCheck(c.player, seat, *m.Version, a); r != nil {
		c.srv.mActions.WithLabelValues("refused", "player").Inc()
		c.sendJSON(errorMsg{Type: "error", Code: r.Code, Message: r.Msg, Version: t.dg.version(), ID: m.ID})
		return
	}
	t.acted(seat)
	if r := t.dragonCommit(a); r != nil {
		c.srv.mActions.WithLabelValues("refused", "player").Inc()
		c.sendJSON(errorMsg{Type: "error", Code: r.Code, Message: r.Msg, Version: t.dg.version(), ID: m.ID})
		return
	}
	c.srv.mActions.WithLabelValues("accepted", "player").Inc()
	c.srv.mLatency.Observe(time.Since(start).Seconds())
}

// dragonCheck runs the checks of an action sent for seat. t.mu is held.
func (t *table) dragonCheck(p *store.Player, seat, version int, a dragon.Action) *refusal {
	d := t.dg
	if p == nil || seat < 0 || seat >= len(t.meta.Seats) || t.meta.Seats[seat].PlayerID != p.ID {
		return refuse(codeNotSeated, "your token does not hold seat %d at this table", seat)
	}
	if r := t.failedRefusal(); r != nil {
		return r
	}
	if !d.started {
		return refuse(codeNotStarted, "the game has not started: seats are still free")
	}
	if d.state.Over() {
		return refuse(codeGameOver, "the game is over")
	}
	// The check draws from a throwaway source: the game's own source is
	// only advanced by an action that is played.
	_, _, err := d.kit.game.ApplyFor(d.state, seat, a, dice.NewSource([32]byte{}))
	switch {
	case errors.Is(err, dragon.ErrNotTurn):
		return refuse(codeNotYourTurn, "it is %s's turn, not yours", t.meta.Seats[d.state.Turn].Name)
	case errors.Is(err, dragon.ErrGameOver):
		return refuse(codeGameOver, "the game is over")
	case err != nil:
		return refuse(codeIllegal, "%s", strings.TrimPrefix(err.Error(), "dragon: "))
	}
	if version != d.version() {
		return refuse(codeStale, "you acted on version %d but the game is at version %d: look again", version, d.version())
	}
	return nil
}

// dragonCommit plays a legal action, stores it, and only then broadcasts
// it. If the store refuses, the game is rebuilt as it was and nothing is
// sent. t.mu is held.
func (t *table) dragonCommit(a dragon.Action) *refusal {
	d := t.dg
	g := d.kit.game
	ns, evs, err := g.Apply(d.state, a, d.src)
	if err != nil {
		_ = d.replay(t.names(), d.actions) // the source may have moved
		return refuse(codeIllegal, "%s", strings.TrimPrefix(err.Error(), "dragon: "))
	}
	n := len(d.actions) + 1
	entry, _ := json.Marshal(a)
	var fin *store.RawFinish
	if ns.Over() {
		rec := dragon.NewRecord(g, t.names(), d.seed)
		rec.Actions = append(append([]dragon.Action(nil), d.actions...), a)
		rec.Winners, rec.Slain = ns.Winners, ns.Slain
		for _, s := range t.meta.Seats {
			rec.Levels = append(rec.Levels, s.Bot)
		}
		data, err := rec.Marshal()
		if err != nil {
			_ = d.replay(t.names(), d.actions)
			return refuse(codeServer, "the record could not be written")
		}
		fin = &store.RawFinish{Record: data, Winners: ns.Winners}
		for _, p := range ns.Players {
			fin.Scores = append(fin.Scores, p.Soldiers)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err = t.srv.store.(store.RawStore).AppendRawAction(ctx, t.id, n, entry, fin)
	cancel()
	if err != nil {
		t.srv.log.Error("action not stored", "table", t.id, "action", n, "err", err)
		_ = d.replay(t.names(), d.actions)
		return refuse(codeServer, "the action could not be saved; try again")
	}
	d.state = ns
	d.actions = append(d.actions, a)
	d.events = append(d.events, evs)
	var winners, scores []int
	if fin != nil {
		winners, scores = fin.Winners, fin.Scores
	}
	t.settle(n, fin != nil, winners, scores, func() { t.dragonBroadcast(a, evs) })
	return nil
}

// dragonBroadcast sends each client the new state and events as its seat
// sees them. t.mu is held.
func (t *table) dragonBroadcast(a dragon.Action, evs []dragon.Event) {
	tv := t.view()
	tv.Rules = nil
	bySeat := map[int][]byte{}
	for c := range t.clients {
		seat := c.seat()
		b, ok := bySeat[seat]
		if !ok {
			msg := dragonUpdateMsg{Type: "update", Kind: store.KindDragon, Table: tv, Dragon: t.dragonViewFor(seat), Action: &a,
				Events: dragon.ViewEvents(evs, seat), Log: t.dragonLog(t.dg.version(), evs, seat)}
			var err error
			if b, err = json.Marshal(msg); err != nil {
				t.srv.log.Error("encode update", "err", err)
				return
			}
			bySeat[seat] = b
		}
		c.send(b)
	}
}

// scheduleDragonBot starts the bot's timer when a bot is to act. t.mu is held.
func (t *table) scheduleDragonBot() {
	d := t.dg
	if t.closed || !d.started || d.state.Over() {
		return
	}
	if _, ok := d.bots[d.state.Turn]; !ok {
		t.scheduleAuto()
		return
	}
	version := d.version()
	if t.botTimer != nil {
		t.botTimer.Stop()
	}
	t.botTimer = t.afterGuarded(t.srv.opt.BotDelay, "bot", func() { t.dragonBotAct(version) })
}

// dragonBotAct plays the bot's move if the game is still at version. The
// bot sees only its seat's View.
func (t *table) dragonBotAct(version int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.dg
	if t.closed || t.over.Load() || !d.started || d.state.Over() || d.version() != version {
		return
	}
	seat := d.state.Turn
	b, ok := d.bots[seat]
	if !ok {
		return
	}
	a := b.Choose(d.kit.game.View(d.state, seat), d.botSrc)
	t.botDone(seat, a, t.dragonCommit(a), func() { t.dragonBotAct(version) })
}

// dragonHint answers a hint message: Brains.Advise on the seat's view.
func (c *client) dragonHint(m clientMsg) {
	t := c.t
	t.mu.Lock()
	d := t.dg
	if !d.started || d.state.Over() {
		t.mu.Unlock()
		c.replyError(m.ID, codeGameOver, "there is no position to advise on")
		return
	}
	seat := c.seat()
	if seat < 0 || d.state.Turn != seat {
		t.mu.Unlock()
		c.replyError(m.ID, codeNotYourTurn, "hints are for the player to act")
		return
	}
	v := d.kit.game.View(d.state, seat)
	version := d.version()
	t.mu.Unlock()
	adv := d.kit.brains.Advise(v)
	if adv == nil {
		adv = []dragon.Advice{}
	}
	c.sendJSON(dragonHintMsg{Type: "hint", Kind: store.KindDragon, Version: version, Advice: adv, ID: m.ID})
}

// dragonRecord returns the table's record (the seed only once the game is
// over), or nil before the game starts.
func (t *table) dragonRecord() *dragon.Record {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.dg
	if !d.started {
		return nil
	}
	rec := dragon.NewRecord(d.kit.game, t.names(), d.seed)
	rec.Actions = append([]dragon.Action{}, d.actions...)
	for _, s := range t.meta.Seats {
		rec.Levels = append(rec.Levels, s.Bot)
	}
	switch {
	case d.state.Over():
		rec.Winners, rec.Slain = d.state.Winners, d.state.Slain
	case t.meta.Status != store.Failed: // a failed game never goes on: its seed is shown
		rec.Seed = ""
	}
	return rec
}

// handleDragonRecord serves the record of a dragon table as a download.
func (s *Server) handleDragonRecord(w http.ResponseWriter, t *table) {
	rec := t.dragonRecord()
	if rec == nil {
		s.httpError(w, store.Errorf(store.ENOTFOUND, "the game at table %s has not started", t.id))
		return
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		s.httpError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="dragon-%s.json"`, t.id))
	w.Write(append(data, '\n'))
}

// handleDragonOdds serves GET /api/dragon/odds: the probability of winning
// a Final Battle by soldiers brought (dragon.OddsTable) and the rules it
// assumes.
func (s *Server) handleDragonOdds(w http.ResponseWriter, r *http.Request) {
	kit := dragonShared()
	dr := kit.game.Rules()
	writeJSON(w, http.StatusOK, struct {
		BattleMinimum int              `json:"battle_minimum"`
		DragonHealth  int              `json:"dragon_health"`
		Rows          []dragon.OddsRow `json:"rows"`
	}{dr.BattleMinimum, dr.DragonHealth, kit.odds})
}

// handleDragonCards serves GET /api/dragon/cards: the card set in play.
func (s *Server) handleDragonCards(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, dragonShared().game.Cards())
}
