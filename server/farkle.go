package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/gameview"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// farkleKind is the ordinary game under one rule set (package engine):
// its wire messages carry the whole engine state with the legal actions,
// and its log lines every event.
type farkleKind struct {
	srv *Server
	v   game.Variant
	r   rules.Rules
	rj  json.RawMessage // r as JSON
}

func init() {
	kindViews[game.Farkle] = func(s *Server, v game.Variant) (gameKind, error) {
		return &farkleKind{srv: s, v: v, r: v.Scoring(), rj: v.Rules()}, nil
	}
}

func (k *farkleKind) variant() game.Variant  { return k.v }
func (k *farkleKind) rules() json.RawMessage { return k.rj }
func (k *farkleKind) hints() bool            { return k.srv.hints(game.Farkle) }
func (k *farkleKind) private() bool          { return false } // nothing in the ordinary game is hidden

func (k *farkleKind) checkSeats(n int) error {
	if g := k.r.Game; n < g.MinPlayers || n > g.MaxPlayers {
		return &rules.FieldError{Field: "game.max_players", Msg: fmt.Sprintf("%d seats, but these rules allow %d to %d players", n, g.MinPlayers, g.MaxPlayers)}
	}
	return nil
}

// botLevel checks the level with the Cast's bots.
func (k *farkleKind) botLevel(level string) (string, error) {
	if _, err := k.srv.cast().Bot(k.v, level); err != nil {
		return "", err
	}
	return level, nil
}

func (k *farkleKind) clockBot(t *table) seatBot { return &clockBot{k: k} }

func (k *farkleKind) resign(seat int) game.Action { return engine.ResignBy(seat) }

// state returns the engine state of an ordinary game.
func state(g game.Game) (engine.State, error) {
	fg, ok := g.(*game.FarkleGame)
	if !ok {
		return engine.State{}, fmt.Errorf("%T is not an ordinary game", g)
	}
	return fg.State(), nil
}

// clockBot plays for a player out of time: the roll-off throw, a throw
// when one is due, the expert's keep, bank when allowed, else throw. The
// expert is made at its first keep (its policy may take long to solve).
type clockBot struct {
	k      *farkleKind
	mu     sync.Mutex
	expert game.Bot
}

// Act is the clock's action.
func (c *clockBot) Act(g game.Game, seat int) (game.Action, error) {
	st, err := state(g)
	if err != nil {
		return nil, err
	}
	p := st.Actor()
	switch {
	case st.Phase != engine.PhasePlay:
		return engine.RollOffBy(p), nil
	case st.Step == engine.StepThrow:
		return engine.ThrowBy(p), nil
	case st.Step == engine.StepKeep:
		a, err := c.expertBot().Choose(g, seat, nil)
		if err != nil {
			return nil, err
		}
		ea, _ := a.(engine.Action)
		ea.Player = p
		return ea, nil
	}
	if ok, _ := st.CanBank(); ok {
		return engine.BankBy(p), nil
	}
	return engine.ThrowBy(p), nil
}

func (c *clockBot) expertBot() game.Bot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.expert == nil {
		b, err := c.k.srv.cast().Bot(c.k.v, "expert")
		if err != nil {
			b, _ = defaultCast().Bot(c.k.v, "steady")
		}
		c.expert = b
	}
	return c.expert
}

// actionMsg is the action of an action message: engine.Action without the
// player (the seat says who acts).
type actionMsg struct {
	Type engine.Kind `json:"type"`
	Dice []int       `json:"dice,omitempty"`
}

// parseAction reads an engine.Action, or why it is not one.
func (k *farkleKind) parseAction(raw json.RawMessage) (game.Action, error) {
	var am actionMsg
	if err := decodeStrict(raw, &am); err != nil {
		return nil, fmt.Errorf("bad action: %v", err)
	}
	if am.Type == 0 {
		return nil, errors.New("action needs a type (throw, keep, bank, roll-off)")
	}
	a := engine.Action{Kind: am.Type}
	if am.Type == engine.Keep {
		h, err := diceHand(am.Dice)
		if err != nil {
			return nil, err
		}
		a.Dice = h
	} else if len(am.Dice) > 0 {
		return nil, fmt.Errorf("%s takes no dice", am.Type)
	}
	return a, nil
}

// diceHand turns faces from a message into a hand, saying what is wrong.
func diceHand(faces []int) (dice.Hand, error) {
	if len(faces) == 0 {
		return 0, errors.New("keep needs dice, e.g. [1,5]")
	}
	h, err := dice.FromFaces(faces)
	if err != nil {
		return 0, fmt.Errorf("keep: %v", err)
	}
	return h, nil
}

// logLine is one event of the game as the log shows it.
type logLine = gameview.Line

// logLines are the lines of the events of the action that brought the
// game to version.
// lost says, by seat, which seats the clock resigned (ontime.go).
func logLines(c *lang.Catalogue, version int, evs []game.Event, names []string, lost []bool) []logLine {
	var out []logLine
	for _, e := range evs {
		ee := e.(engine.Event)
		out = append(out, onTimeLine(gameview.LineOf(c, version, ee, names), ee, lost, c, names))
	}
	return out
}

// engineEvents are the events of an ordinary game in their own type.
func engineEvents(evs []game.Event) []engine.Event {
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(engine.Event)
	}
	return out
}

// stateOf returns the game state for clients, nil before the game starts.
// t.mu is held.
func stateOf(t *table) *stateView {
	if g, ok := playing[*game.FarkleGame](t); ok {
		return makeStateView(g.State())
	}
	return nil
}

type welcomeMsg struct {
	Type  string     `json:"type"` // "welcome"
	You   youView    `json:"you"`
	Table tableView  `json:"table"`
	State *stateView `json:"state"` // null before the game starts
	Log   []logLine  `json:"log"`
}

type updateMsg struct {
	Type   string      `json:"type"` // "update"
	Table  tableView   `json:"table"`
	State  *stateView  `json:"state"`
	Action *actionView `json:"action,omitempty"`
	Threw  []int       `json:"threw,omitempty"` // the dice the action threw, as the record has them
	Log    []logLine   `json:"log"`
}

func (k *farkleKind) welcome(t *table, _ int, you youView, c *lang.Catalogue) any {
	names, lost := t.names(), lostOnTime(t.meta.Seats)
	log := []logLine{}
	for i, evs := range t.events { // the tail memory holds (history.go)
		log = append(log, logLines(c, t.base+i, evs, names, lost)...)
	}
	return welcomeMsg{Type: "welcome", You: you, Table: t.view(), State: stateOf(t), Log: log}
}

func (k *farkleKind) update(t *table, _ int, tv tableView, actor int, a game.Action, evs []game.Event, c *lang.Catalogue) any {
	ea, _ := a.(engine.Action)
	ea.Player = actor
	av := actionOf(ea)
	// The dice thrown, as the record's entry has them (record.Record.Add
	// picks them from the events), without its JSON.
	var r record.Record
	r.Add(ea, engineEvents(evs))
	return updateMsg{Type: "update", Table: tv, State: stateOf(t), Action: &av, Threw: r.Actions[0].Threw.Faces(), Log: logLines(c, t.play.Game().Version(), evs, t.names(), lostOnTime(t.meta.Seats))}
}

func (k *farkleKind) tableJSON(t *table, tv tableView) any {
	return struct {
		tableView
		State *stateView `json:"state"`
	}{tv, stateOf(t)}
}

type hintMsg struct {
	Type    string  `json:"type"` // "hint"
	Version int     `json:"version"`
	Advice  *Advice `json:"advice"`
	ID      string  `json:"id,omitempty"`
}

// hint answers a hint request: the values of the legal actions by the
// Cast's advisor (hints.go), best first, for the player whose seat is to
// act; the odds of the throw ahead (no solver run) for everyone else:
// watchers, and players out of turn.
func (k *farkleKind) hint(c *client, m clientMsg) {
	c.t.mu.Lock()
	if c.t.play == nil || c.t.play.Game().Over() {
		c.t.mu.Unlock()
		c.replyError(m.ID, codeGameOver, "there is no position to advise on")
		return
	}
	g := c.t.play.Game()
	st, _ := state(g)
	actor := st.Actor()
	toAct := c.player != nil && actor >= 0 && actor < len(c.t.meta.Seats) && c.t.meta.Seats[actor].PlayerID == c.player.ID
	c.t.mu.Unlock()
	if st.Phase != engine.PhasePlay {
		c.replyError(m.ID, codeUnavailable, "no hint in a roll-off: the highest die wins it")
		return
	}
	if !toAct {
		c.sendJSON(hintMsg{Type: "hint", Version: st.Version, Advice: oddsAdvice(st), ID: m.ID})
		return
	}
	if !k.hints() {
		c.replyError(m.ID, codeUnavailable, errNoAdvisor.Error())
		return
	}
	got, err := k.srv.advise(g.Variant(), g, actor)
	if err != nil {
		c.replyError(m.ID, codeUnavailable, "no hint for this position: "+err.Error())
		return
	}
	advice := farkleAdvice(got)
	sortChoices(&advice, st)
	describeChoices(c.cat(), st, &advice)
	c.sendJSON(hintMsg{Type: "hint", Version: st.Version, Advice: &advice, ID: m.ID})
}

// farkleAdvice is the wire's advice of an advisor's: the measure by its
// short name, the engine actions, and after a keep what follows it.
func farkleAdvice(adv *game.Advice) Advice {
	out := Advice{Measure: MeasureName(adv.Measure), Note: adv.Note}
	for _, c := range adv.Choices {
		a, _ := c.Action.(engine.Action)
		ch := Choice{Action: a, Value: c.Value, Best: c.Best} // the server writes its text
		switch c.Then {
		case "bank":
			ch.Then = engine.Bank
		case "throw":
			ch.Then = engine.Throw
		}
		out.Choices = append(out.Choices, ch)
	}
	return out
}

// replayStep is one action of a replay with the state after it.
type replayStep struct {
	Action actionView `json:"action"`
	Threw  []int      `json:"threw,omitempty"`
	Log    []logLine  `json:"log"`
	State  *stateView `json:"state"`
}

func (k *farkleKind) replay(t *table, tv tableView, rec *game.Record, c *lang.Catalogue) (any, error) {
	start := func(g game.Game) *stateView { return makeStateView(g.(*game.FarkleGame).State()) }
	lost := recordLostOnTime(rec)
	return replayOf(t, tv, rec, start, func(i int, st game.Step, after game.Game) replayStep {
		var e record.Entry
		_ = json.Unmarshal(rec.Actions[i], &e) // it replayed: it reads
		return replayStep{Action: actionOf(st.Action.(engine.Action)), Threw: e.Threw.Faces(), Log: logLines(c, i+1, st.Events, rec.Players, lost), State: start(after)}
	})
}

func (k *farkleKind) result(g game.Game, seat int, r *store.Result) {
	st, err := state(g)
	if err != nil {
		return
	}
	p := st.Players[seat]
	r.Turns, r.Farkles, r.Banked, r.BestTurn, r.Penalties = p.Turns, p.Farkles, p.Banked, p.BestTurn, p.Penalty
}
