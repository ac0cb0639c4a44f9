package dragon

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
)

// testGame returns a game with the default rules and the given cards
// (nil: no cards at all).
func testGame(t testing.TB, cards *Cards) *Game {
	t.Helper()
	if cards == nil {
		cards = NoCards()
	}
	return MustGame(ClassicRules(), cards)
}

// armyGame returns a Game of the default rules (the army battle) with
// cards (nil: none).
func armyGame(t testing.TB, cards *Cards) *Game {
	t.Helper()
	if cards == nil {
		cards = NoCards()
	}
	return MustGame(DefaultRules(), cards)
}

// fresh returns a game state with n players at the start of seat 0's
// turn, no cards dealt, empty decks.
func fresh(n int) State {
	s := State{Players: make([]Player, n), Round: 1, Phase: PhaseChoose,
		CompanionDeck: []string{}, CompanionDiscard: []string{}, ItemDeck: []string{}, ItemDiscard: []string{}}
	for i := range s.Players {
		s.Players[i] = Player{Name: string(rune('A' + i)), Items: []string{}}
	}
	return s
}

// give sets a player's soldiers and books them as drawn from the
// stockpile, so that the conservation invariant holds.
func give(s *State, seat, soldiers int) {
	s.Stockpile -= soldiers - s.Players[seat].Soldiers
	s.Players[seat].Soldiers = soldiers
}

// throwFaces is a scripted throw: the dice faces then the event die face
// (1 Blank, 5 Rally, 6 Dragon).
func throwFaces(dice string, event int) []int {
	var out []int
	for _, c := range dice {
		out = append(out, int(c-'0'))
	}
	return append(out, event)
}

// script returns a dice.Scripted source of the given throws.
func script(throws ...[]int) *dice.Scripted {
	s := &dice.Scripted{}
	for _, t := range throws {
		s.Then(t...)
	}
	return s
}

const (
	blank  = 1
	rally  = 5
	dragon = 6
)

// mustApply applies a and fails the test on error; it also checks the
// soldier conservation invariant and that s itself was not modified.
func mustApply(t *testing.T, g *Game, s State, a Action, src dice.Source) (State, []Event) {
	t.Helper()
	before := s.Clone()
	n, evs, err := g.Apply(s, a, src)
	if err != nil {
		t.Fatalf("Apply(%s): %v", a, err)
	}
	if !reflect.DeepEqual(before, s) {
		t.Fatalf("Apply(%s) modified its input state", a)
	}
	checkConservation(t, n)
	return n, evs
}

// mustReject applies a, expects an error, and checks that the state is
// unchanged and the returned state equals the input.
func mustReject(t *testing.T, g *Game, s State, a Action, src dice.Source) error {
	t.Helper()
	before := s.Clone()
	n, evs, err := g.Apply(s, a, src)
	if err == nil {
		t.Fatalf("Apply(%s) accepted; want an error", a)
	}
	if !reflect.DeepEqual(before, s) || !reflect.DeepEqual(before, n) || evs != nil {
		t.Fatalf("rejected Apply(%s) changed the state", a)
	}
	return err
}

func checkConservation(t testing.TB, s State) {
	t.Helper()
	sum := s.Stockpile + s.Meal + s.Pool
	for _, p := range s.Players {
		if p.Soldiers < 0 {
			t.Fatalf("%s has %d soldiers", p.Name, p.Soldiers)
		}
		sum += p.Soldiers
	}
	if sum != 0 {
		t.Fatalf("stockpile %d + meal %d + pool %d + soldiers = %d, want 0", s.Stockpile, s.Meal, s.Pool, sum)
	}
}

func hasEvent(evs []Event, k EventKind) (Event, bool) {
	for _, e := range evs {
		if e.Kind == k {
			return e, true
		}
	}
	return Event{}, false
}

func h(s string) dice.Hand {
	x, err := dice.Parse(s)
	if err != nil {
		panic(err)
	}
	return x
}

func diceAllThrows() []dice.Hand { return dice.AllThrows() }

// playGame plays one game of bots (one per seat, named names): the game
// draws from dice.NewSource(seed) and the Random bots from a separate
// source keyed by dice.Seed(seed).Derive("dragon-bots"), so
// Game.Replay(names, seed, actions) rebuilds the game from the actions
// returned. The game runs until it ends or RoundCap(maxRounds) ends it
// (capped). Bots see only their View.
func playGame(g *Game, names []string, bots []*Bot, seed [32]byte, maxRounds int) (final State, actions []Action, capped bool, err error) {
	src, botSrc := dice.NewSource(seed), dice.NewSource(dice.Seed(seed).Derive("dragon-bots"))
	s, _, err := g.New(names, src)
	if err != nil {
		return State{}, nil, false, err
	}
	if len(bots) != len(names) {
		return State{}, nil, false, fmt.Errorf("%w: %d bots for %d players", ErrPlayers, len(bots), len(names))
	}
	for !s.Over() {
		if ws, ok := RoundCap(s, maxRounds); ok {
			s.Phase, s.Winners = PhaseOver, ws
			return s, actions, true, nil
		}
		seat := s.ToAct()
		a := bots[seat].Choose(g.View(s, seat), botSrc)
		actions = append(actions, a)
		var err error
		s, _, err = g.Apply(s, a, src)
		if err != nil {
			return s, actions, false, fmt.Errorf("dragon: bot %s chose %s: %w", bots[seat].Level, a, err)
		}
	}
	return s, actions, false, nil
}
