package engine_test

import (
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// A game is a State; Apply plays one action with dice from a dice.Source and
// returns the next state and what happened. The same seed and actions give
// the same game on every machine. This plays the roll-off for the first
// player, then the first turn: throw, keep the keep worth the most, and
// throw again until the turn total reaches 300, then bank.
func ExampleApply() {
	r := rules.MustPreset("classic")
	s, err := engine.New(r, []string{"Ann", "Bob"})
	if err != nil {
		panic(err)
	}
	src := dice.NewSource(dice.SeedFrom("example"))
	play := func(a engine.Action) {
		next, events, err := engine.Apply(s, a, src)
		if err != nil {
			panic(err)
		}
		for _, e := range events {
			fmt.Println(e.Describe(s.Names()))
		}
		s = next
	}
	for s.Phase == engine.PhaseFirstRollOff {
		play(engine.RollOffBy(s.Actor()))
	}
	p := s.Current
	for s.Current == p && !s.Over() {
		switch {
		case s.Step == engine.StepKeep: // keep the keep worth the most
			keeps := s.Table().Keeps(s.Throw)
			best := keeps[0]
			for _, k := range keeps {
				if k.Points > best.Points {
					best = k
				}
			}
			play(engine.KeepBy(p, best.Hand))
		case s.Total >= 300:
			play(engine.BankBy(p))
		default:
			play(engine.ThrowBy(p))
		}
	}
	fmt.Println("scores:", s.Players[0].Score, s.Players[1].Score)
	// Output:
	// Ann throws 3 in the roll-off
	// Bob throws 4 in the roll-off
	// Bob starts
	// Bob's turn
	// Bob throws 1 1 1 2 5 5
	// Bob keeps 1 1 1 5 5 for 1,100 (turn 1,100)
	// Bob banks 1,100: score 1,100
	// Ann's turn
	// scores: 0 1100
}

// Legal lists the moves allowed now; an action that is not legal is
// refused with an error that says why, and the state is left as it was.
func ExampleState_Legal() {
	r := rules.MustPreset("classic")
	r.Game.FirstPlayer = rules.SeatOrder // no roll-off: seat 0 starts
	s, _ := engine.New(r, []string{"Ann", "Bob"})
	fmt.Println(s.Legal())

	_, _, err := engine.Apply(s, engine.BankBy(0), dice.Faces())
	fmt.Println(err)

	// dice.Scripted dice: the throw is 1 2 3 4 6 6.
	s, _, _ = engine.Apply(s, engine.ThrowBy(0), dice.Faces(6, 1, 4, 2, 6, 3))
	fmt.Println(s.Throw, s.Legal())
	// Output:
	// [throw]
	// engine: illegal action: bank: keep some dice first
	// 1 2 3 4 6 6 [keep 1]
}
