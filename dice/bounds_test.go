package dice_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// boundRules returns rules whose every meld scores a value near
// rules.MaxPoints (vals picks each), with hot dice and the given kind mode.
func boundRules(mode string, vals func() int) rules.Rules {
	r := rules.MustPreset("classic")
	s := &r.Scoring
	for f := 1; f <= 6; f++ {
		s.Single[fmt.Sprint(f)] = vals()
		s.Triple[f-1] = vals()
	}
	s.KindMode = mode
	s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = vals(), vals(), vals()
	s.Straight, s.SmallStraightLow, s.SmallStraightHigh = vals(), vals(), vals()
	s.ThreePairs, s.FourKindPair, s.TwoTriplets = vals(), vals(), vals()
	s.ThreePairsQuad = true
	s.SixDiceNothing = vals()
	r.Turn.HotDice = true
	r.Game.Target = rules.MaxTarget
	return r
}

// TestTableAtBounds: with every meld at (or just below) rules.MaxPoints,
// every keep of every throw scores exactly what the reference scorer says
// in int, and never more than rules.MaxKeepPoints; under kind_mode double
// six of a kind reaches it.
func TestTableAtBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	sets := map[string]rules.Rules{}
	for _, mode := range []string{rules.KindNone, rules.KindFixed, rules.KindMultiply, rules.KindDouble} {
		sets["max "+mode] = boundRules(mode, func() int { return rules.MaxPoints })
		sets["near max "+mode] = boundRules(mode, func() int { return rules.MaxPoints - rng.IntN(1000) })
	}
	for name, r := range sets {
		t.Run(name, func(t *testing.T) {
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			checkAgainstReference(t, r)
			tab := dice.NewTable(r)
			most := 0
			for _, h := range dice.AllThrows() {
				most = max(most, tab.Best(h))
			}
			if most > rules.MaxKeepPoints {
				t.Errorf("a keep scores %d, above MaxKeepPoints %d", most, rules.MaxKeepPoints)
			}
			if name == "max "+rules.KindDouble && most != rules.MaxKeepPoints {
				t.Errorf("six of a kind under kind_mode double scores %d, want MaxKeepPoints %d", most, rules.MaxKeepPoints)
			}
		})
	}
}
