package engine_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// randomAction returns an arbitrary action, legal or not.
func randomAction(rng *rand.Rand, players int) engine.Action {
	a := engine.Action{Kind: engine.Kind(rng.IntN(7)), Player: rng.IntN(players+2) - 1}
	if a.Kind == engine.Resign && rng.IntN(8) > 0 {
		a.Kind = engine.Throw // resign rarely, so that games run long
	}
	if a.Kind == engine.Keep {
		all := dice.AllThrows()
		a.Dice = all[rng.IntN(len(all))]
		if rng.IntN(4) == 0 {
			a.Dice = 0
		}
	}
	return a
}

// isLegal reports whether Apply must accept a: an action Legal lists, or
// Resign by the actor (always legal, never listed).
func isLegal(s engine.State, a engine.Action) bool {
	if a.Kind == engine.Resign {
		return !s.Over() && a.Player == s.Actor()
	}
	for _, l := range s.Legal() {
		if l == a {
			return true
		}
	}
	return false
}

// TestApplyAgreesWithLegal throws thousands of arbitrary actions at games of
// every preset: an action is accepted exactly when Legal lists it, plus
// Resign by the actor, and a refused one leaves the state exactly as it was.
func TestApplyAgreesWithLegal(t *testing.T) {
	for _, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			r := rules.MustPreset(name)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			src := dice.NewSource(dice.SeedFrom(name))
			for g := range 10 {
				names := []string{"a", "b", "c"}[:2+g%2]
				if len(names) > r.Game.MaxPlayers {
					names = names[:r.Game.MaxPlayers]
				}
				s, err := engine.New(r, names)
				if err != nil {
					t.Fatal(err)
				}
				for step := 0; !s.Over() && step < 5000; step++ {
					a := randomAction(rng, len(s.Players))
					if rng.IntN(2) == 0 {
						legal := s.Legal()
						a = legal[rng.IntN(len(legal))]
					}
					before := s
					snapshot := deepCopy(s)
					next, _, err := engine.Apply(s, a, src)
					if isLegal(s, a) != (err == nil) {
						t.Fatalf("%v by %d: legal=%v but err=%v", a, a.Player, isLegal(s, a), err)
					}
					if !reflect.DeepEqual(before, snapshot) {
						t.Fatalf("Apply changed the state it was given")
					}
					if err != nil {
						if !reflect.DeepEqual(next, before) {
							t.Fatalf("refused %v returned a changed state", a)
						}
						if !errors.Is(err, engine.ErrIllegal) && !errors.Is(err, engine.ErrNotYourTurn) && !errors.Is(err, engine.ErrUnknownAction) {
							t.Fatalf("unexpected error kind: %v", err)
						}
						continue
					}
					if next.Version != s.Version+1 {
						t.Fatal("version must grow by one per action")
					}
					s = next
				}
			}
		})
	}
}

func deepCopy(s engine.State) engine.State {
	c := s
	c.Players = append([]engine.Player(nil), s.Players...)
	c.Contenders = append([]int(nil), s.Contenders...)
	c.RollFaces = append([]int(nil), s.RollFaces...)
	c.Winners = append([]int(nil), s.Winners...)
	if s.Contenders == nil {
		c.Contenders = nil
	}
	if s.RollFaces == nil {
		c.RollFaces = nil
	}
	if s.Winners == nil {
		c.Winners = nil
	}
	return c
}

func TestWinnerReachedTheTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		s, _ := randomGame(t, r, []string{"a", "b"}, rng, dice.NewSource(dice.SeedFrom("w"+name)))
		w := s.Players[s.Winners[0]]
		if w.Score < r.Game.Target {
			t.Fatalf("%s: winner %s has %d < target", name, w.Name, w.Score)
		}
		for _, p := range s.Players {
			if p.Score > w.Score {
				t.Fatalf("%s: %s has more than the winner", name, p.Name)
			}
		}
	}
}

func BenchmarkRandomGame(b *testing.B) {
	r := rules.MustPreset("classic")
	rng := rand.New(rand.NewPCG(1, 1))
	src := dice.NewSource(dice.SeedFrom("bench"))
	actions := 0
	for b.Loop() {
		_, n := randomGame(b, r, []string{"a", "b"}, rng, src)
		actions += n
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

func BenchmarkApplyThrow(b *testing.B) {
	r := rules.MustPreset("classic")
	r.Game.FirstPlayer = rules.SeatOrder
	s, _ := engine.New(r, []string{"a", "b"})
	src := dice.NewSource(dice.SeedFrom("bench"))
	a := engine.ThrowBy(s.Current)
	for b.Loop() {
		if _, _, err := engine.Apply(s, a, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLegal(b *testing.B) {
	s, _ := engine.New(rules.MustPreset("classic"), []string{"a"})
	s, _, _ = engine.Apply(s, engine.ThrowBy(0), dice.Faces(1, 1, 5, 2, 3, 6))
	for b.Loop() {
		_ = s.Legal()
	}
}
