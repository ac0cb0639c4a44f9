package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

// Dragon Farkle tables (docs/RULES.md section 5) are tables like any other
// (table.go); what is theirs is here: each client gets only the View and
// the ViewEvents of its own seat (spectators the Spectator view), so no
// Magic Item of another player ever leaves the server before the record is
// downloaded at the end; the bots and hints are package dragon's.

// dragonShared is the kit of the tables created now: the preset "dragon"
// (the army battle with the seat bonus, dragon.DefaultRules, and the
// default cards) with the server's cap on a game's length
// (Options.MaxTurns) as its round limit, as the ordinary game's
// max_turns, so that no table, abandoned to the clock or played by bots
// alone, runs for ever.
func (s *Server) dragonShared() *dragonKit {
	v, _ := game.Preset(dragonPreset)
	k, _ := s.kindOfVariant(v.Capped(s.opt.MaxTurns))
	return k.(*dragonKit)
}

// dragonPreset is the name of Dragon Farkle's preset (game.Preset), which
// a table request names as its rules.
const dragonPreset = "dragon"

// dragonKit is Dragon Farkle under one rule set: the game and the odds
// table, computed once and shared by its tables.
type dragonKit struct {
	srv  *Server
	v    game.Variant
	rj   json.RawMessage // the rules as JSON
	game *dragon.Game
	odds []dragon.OddsRow
}

func init() {
	kindViews[game.Dragon] = func(s *Server, v game.Variant) (gameKind, error) {
		dv, ok := v.(*game.DragonVariant) // this view's own variant
		if !ok {
			return nil, fmt.Errorf("%T is not Dragon Farkle", v)
		}
		return s.cached(v, func() gameKind {
			g := dv.Game()
			return &dragonKit{srv: s, v: v, rj: v.Rules(), game: g, odds: dragon.OddsTable(g.Rules())}
		}), nil
	}
}

func (k *dragonKit) variant() game.Variant  { return k.v }
func (k *dragonKit) rules() json.RawMessage { return k.rj }
func (k *dragonKit) hints() bool            { return k.srv.hints(game.Dragon) }
func (k *dragonKit) private() bool          { return true } // Magic Items are their owner's

func (k *dragonKit) checkSeats(n int) error {
	if dr := k.game.Rules(); n < dr.MinPlayers || n > dr.MaxPlayers {
		return badRequest("seats: %d seats, but Dragon Farkle takes %d to %d players", n, dr.MinPlayers, dr.MaxPlayers)
	}
	return nil
}

// parseLevel reads a Dragon Farkle bot level, naming the levels if it is
// none.
func parseLevel(level string) (dragon.Level, error) {
	lv, err := dragon.ParseLevel(level)
	if err != nil {
		return lv, fmt.Errorf("%w (Dragon Farkle bots: %s)", err, strings.Join(dragon.Levels(), ", "))
	}
	return lv, nil
}

func (k *dragonKit) botLevel(level string) (string, error) {
	lv, err := parseLevel(level)
	return lv.String(), err
}

// clockBot plays the Random dragon bot for a seat out of time.
func (k *dragonKit) clockBot(t *table) seatBot {
	b, err := t.seatBotOf(dragon.Random.String())
	if err != nil {
		t.srv.log.Error("no bot for a seat out of time", "table", t.id, "err", err)
		return nil
	}
	return b
}

// resign: a Dragon Farkle seat is never resigned.
func (k *dragonKit) resign(int) game.Action { return nil }

// dragonState returns the Dragon Farkle state of the table's game, ok
// false before it starts. t.mu is held.
func dragonState(t *table) (dragon.State, bool) {
	g, ok := playing[*game.DragonGame](t)
	if !ok {
		return dragon.State{}, false
	}
	return g.State(), true
}

// parseAction reads a dragon.Action.
func (k *dragonKit) parseAction(raw json.RawMessage) (game.Action, error) {
	var a dragon.Action
	if err := decodeStrict(raw, &a); err != nil {
		return nil, errors.New("bad action: " + err.Error())
	}
	if a.Kind == 0 {
		return nil, errors.New("action needs a kind (recruit, brawl, battle, keep, use, accept, roll, stop, retreat, discard)")
	}
	return a, nil
}

// viewOf returns the game of st at version for seat (dragon.Spectator
// for a watcher).
func (k *dragonKit) viewOf(st dragon.State, version, seat int) *dragonView {
	g := k.game
	dv := g.View(st, seat)
	v := viewOfDragon(dv, version)
	seen := map[dice.Hand]bool{}
	for _, a := range dv.Legal {
		if a.Kind != dragon.ActKeep || seen[a.Keep] {
			continue
		}
		seen[a.Keep] = true
		pts, _ := g.Table().Points(a.Keep)
		k := dragonKeep{Dice: a.Keep.Faces(), Points: pts}
		if st.Mode == dragon.Battling {
			k.Cost = g.BattleCost(st, pts)
		}
		v.Keeps = append(v.Keeps, k)
	}
	return v
}

// viewFor returns the table's game for seat, nil before it starts. t.mu
// is held.
func (k *dragonKit) viewFor(t *table, seat int) *dragonView {
	st, ok := dragonState(t)
	if !ok {
		return nil
	}
	return k.viewOf(st, t.play.Game().Version(), seat)
}

// log returns the log lines of events for seat.
func (k *dragonKit) log(c *lang.Catalogue, version int, evs []game.Event, seat int, names []string) []dragonLine {
	out := []dragonLine{}
	for _, e := range dragon.ViewEvents(dragonEvents(evs), seat) {
		l := dragonLine{Version: version, Kind: e.Kind.String(), Seat: e.Seat, Text: k.game.DescribeIn(c, names, e)}
		switch e.Kind {
		case dragon.EvThrow, dragon.EvCardChanged:
			l.Dice, l.N = e.Dice.Faces(), e.N
			if e.Face != dragon.Blank {
				l.Face = name(e.Face)
			}
		case dragon.EvBrawl:
			l.N = e.N // the challenger's score
		}
		out = append(out, l)
	}
	return out
}

func dragonEvents(evs []game.Event) []dragon.Event {
	out := make([]dragon.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(dragon.Event)
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
	// Events are the game's events from its start as the seat may see
	// them, when memory still holds them all (the tail: history.go), so
	// that a terminal writes the log in its own words ("you recruit"),
	// as it does from each update's; absent once the start is forgotten.
	Events []dragonEventView `json:"events,omitempty"`
}

type dragonUpdateMsg struct {
	Type   string            `json:"type"` // "update"
	Kind   string            `json:"kind"` // "dragon"
	Table  tableView         `json:"table"`
	Dragon *dragonView       `json:"dragon"`
	Action *dragonActionView `json:"action,omitempty"`
	Events []dragonEventView `json:"events"` // filtered for the seat
	Log    []dragonLine      `json:"log"`
}

type dragonHintMsg struct {
	Type    string       `json:"type"` // "hint"
	Kind    string       `json:"kind"` // "dragon"
	Version int          `json:"version"`
	Advice  []adviceView `json:"advice"`
	ID      string       `json:"id,omitempty"`
}

func (k *dragonKit) welcome(t *table, seat int, you youView, c *lang.Catalogue) any {
	names := t.names()
	log := []dragonLine{}
	var all []dragon.Event
	for i, evs := range t.events { // the tail memory holds (history.go)
		log = append(log, k.log(c, t.base+i, evs, seat, names)...)
		if t.base == 0 {
			all = append(all, dragonEvents(evs)...)
		}
	}
	var events []dragonEventView
	if t.base == 0 {
		events = eventsOf(dragon.ViewEvents(all, seat))
	}
	return dragonWelcomeMsg{Type: "welcome", Kind: string(game.Dragon), You: you, Table: t.view(), Dragon: k.viewFor(t, seat), Log: log, Events: events}
}

func (k *dragonKit) update(t *table, seat int, tv tableView, _ int, a game.Action, evs []game.Event, c *lang.Catalogue) any {
	da, _ := a.(dragon.Action)
	av := dragonActionOf(da)
	version := t.play.Game().Version()
	return dragonUpdateMsg{Type: "update", Kind: string(game.Dragon), Table: tv, Dragon: k.viewFor(t, seat), Action: &av,
		Events: eventsOf(dragon.ViewEvents(dragonEvents(evs), seat)), Log: k.log(c, version, evs, seat, t.names())}
}

func (k *dragonKit) tableJSON(t *table, tv tableView) any {
	return struct {
		tableView
		State  *stateView  `json:"state"` // always null: the game is in "dragon"
		Dragon *dragonView `json:"dragon,omitempty"`
	}{tableView: tv, Dragon: k.viewFor(t, -1)}
}

// hint answers a hint message: the advice of the Cast's advisor (the Smart
// bot's values), in the order of the legal actions.
func (k *dragonKit) hint(c *client, m clientMsg) {
	t := c.t
	t.mu.Lock()
	st, ok := dragonState(t)
	if !ok || st.Over() {
		t.mu.Unlock()
		c.replyError(m.ID, codeGameOver, "there is no position to advise on")
		return
	}
	seat := c.seat()
	if seat < 0 || st.ToAct() != seat {
		t.mu.Unlock()
		c.replyError(m.ID, codeNotYourTurn, "hints are for the player to act")
		return
	}
	g := t.play.Game()
	t.mu.Unlock()
	got, err := k.srv.advise(k.v, g, seat)
	if err != nil {
		c.replyError(m.ID, codeUnavailable, "no hint for this position: "+err.Error())
		return
	}
	c.sendJSON(dragonHintMsg{Type: "hint", Kind: string(game.Dragon), Version: g.Version(), Advice: adviceOf(got, g.Legal(seat)), ID: m.ID})
}

// dragonStep is one action of a replay: the action, the log lines it
// wrote and the game after it, as a watcher saw them (a replay of a game
// in play shows nothing a watcher could not see).
type dragonStep struct {
	Action dragonActionView `json:"action"`
	Log    []dragonLine     `json:"log"`
	Dragon *dragonView      `json:"dragon"`
}

func (k *dragonKit) replay(t *table, tv tableView, rec *game.Record, c *lang.Catalogue) (any, error) {
	start := func(g game.Game) *dragonView {
		return k.viewOf(g.(*game.DragonGame).State(), g.Version(), dragon.Spectator)
	}
	return replayOf(t, tv, rec, start, func(i int, st game.Step, after game.Game) dragonStep {
		return dragonStep{Action: dragonActionOf(st.Action.(dragon.Action)), Log: k.log(c, i+1, st.Events, dragon.Spectator, rec.Players), Dragon: start(after)}
	})
}

// result: Dragon Farkle keeps no turn counts; the score is the soldiers.
func (k *dragonKit) result(game.Game, int, *store.Result) {}

// handleDragonOdds serves GET /api/dragon/odds: the probability of winning
// a Final Battle by soldiers brought (dragon.OddsTable) and the rules it
// assumes.
func (s *Server) handleDragonOdds(w http.ResponseWriter, r *http.Request) {
	kit := s.dragonShared()
	dr := kit.game.Rules()
	writeJSON(w, http.StatusOK, struct {
		BattleMinimum int              `json:"battle_minimum"`
		DragonHealth  int              `json:"dragon_health"`
		Rows          []dragon.OddsRow `json:"rows"`
	}{dr.BattleMinimum, dr.DragonHealth, kit.odds})
}

// handleDragonCards serves GET /api/dragon/cards: the card set in play.
func (s *Server) handleDragonCards(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.dragonShared().game.Cards())
}
