package record

import (
	"errors"
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// ErrDiscrepancy is wrapped by every error of Verify and Replay that finds
// the record inconsistent.
var ErrDiscrepancy = errors.New("record: discrepancy")

// Step is one replayed action: the state before it, the action, and the
// events it caused.
type Step struct {
	Before engine.State
	Action engine.Action
	Events []engine.Event
}

// Replay plays the record's actions from the start with the recorded dice
// and returns the final state and every step. It fails at the first action
// the engine refuses, or whose recorded dice do not fit.
func Replay(rec *Record) (engine.State, []Step, error) {
	return replay(rec, nil)
}

// Verify checks the record completely: the seed matches the commitment,
// every throw is the one the seed gives, and every action was legal. It
// returns the final state, or an error wrapping ErrDiscrepancy that names
// the first action at fault.
func Verify(rec *Record) (engine.State, error) {
	if rec.Seed == "" {
		return engine.State{}, fmt.Errorf("%w: the seed is not revealed, so the dice cannot be checked", ErrDiscrepancy)
	}
	seed, err := parseSeed(rec.Seed)
	if err != nil {
		return engine.State{}, err
	}
	if got := seed.Commitment(); got != rec.Commitment {
		return engine.State{}, fmt.Errorf("%w: the seed's SHA-256 is %s but the record committed to %s", ErrDiscrepancy, got, rec.Commitment)
	}
	st, _, err := replay(rec, dice.NewSource(seed))
	return st, err
}

// recorded is a Source that yields the dice of the entry being replayed.
type recorded struct{ faces []int }

func (r *recorded) Uint64() uint64 {
	if len(r.faces) == 0 {
		return 0 // caught by the count check before it is used
	}
	f := r.faces[0]
	r.faces = r.faces[1:]
	return uint64(f - 1)
}

// replay applies the actions; with src nil the recorded dice are used,
// otherwise the dice come from src and must equal the recorded ones.
func replay(rec *Record, src dice.Source) (engine.State, []Step, error) {
	st, err := engine.New(rec.Rules, rec.Players)
	if err != nil {
		return st, nil, fmt.Errorf("%w: %w", ErrDiscrepancy, err)
	}
	steps := make([]Step, 0, len(rec.Actions))
	for i, e := range rec.Actions {
		use := src
		throws := e.Kind == engine.Throw || e.Kind == engine.RollOff
		if src == nil {
			if throws {
				want := 1
				if e.Kind == engine.Throw {
					want = st.ToThrow()
				}
				if e.Threw.N() != want {
					return st, steps, fmt.Errorf("%w: action %d (%s by %s): recorded %d dice, the throw needs %d", ErrDiscrepancy, i+1, e.Action, name(rec, e.Player), e.Threw.N(), want)
				}
			}
			use = &recorded{faces: e.Threw.Faces()}
		}
		next, ev, err := engine.Apply(st, e.Action, use)
		if err != nil {
			return st, steps, fmt.Errorf("%w: action %d (%s by %s): %w", ErrDiscrepancy, i+1, e.Action, name(rec, e.Player), err)
		}
		var threw dice.Hand
		for _, x := range ev {
			if x.Kind == engine.EvThrow || x.Kind == engine.EvRollOff {
				threw = x.Dice
				break
			}
		}
		if threw != e.Threw {
			return st, steps, fmt.Errorf("%w: action %d (%s by %s): the seed throws [%s] but the record says [%s]", ErrDiscrepancy, i+1, e.Action, name(rec, e.Player), threw, e.Threw)
		}
		steps = append(steps, Step{Before: st, Action: e.Action, Events: ev})
		st = next
	}
	return st, steps, nil
}

func name(rec *Record, p int) string {
	if p >= 0 && p < len(rec.Players) {
		return rec.Players[p]
	}
	return fmt.Sprintf("seat %d", p)
}
