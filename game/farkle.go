package game

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
)

// farkleKind is the ordinary game's entry in Kinds.
var farkleKind = KindInfo{Open: openFarkle, Families: []string{presetsFamily, houseFamily}, Invalid: rules.ErrInvalid, ReadOld: readOldFarkle}

// The rating families of the ordinary game (Variant.Family).
const (
	presetsFamily = "farkle" // under any preset, whatever its turn cap
	houseFamily   = "house"  // under house rules, at a table marked rated
)

// FarkleVariant is the ordinary game under one rule set (package engine).
type FarkleVariant struct{ r rules.Rules }

// NewFarkle returns the ordinary game under r, which must be valid.
func NewFarkle(r rules.Rules) (*FarkleVariant, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &FarkleVariant{r: r.Clone()}, nil
}

func openFarkle(data json.RawMessage) (Variant, error) {
	r, err := rules.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	return NewFarkle(r)
}

// Kind returns Farkle.
func (v *FarkleVariant) Kind() Kind { return Farkle }

// RuleSet returns the rules.
func (v *FarkleVariant) RuleSet() rules.Rules { return v.r.Clone() }

// Rules returns the rules as JSON.
func (v *FarkleVariant) Rules() json.RawMessage {
	data, err := json.Marshal(v.r)
	if err != nil {
		panic(fmt.Sprintf("game: rules do not marshal: %v", err)) // rules.Rules always marshals
	}
	return data
}

// Capped returns the game with game.max_turns at most rounds.
func (v *FarkleVariant) Capped(rounds int) Variant {
	if rounds <= 0 || (v.r.Game.MaxTurns > 0 && v.r.Game.MaxTurns <= rounds) {
		return v
	}
	r := v.r.Clone()
	r.Game.MaxTurns = rounds
	return &FarkleVariant{r: r}
}

// Name returns the rules' name, or "house rules" when they have none.
func (v *FarkleVariant) Name() string {
	if v.r.Name != "" {
		return v.r.Name
	}
	return "house rules"
}

// Start begins a game; the ordinary game draws nothing at the start (the
// first player is decided by a roll-off action when the rules ask for one).
func (v *FarkleVariant) Start(players []string, _ dice.Source) (Game, []Event, error) {
	s, err := engine.New(v.r, players)
	if err != nil {
		return nil, nil, err
	}
	return &FarkleGame{v: v, s: s}, nil, nil
}

// ParseAction reads an engine.Action, or a record entry (an action with
// the dice it threw, whose dice are ignored here).
func (v *FarkleVariant) ParseAction(data []byte) (Action, error) {
	var e record.Entry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("%w: %v", engine.ErrUnknownAction, err)
	}
	return e.Action, nil
}

// Entry is the record.Entry of the action: the action and the dice it
// threw.
func (v *FarkleVariant) Entry(seat int, a Action, events []Event) json.RawMessage {
	evs := make([]engine.Event, 0, len(events))
	for _, e := range events {
		evs = append(evs, e.(engine.Event))
	}
	ea := a.(engine.Action)
	ea.Player = seat
	var rec record.Record
	rec.Add(ea, evs)
	data, err := json.Marshal(rec.Actions[0])
	if err != nil {
		panic(fmt.Sprintf("game: entry does not marshal: %v", err))
	}
	return data
}

// Seats returns the rules' fewest and most players.
func (v *FarkleVariant) Seats() (min, max int) { return v.r.Game.MinPlayers, v.r.Game.MaxPlayers }

// Family is "farkle" when the rules are those of a preset (the turn cap
// and who starts aside, which a server may set), "house" for other rules
// at a table marked rated, "" (unrated) otherwise.
func (v *FarkleVariant) Family(marked bool) string {
	if isPreset(v.r) {
		return presetsFamily
	}
	if marked {
		return houseFamily
	}
	return ""
}

// isPreset reports whether r plays as one of the presets, whatever its
// turn cap or who starts.
func isPreset(r rules.Rules) bool {
	h := r.ForSolver().Hash()
	for _, n := range rules.Presets() {
		p, err := rules.Preset(n)
		if err == nil && p.ForSolver().Hash() == h {
			return true
		}
	}
	return false
}

// Scoring returns the rules.
func (v *FarkleVariant) Scoring() rules.Rules { return v.r.Clone() }

// Describe says what an engine.Event means, in the language of c.
func (v *FarkleVariant) Describe(c *lang.Catalogue, e Event, names []string) string {
	return e.(engine.Event).DescribeIn(c, names)
}

// replayRecorded replays rec with the dice its entries recorded
// (record.Replay).
func (v *FarkleVariant) replayRecorded(rec *Record) (Game, []Step, error) {
	old, err := rec.Ordinary()
	if err != nil {
		return nil, nil, err
	}
	final, steps, err := record.Replay(old)
	out := make([]Step, len(steps))
	for i, st := range steps {
		evs := make([]Event, len(st.Events))
		for j, e := range st.Events {
			evs[j] = e
		}
		out[i] = Step{Before: &FarkleGame{v: v, s: st.Before}, Seat: st.Action.Player, Action: st.Action, Events: evs}
	}
	return &FarkleGame{v: v, s: final}, out, err
}

// At returns a game of v at state s (of v's rules): a set position, for
// tests, puzzles and the advice on a state.
func (v *FarkleVariant) At(s engine.State) *FarkleGame { return &FarkleGame{v: v, s: s} }

// FarkleGame is an ordinary game at one moment.
type FarkleGame struct {
	v *FarkleVariant
	s engine.State
}

// State returns the engine state.
func (g *FarkleGame) State() engine.State { return g.s }

// Variant returns the game's variant.
func (g *FarkleGame) Variant() Variant { return g.v }

// Players returns the names in seat order.
func (g *FarkleGame) Players() []string { return g.s.Names() }

// ToAct returns the seat to act, -1 when the game is over.
func (g *FarkleGame) ToAct() int {
	if g.s.Over() {
		return -1
	}
	return g.s.Actor()
}

// Version counts the actions applied.
func (g *FarkleGame) Version() int { return g.s.Version }

// action returns a as an engine.Action played from seat.
func action(seat int, a Action) (engine.Action, error) {
	ea, ok := a.(engine.Action)
	if !ok {
		return engine.Action{}, fmt.Errorf("%w: %T is not an action of the ordinary game", engine.ErrUnknownAction, a)
	}
	ea.Player = seat
	return ea, nil
}

// Check is engine.Check for seat's action.
func (g *FarkleGame) Check(seat int, a Action) error {
	ea, err := action(seat, a)
	if err != nil {
		return err
	}
	return engine.Check(g.s, ea)
}

// Apply is engine.Apply for seat's action.
func (g *FarkleGame) Apply(seat int, a Action, src dice.Source) (Game, []Event, error) {
	ea, err := action(seat, a)
	if err != nil {
		return g, nil, err
	}
	next, evs, err := engine.Apply(g.s, ea, src)
	if err != nil {
		return g, nil, err
	}
	out := make([]Event, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return &FarkleGame{v: g.v, s: next}, out, nil
}

// Legal lists seat's legal actions.
func (g *FarkleGame) Legal(seat int) []Action {
	if g.ToAct() != seat {
		return nil
	}
	legal := g.s.Legal()
	out := make([]Action, len(legal))
	for i, a := range legal {
		out[i] = a
	}
	return out
}

// View returns the engine state: nothing in the ordinary game is hidden.
func (g *FarkleGame) View(int) any { return g.s }

// Over reports whether the game has ended.
func (g *FarkleGame) Over() bool { return g.s.Over() }

// Winners lists the winning seats.
func (g *FarkleGame) Winners() []int { return append([]int(nil), g.s.Winners...) }

// Turns counts the turns each seat has begun (engine.Player.Turns).
func (g *FarkleGame) Turns() []int {
	out := make([]int, len(g.s.Players))
	for i, p := range g.s.Players {
		out[i] = p.Turns
	}
	return out
}

// Aborted reports whether a seat has not finished a turn of its own: a
// turn cut short by the seat's resignation (or by the turn clock resigning
// for it) does not count, and neither does a roll-off for the first turn.
func (g *FarkleGame) Aborted() bool {
	for _, p := range g.s.Players {
		finished := p.Turns
		if p.Out {
			finished-- // its last turn ended in its resignation
		}
		if finished < 1 {
			return true
		}
	}
	return false
}

// Scores lists the seats' scores.
func (g *FarkleGame) Scores() []int {
	out := make([]int, len(g.s.Players))
	for i, p := range g.s.Players {
		out[i] = p.Score
	}
	return out
}
