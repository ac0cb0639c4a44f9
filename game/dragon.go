package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// dragonKind is Dragon Farkle's entry in Kinds.
var dragonKind = KindInfo{Open: openDragon, Families: []string{dragonFamily}, Invalid: dragon.ErrInvalid, ReadOld: readOldDragon}

// dragonFamily is the rating family of every game of Dragon Farkle.
const dragonFamily = "dragon"

// DragonVariant is Dragon Farkle under one rule set and card set.
type DragonVariant struct {
	g *dragon.Game
	// brains are the bots' tables, computed at the first bot or advisor
	// (about 50 ms) and shared by them.
	brains func() *dragon.Brains
}

// defaultDragon is the preset "dragon": the default rules and cards.
var defaultDragon = sync.OnceValue(func() *DragonVariant { return NewDragon(dragon.MustGame(dragon.DefaultRules(), nil)) })

// NewDragon returns Dragon Farkle as g plays it.
func NewDragon(g *dragon.Game) *DragonVariant {
	return &DragonVariant{g: g, brains: sync.OnceValue(func() *dragon.Brains { return dragon.NewBrains(g) })}
}

// dragonRules is how a record holds Dragon Farkle's rules: the fields of
// dragon.Rules, and the card file (TOML) when it is not the default set.
type dragonRules struct {
	dragon.Rules
	Cards string `json:"cards,omitempty"`
}

func openDragon(data json.RawMessage) (Variant, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("%w: %v", dragon.ErrInvalid, err)
	}
	cards := dragon.DefaultCards()
	if raw, ok := fields["cards"]; ok {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, fmt.Errorf("%w: cards: %v", dragon.ErrInvalid, err)
		}
		var err error
		if cards, err = dragon.ParseCards([]byte(text)); err != nil {
			return nil, fmt.Errorf("cards: %w", err)
		}
		delete(fields, "cards")
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	r, err := dragon.ParseRulesJSON(rest)
	if err != nil {
		return nil, err
	}
	if _, ok := fields["card_timing"]; !ok {
		// Written before card timing: the game was played with active
		// cards on their owner's turn only and no hiring.
		r.OwnTurnCards()
	}
	g, err := dragon.NewGame(r, cards)
	if err != nil {
		return nil, err
	}
	return NewDragon(g), nil
}

// parseDragonFile reads a Dragon Farkle rule file (base = "dragon"), named
// name unless it names itself.
func parseDragonFile(data []byte, asJSON bool, name string) (Variant, error) {
	parse := dragon.ParseRules
	if asJSON {
		parse = dragon.ParseRulesJSON
	}
	d, err := parse(data)
	if err != nil {
		return nil, err
	}
	if d.Name == dragon.DefaultRules().Name {
		d.Name = name
	}
	g, err := dragon.NewGame(d, nil)
	if err != nil {
		return nil, err
	}
	return NewDragon(g), nil
}

// readOldDragon reads a Dragon Farkle record of the formats before Format
// (farkle-dragon-record/1 and /2, whose seed was never secret).
func readOldDragon(format string, data []byte) (*Record, bool, error) {
	if !dragon.IsRecordFormat(format) {
		return nil, false, nil
	}
	rec, err := fromDragon(data)
	return rec, true, err
}

func fromDragon(data []byte) (*Record, error) {
	old, err := dragon.ParseRecord(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	g, err := old.Game()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	seed, err := old.SeedBytes()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	v := NewDragon(g)
	rec := NewRecord(v, old.Players, seed)
	rec.Seed = dice.Seed(seed).Hex()
	for i, l := range old.Levels {
		if l != "" {
			rec.Meta.SetLevel(i, l)
		}
	}
	rec.Meta.Winners = old.Winners
	for _, a := range old.Actions {
		rec.Actions = append(rec.Actions, v.Entry(0, a, nil))
	}
	return rec, nil
}

// Kind returns Dragon.
func (v *DragonVariant) Kind() Kind { return Dragon }

// Game returns the Dragon Farkle rules and cards.
func (v *DragonVariant) Game() *dragon.Game { return v.g }

// Rules returns the rules and, when not the default, the cards.
func (v *DragonVariant) Rules() json.RawMessage {
	dr := dragonRules{Rules: v.g.Rules()}
	if toml := v.g.Cards().TOML(); !bytes.Equal(toml, dragon.DefaultCards().TOML()) {
		dr.Cards = string(toml)
	}
	data, err := json.Marshal(dr)
	if err != nil {
		panic(fmt.Sprintf("game: dragon rules do not marshal: %v", err))
	}
	return data
}

// Name returns the rules' name.
func (v *DragonVariant) Name() string { return v.g.Rules().Name }

// Capped returns the game with its round limit at most rounds (after the
// limit the most soldiers wins).
func (v *DragonVariant) Capped(rounds int) Variant {
	r := v.g.Rules()
	if rounds <= 0 || (r.RoundLimit > 0 && r.RoundLimit <= rounds) {
		return v
	}
	r.RoundLimit = rounds
	return NewDragon(dragon.MustGame(r, v.g.Cards()))
}

// Start deals the game (dragon.Game.New).
func (v *DragonVariant) Start(players []string, src dice.Source) (Game, []Event, error) {
	s, evs, err := v.g.New(players, src)
	if err != nil {
		return nil, nil, err
	}
	return &DragonGame{v: v, s: s}, dragonEvents(evs), nil
}

// ParseAction reads a dragon.Action, refusing unknown fields.
func (v *DragonVariant) ParseAction(data []byte) (Action, error) {
	var a dragon.Action
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%w: %v", dragon.ErrBadAction, err)
	}
	return a, nil
}

// Entry is the action itself: Dragon Farkle records only actions, and the
// seed rebuilds everything they drew.
func (v *DragonVariant) Entry(_ int, a Action, _ []Event) json.RawMessage {
	data, err := json.Marshal(a)
	if err != nil {
		panic(fmt.Sprintf("game: dragon action does not marshal: %v", err))
	}
	return data
}

// Brains returns the tables of the variant's bots and hints (computed once).
func (v *DragonVariant) Brains() *dragon.Brains { return v.brains() }

// Seats returns the rules' fewest and most players.
func (v *DragonVariant) Seats() (min, max int) {
	r := v.g.Rules()
	return r.MinPlayers, r.MaxPlayers
}

// Scoring returns the soldier table, under the Dragon rules' name.
func (v *DragonVariant) Scoring() rules.Rules {
	r := v.g.Rules()
	s := r.Soldiers.Clone()
	s.Name = r.Name
	return s
}

// Family is Dragon Farkle's own, whatever the table.
func (v *DragonVariant) Family(bool) string { return dragonFamily }

// Describe says what a dragon.Event means, in the language of c.
func (v *DragonVariant) Describe(c *lang.Catalogue, e Event, names []string) string {
	return v.g.DescribeIn(c, names, e.(dragon.Event))
}

func dragonEvents(evs []dragon.Event) []Event {
	out := make([]Event, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out
}

// DragonGame is a game of Dragon Farkle at one moment.
type DragonGame struct {
	v *DragonVariant
	s dragon.State
	n int // actions applied
}

// State returns the whole state, hidden cards included.
func (g *DragonGame) State() dragon.State { return g.s }

// Variant returns the game's variant.
func (g *DragonGame) Variant() Variant { return g.v }

// Players returns the names in seat order.
func (g *DragonGame) Players() []string {
	out := make([]string, len(g.s.Players))
	for i, p := range g.s.Players {
		out[i] = p.Name
	}
	return out
}

// ToAct returns the seat the game waits for (the player whose turn it is,
// or the defender during their Brawl throw), -1 when the game is over.
func (g *DragonGame) ToAct() int { return g.s.ToAct() }

// Version counts the actions applied.
func (g *DragonGame) Version() int { return g.n }

func dragonAction(a Action) (dragon.Action, error) {
	da, ok := a.(dragon.Action)
	if !ok {
		return dragon.Action{}, fmt.Errorf("%w: %T is not a Dragon Farkle action", dragon.ErrBadAction, a)
	}
	return da, nil
}

// Check is Apply without playing: seat must be the seat the game waits for.
func (g *DragonGame) Check(seat int, a Action) error {
	da, err := dragonAction(a)
	if err != nil {
		return err
	}
	return g.v.g.Check(g.s, seat, da)
}

// Apply is dragon.Game.ApplyFor.
func (g *DragonGame) Apply(seat int, a Action, src dice.Source) (Game, []Event, error) {
	da, err := dragonAction(a)
	if err != nil {
		return g, nil, err
	}
	next, evs, err := g.v.g.ApplyFor(g.s, seat, da, src)
	if err != nil {
		return g, nil, err
	}
	return &DragonGame{v: g.v, s: next, n: g.n + 1}, dragonEvents(evs), nil
}

// Legal lists seat's legal actions (dragon.Game.LegalFor).
func (g *DragonGame) Legal(seat int) []Action {
	legal := g.v.g.LegalFor(g.s, seat)
	out := make([]Action, len(legal))
	for i, a := range legal {
		out[i] = a
	}
	return out
}

// View is the dragon.View of seat: other players' Magic Items hidden.
func (g *DragonGame) View(seat int) any { return g.v.g.View(g.s, seat) }

// Over reports whether the game has ended.
func (g *DragonGame) Over() bool { return g.s.Over() }

// Winners lists the winning seats.
func (g *DragonGame) Winners() []int { return append([]int(nil), g.s.Winners...) }

// Scores lists the seats' soldiers.
func (g *DragonGame) Scores() []int {
	out := make([]int, len(g.s.Players))
	for i, p := range g.s.Players {
		out[i] = p.Soldiers
	}
	return out
}

// Turns counts the turns each seat has finished, in order from the first
// player, and the turn in which the dragon was slain.
func (g *DragonGame) Turns() []int {
	s := &g.s
	n := len(s.Players)
	out := make([]int, n)
	for seat := range out {
		k := (seat - s.First + n) % n
		if s.Turns > k {
			out[seat] = (s.Turns-k-1)/n + 1
		}
		if s.Slain && s.Turn == seat {
			out[seat]++
		}
	}
	return out
}

// Aborted reports whether the game lasted less than a round (Dragon
// Farkle has no resignation).
func (g *DragonGame) Aborted() bool { return g.s.Turns < len(g.s.Players) }

// At returns a game of v at state s after n actions: a set position, for
// tests, puzzles and analysis. A Play set to it (Play.Set) keeps a record
// that no longer replays.
func (v *DragonVariant) At(s dragon.State, n int) *DragonGame {
	return &DragonGame{v: v, s: s.Clone(), n: n}
}

// Dragon returns the rules and cards of the game.
func (g *DragonGame) Dragon() *dragon.Game { return g.v.g }

// With returns the game at state s, at the same version: a set position,
// for tests and puzzles (see At).
func (g *DragonGame) With(s dragon.State) *DragonGame { return g.v.At(s, g.n) }

// dragonPlayers are Dragon Farkle's bots (package dragon's levels) and its
// advisor (the Smart bot's values, dragon.Brains.Advise).
type dragonPlayers struct{}

var dragonLevels = []BotLevel{
	{"random", "picks any legal action at random"},
	{"simple", "recruits by the rule of thumb (stop at 1000, or at 300 with two dice or fewer) and attacks as soon as it may"},
	{"smart", "recruits by the expected-soldiers plan, brawls and fights by exact odds, and uses its cards"},
}

func (dragonPlayers) Levels() []BotLevel   { return slices.Clone(dragonLevels) }
func (dragonPlayers) DefaultLevel() string { return dragon.Smart.String() }

// dragonOf returns v as Dragon Farkle.
func dragonOf(v Variant) (*DragonVariant, error) {
	d, ok := v.(*DragonVariant)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not Dragon Farkle", ErrNoPlayers, v.Kind())
	}
	return d, nil
}

// Bot returns the dragon bot of level ("random", "simple", "smart",
// optionally "bot:smart").
func (dragonPlayers) Bot(v Variant, level string) (Bot, error) {
	d, err := dragonOf(v)
	if err != nil {
		return nil, err
	}
	lv, err := dragon.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	return dragonBot{dragon.NewBot(lv, d.Brains())}, nil
}

// Advisor returns the advisor of the Smart bot's values.
func (dragonPlayers) Advisor(v Variant, _ int) (Advisor, error) {
	d, err := dragonOf(v)
	if err != nil {
		return nil, err
	}
	return dragonAdvisor{d.Brains()}, nil
}

// dragonBot is a dragon.Bot: it sees only its seat's View.
type dragonBot struct{ b *dragon.Bot }

// dragonView returns the view of seat in g, a Dragon Farkle game that
// waits for seat.
func dragonView(g Game, seat int) (dragon.View, *DragonGame, error) {
	dg, ok := g.(*DragonGame)
	if !ok {
		return dragon.View{}, nil, fmt.Errorf("%w: %T is not a Dragon Farkle game", dragon.ErrBadAction, g)
	}
	v := dg.v.g.View(dg.s, seat)
	if len(v.Legal) == 0 {
		return v, nil, fmt.Errorf("%w: the game does not wait for seat %d", ErrNoDecision, seat)
	}
	return v, dg, nil
}

// Choose is the bot's choice from seat's view.
func (b dragonBot) Choose(g Game, seat int, src dice.Source) (Action, error) {
	v, _, err := dragonView(g, seat)
	if err != nil {
		return nil, err
	}
	return b.b.Choose(v, src), nil
}

// dragonAdvisor values choices as the Smart bot does.
type dragonAdvisor struct{ brains *dragon.Brains }

// Measure is ExpectedSoldiers; the Final Battle's choices are valued in
// WinProbability.
func (dragonAdvisor) Measure() Measure { return ExpectedSoldiers }

var dragonMeasures = map[string]Measure{dragon.UnitSoldiers: ExpectedSoldiers, dragon.UnitPWin: WinProbability}

// dragonThen says a keep's plan in the terms of Choice.Then: stopping
// banks the pool.
var dragonThen = map[string]string{dragon.ThenStop: "bank", dragon.ThenThrow: "throw"}

// Advise is dragon.Brains.Advise on seat's view: the choices it values
// (card uses on recruiting and battle throws, discards, hires and
// dismissals are left out), each with its measure; a keep with what the
// plan does next (Then: "bank" for a stop, or "throw").
func (a dragonAdvisor) Advise(g Game, seat int) (*Advice, error) {
	v, dg, err := dragonView(g, seat)
	if err != nil {
		return nil, err
	}
	adv := &Advice{Measure: ExpectedSoldiers, Position: dragonPosition(v), Turn: dg.s.Turns + 1, Choices: []Choice{}}
	for _, c := range a.brains.Advise(v) {
		adv.Choices = append(adv.Choices, Choice{Action: c.Action, Value: c.Value, Measure: dragonMeasures[c.Unit], Then: dragonThen[c.Then]})
	}
	adv.Rank()
	return adv, nil
}

// dragonPosition is the decision of v's seat in the terms of Position:
// Me and Them are soldiers (Them the strongest opponent's), Total the pool
// of the recruiting turn, Dice the dice to throw or thrown, Throw the
// throw to keep from.
func dragonPosition(v dragon.View) Position {
	p := Position{Me: v.Players[v.Seat].Soldiers, Total: v.Pool, Dice: v.Dice}
	for i, o := range v.Players {
		if i != v.Seat {
			p.Them = max(p.Them, o.Soldiers)
		}
	}
	if v.Phase == dragon.PhaseKeep {
		p.Throw = v.Throw
		p.Dice = v.Throw.N()
	}
	return p
}
