package rulestest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/rules"
)

// TestRandomIsValidAndVaried: every rule set passes rules.Validate and
// stays within the target asked for, and over a thousand draws every
// choice a rule file offers is taken both ways, so differential tests on
// them reach every branch of the rules.
func TestRandomIsValidAndVaried(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	mark := func(name string, on bool) {
		if on {
			seen[name+" on"] = true
		} else {
			seen[name+" off"] = true
		}
	}
	const maxTarget = 2000
	for range 1000 {
		r := Random(rng, maxTarget)
		if err := r.Validate(); err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if r.Game.Target > maxTarget {
			t.Fatalf("target %d above %d", r.Game.Target, maxTarget)
		}
		s := r.Scoring
		seen[fmt.Sprint("dice ", r.Dice)] = true
		seen["mode "+s.KindMode] = true
		mark("single 2", s.SinglePoints(2) > 0)
		mark("triple 6", s.Triple[5] > 0)
		mark("four of a kind", s.FourOfAKind > 0)
		mark("six of a kind", s.SixOfAKind > 0)
		mark("straight", s.Straight > 0)
		mark("small straight", s.SmallStraightLow > 0)
		mark("three pairs", s.ThreePairs > 0)
		mark("three pairs quad", s.ThreePairsQuad)
		mark("four kind pair", s.FourKindPair > 0)
		mark("two triplets", s.TwoTriplets > 0)
		mark("six dice nothing", s.SixDiceNothing > 0)
		mark("hot dice", r.Turn.HotDice)
		mark("entry minimum", r.Turn.EntryMinimum > 0)
		mark("bank minimum", r.Turn.BankMinimum > 0)
		mark("penalty", r.Turn.FarklePenalty.Count > 0)
		mark("immediate", r.Game.Ending == rules.EndImmediate)
		mark("roll-off", r.Game.FirstPlayer == rules.RollOff)
		mark("share", r.Game.Tie == rules.Share)
		mark("one player", r.Game.MinPlayers == 1)
		mark("eight players", r.Game.MaxPlayers == rules.MaxPlayers)
		mark("cap", r.Game.MaxTurns > 0)
		mark("unit 5", r.Game.Target%10 != 0)
	}
	for _, want := range []string{"dice 1", "dice 2", "dice 3", "dice 4", "dice 5", "dice 6",
		"mode none", "mode fixed", "mode multiply", "mode double"} {
		if !seen[want] {
			t.Errorf("never drew %s", want)
		}
	}
	for _, name := range []string{"single 2", "triple 6", "four of a kind", "six of a kind", "straight",
		"small straight", "three pairs", "three pairs quad", "four kind pair", "two triplets",
		"six dice nothing", "hot dice", "entry minimum", "bank minimum", "penalty", "immediate",
		"roll-off", "share", "one player", "eight players", "cap", "unit 5"} {
		if !seen[name+" on"] || !seen[name+" off"] {
			t.Errorf("%s: drawn on %v, off %v", name, seen[name+" on"], seen[name+" off"])
		}
	}
}

// TestRandomRepeats: the same generator state gives the same rule set, so
// a failing seed can be replayed.
func TestRandomRepeats(t *testing.T) {
	a := Random(rand.New(rand.NewPCG(7, 7)), 1000)
	b := Random(rand.New(rand.NewPCG(7, 7)), 1000)
	if a.Hash() != b.Hash() {
		t.Fatal("two generators with the same seed drew different rules")
	}
}
