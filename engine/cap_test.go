package engine_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

func capped(name string, target, maxTurns int) rules.Rules {
	r := lowTarget(name, target)
	r.Game.MaxTurns = maxTurns
	return r
}

// banks plays a turn that keeps the first die of faces and banks it.
func (p *play) banks(faces ...int) {
	p.t.Helper()
	p.throw(faces...)
	p.keep(faces[0])
	p.bank()
}

func TestCapEndsAfterFullRounds(t *testing.T) {
	p := newPlay(t, capped("classic", 10000, 2), []string{"ana", "bob", "cy"})
	p.banks(1, 2, 3, 4, 6, 6) // ana 100
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank()                  // bob 1000
	farkle(p)                 // cy 0
	p.banks(5, 2, 3, 4, 6, 6) // ana 150
	farkle(p)                 // bob
	if p.s.Over() || p.s.Current != 2 {
		t.Fatalf("cy must have her second turn: %+v", p.s)
	}
	p.banks(1, 2, 3, 4, 6, 6) // cy 100: the second round is complete
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("the cap must end the game with bob the highest: %+v", p.s)
	}
	lim := p.hasEvent(engine.EvTurnLimit)
	if got := lim.Describe(p.s.Names()); got != "the game reached its limit of 2 turns" {
		t.Fatalf("describe %q", got)
	}
	if over := p.hasEvent(engine.EvGameOver); over.Score != 1000 {
		t.Fatalf("game over %+v", over)
	}
	for _, pl := range p.s.Players {
		if pl.Turns != 2 {
			t.Fatalf("%s had %d turns, want 2", pl.Name, pl.Turns)
		}
	}
}

func TestCapCountsRoundsFromTheFirstPlayer(t *testing.T) {
	r := capped("classic", 10000, 1)
	r.Game.FirstPlayer = rules.RollOff
	s, _ := engine.New(r, []string{"ana", "bob"})
	p := &play{t: t, s: s, src: dice.Faces(2, 6)}
	p.do(engine.RollOffBy(0))
	p.do(engine.RollOffBy(1)) // bob starts
	p.banks(1, 2, 3, 4, 6, 6) // bob 100
	if p.s.Over() {
		t.Fatal("ana has not had her turn")
	}
	p.banks(5, 2, 3, 4, 6, 6) // ana 50
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("bob must win after one round: %+v", p.s)
	}
}

func TestCapTie(t *testing.T) {
	p := newPlay(t, capped("classic", 10000, 1), []string{"ana", "bob"})
	p.banks(1, 2, 3, 4, 6, 6)
	p.banks(1, 2, 3, 4, 6, 6)
	if p.s.Phase != engine.PhaseTieRollOff || !reflect.DeepEqual(p.s.Contenders, []int{0, 1}) {
		t.Fatalf("a tie at the cap rolls off: %+v", p.s)
	}
	p.hasEvent(engine.EvTurnLimit)
	p.hasEvent(engine.EvTie)
	p.src = dice.Faces(2, 5)
	p.do(engine.RollOffBy(0))
	p.do(engine.RollOffBy(1))
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("bob threw 5 against 2: %+v", p.s)
	}

	r := capped("classic", 10000, 1)
	r.Game.Tie = rules.Share
	p = newPlay(t, r, []string{"ana", "bob", "cy"})
	p.banks(1, 2, 3, 4, 6, 6)
	p.banks(5, 2, 3, 4, 6, 6)
	p.banks(1, 2, 3, 4, 6, 6)
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{0, 2}) {
		t.Fatalf("ana and cy share the win at the cap: %+v", p.s)
	}
}

// A final round in progress runs to its end even past the cap.
func TestCapLetsTheFinalRoundFinish(t *testing.T) {
	p := newPlay(t, capped("classic", 1000, 2), []string{"ana", "bob", "cy"})
	p.banks(5, 2, 3, 4, 6, 6) // ana 50
	p.banks(5, 2, 3, 4, 6, 6) // bob 50
	p.banks(5, 2, 3, 4, 6, 6) // cy 50
	p.banks(5, 2, 3, 4, 6, 6) // ana 100
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank() // bob 1050: final round in the last round
	p.hasEvent(engine.EvFinalRound)
	p.banks(5, 2, 3, 4, 6, 6) // cy 100: the round is complete, but the final round is not
	if p.s.Over() || p.s.Current != 0 {
		t.Fatalf("ana must have her final-round turn: %+v", p.s)
	}
	p.banks(1, 2, 3, 4, 6, 6) // ana 200
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("bob wins at the end of the final round: %+v", p.s)
	}
	for _, e := range p.ev {
		if e.Kind == engine.EvTurnLimit {
			t.Fatal("the final round ended the game, not the cap")
		}
	}
	if got := []int{p.s.Players[0].Turns, p.s.Players[1].Turns, p.s.Players[2].Turns}; !slices.Equal(got, []int{3, 2, 2}) {
		t.Fatalf("turns %v, want 3 2 2", got)
	}
}

func TestCapWithResignation(t *testing.T) {
	p := newPlay(t, capped("classic", 10000, 2), []string{"ana", "bob", "cy"})
	p.banks(5, 2, 3, 4, 6, 6) // ana 50
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank()                  // bob 1000
	p.banks(1, 2, 3, 4, 6, 6) // cy 100
	p.banks(5, 2, 3, 4, 6, 6) // ana 100
	p.resign()                // bob, the highest, resigns in his second turn
	if p.s.Over() || p.s.Current != 2 {
		t.Fatalf("cy must have her second turn: %+v", p.s)
	}
	farkle(p) // cy stays at 100: a tie with ana at the cap
	if p.s.Phase != engine.PhaseTieRollOff || !reflect.DeepEqual(p.s.Contenders, []int{0, 2}) {
		t.Fatalf("ana and cy tie at the cap without bob: %+v", p.s)
	}
	p.resign() // ana leaves the roll-off: cy wins
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{2}) {
		t.Fatalf("cy must win: %+v", p.s)
	}

	// A resignation that completes the round ends the game at the cap.
	p = newPlay(t, capped("classic", 10000, 1), []string{"ana", "bob", "cy"})
	p.banks(5, 2, 3, 4, 6, 6) // ana 50
	p.banks(1, 2, 3, 4, 6, 6) // bob 100
	ev := p.resign()          // cy
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) || ev[1].Kind != engine.EvTurnLimit {
		t.Fatalf("the round is complete when cy resigns: %+v, events %v", p.s, ev)
	}
}

// TestRandomCappedGames plays random games under random caps with random
// resignations: every game ends; no one starts more than one turn past the
// cap (a final round); a game ended by the cap has given every player in
// exactly the cap; the winners are in and have the highest score of those
// in; scores add up.
func TestRandomCappedGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	limits := 0
	for _, name := range rules.Presets() {
		for g := range 30 {
			r := rules.MustPreset(name)
			r.Game.MaxTurns = 1 + rng.IntN(25)
			n := min(r.Game.MaxPlayers, max(r.Game.MinPlayers, 1+g%4))
			s, err := engine.New(r, []string{"a", "b", "c", "d"}[:n])
			if err != nil {
				t.Fatal(err)
			}
			src := dice.NewSource(dice.SeedFrom(name + "cap" + string(rune(g))))
			limited := false
			for step := 0; !s.Over(); step++ {
				if step > 100000 {
					t.Fatal("game did not end")
				}
				a := engine.ResignBy(s.Actor())
				if rng.IntN(150) != 0 {
					legal := s.Legal()
					a = legal[rng.IntN(len(legal))]
					for _, l := range legal {
						if l.Kind == engine.Bank && rng.IntN(3) > 0 {
							a = l
						}
					}
				}
				var ev []engine.Event
				if s, ev, err = engine.Apply(s, a, src); err != nil {
					t.Fatalf("%s: %v refused: %v", name, a, err)
				}
				for _, e := range ev {
					if e.Kind == engine.EvTurnLimit {
						limited = true
						if e.Turns != r.Game.MaxTurns {
							t.Fatalf("%s: limit event %+v for a cap of %d", name, e, r.Game.MaxTurns)
						}
					}
				}
			}
			in := s.In()
			high := -1
			for _, i := range in {
				high = max(high, s.Players[i].Score)
			}
			for i, pl := range s.Players {
				if pl.Turns > r.Game.MaxTurns+1 {
					t.Fatalf("%s: %s started %d turns under a cap of %d", name, pl.Name, pl.Turns, r.Game.MaxTurns)
				}
				if limited && !pl.Out && pl.Turns != r.Game.MaxTurns {
					t.Fatalf("%s: the cap of %d ended the game but %s (in) had %d turns", name, r.Game.MaxTurns, pl.Name, pl.Turns)
				}
				if pl.Score != pl.Banked-pl.Penalty || pl.Score < 0 {
					t.Fatalf("%s: seat %d: score %d != banked %d - penalty %d", name, i, pl.Score, pl.Banked, pl.Penalty)
				}
			}
			if limited {
				limits++
			}
			if len(in) > 0 && len(s.Winners) == 0 {
				t.Fatalf("%s: no winner with %v in", name, in)
			}
			for _, w := range s.Winners {
				if !slices.Contains(in, w) || (len(in) > 1 && s.Players[w].Score != high) {
					t.Fatalf("%s: winner %d (in %v) with %d, highest in %d", name, w, in, s.Players[w].Score, high)
				}
			}
		}
	}
	if limits < 20 {
		t.Fatalf("only %d games ended at the cap: the test does not test it", limits)
	}
}
