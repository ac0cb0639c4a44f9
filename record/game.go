package record

import (
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// Game is a game being played: the engine state, the dice source keyed by a
// secret seed, and the record of every accepted action. It is not safe for
// concurrent use.
type Game struct {
	State  engine.State
	Record *Record
	seed   dice.Seed
	src    dice.Source
}

// Start begins a game under r with the named players and the given seed.
func Start(r rules.Rules, players []string, seed dice.Seed) (*Game, error) {
	st, err := engine.New(r, players)
	if err != nil {
		return nil, err
	}
	return &Game{State: st, Record: New(r, players, seed), seed: seed, src: dice.NewSource(seed)}, nil
}

// Resume rebuilds a game from its record and the seed it committed to,
// checking every recorded throw against the seed.
func Resume(rec *Record, seed dice.Seed) (*Game, error) {
	if seed.Commitment() != rec.Commitment {
		return nil, fmt.Errorf("%w: the seed does not match the record's commitment", ErrDiscrepancy)
	}
	g := &Game{Record: &Record{}, seed: seed, src: dice.NewSource(seed)}
	*g.Record = *rec
	g.Record.Actions = append([]Entry(nil), rec.Actions...)
	st, _, err := replay(rec, g.src)
	if err != nil {
		return nil, err
	}
	g.State = st
	return g, nil
}

// Do applies a to the game. On success the action is recorded and, when the
// game ends, the seed is revealed in the record. On error nothing changes.
func (g *Game) Do(a engine.Action) ([]engine.Event, error) {
	next, ev, err := engine.Apply(g.State, a, g.src)
	if err != nil {
		return nil, err
	}
	g.State = next
	g.Record.Add(a, ev)
	if next.Over() {
		g.Record.Reveal(g.seed)
		g.Record.Meta.Winners = next.Winners
		g.Record.Meta.Scores = scores(next)
	}
	return ev, nil
}

// Seed returns the game's secret seed.
func (g *Game) Seed() dice.Seed { return g.seed }

func scores(s engine.State) []int {
	out := make([]int, len(s.Players))
	for i, p := range s.Players {
		out[i] = p.Score
	}
	return out
}
