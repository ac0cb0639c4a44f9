package dragon

import (
	"fmt"

	"github.com/farkle/farkle/dice"
)

// Replay rebuilds a game from its record: the players, the seed of its
// default source (dice.NewSource(seed): New and every Apply draw from that one
// source in order) and the actions in order. It returns the final state and
// every event, or an error naming the first action that is not legal.
func (g *Game) Replay(names []string, seed [32]byte, actions []Action) (State, []Event, error) {
	src := dice.NewSource(seed)
	s, evs, err := g.New(names, src)
	if err != nil {
		return State{}, nil, err
	}
	for i, a := range actions {
		var more []Event
		s, more, err = g.Apply(s, a, src)
		if err != nil {
			return s, evs, fmt.Errorf("action %d (%s): %w", i+1, a, err)
		}
		evs = append(evs, more...)
	}
	return s, evs, nil
}
