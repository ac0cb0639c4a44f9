// Package rulestest makes random valid rule sets for tests: differential
// tests check the copies of the game's rules (the engine, the fast
// simulator, the solvers' model) against each other on rule sets no preset
// has, not on the presets only.
package rulestest

import (
	"math/rand/v2"
	"strconv"

	"github.com/farkle/farkle/rules"
)

// Random returns a rule set that passes rules.Validate, drawn from rng,
// with a target of at most maxTarget points (at least 100). Every field
// varies: the number of dice (1 to 6), which faces score alone, the
// triples, every kind mode and meld a game of that many dice allows, the
// six-dice bonus, hot dice, the minimums, the farkle penalty, both endings,
// the players, the first player, ties and the cap on turns. Points are
// multiples of a step drawn from 5 to 100, so the solvers' scoring unit
// varies too.
func Random(rng *rand.Rand, maxTarget int) rules.Rules {
	maxTarget = max(maxTarget, 100)
	for {
		if r := draw(rng, maxTarget); r.Validate() == nil {
			return r
		}
	}
}

func draw(rng *rand.Rand, maxTarget int) rules.Rules {
	step := []int{5, 10, 25, 50, 100}[rng.IntN(5)]
	// pts returns a multiple of step from lo to hi steps.
	pts := func(lo, hi int) int { return step * (lo + rng.IntN(hi-lo+1)) }
	// some returns v with probability p, else 0.
	some := func(p float64, v int) int {
		if rng.Float64() < p {
			return v
		}
		return 0
	}
	modes := []string{rules.KindNone, rules.KindFixed, rules.KindMultiply, rules.KindDouble}
	r := rules.Rules{Name: "random", Dice: []int{1, 2, 3, 4, 5, 6, 6, 6}[rng.IntN(8)]}
	s := &r.Scoring
	s.Single = map[string]int{}
	for f := 1; f <= 6; f++ {
		if rng.IntN(3) == 0 {
			s.Single[strconv.Itoa(f)] = pts(1, 20)
		}
	}
	for f := range s.Triple {
		s.Triple[f] = some(0.8, pts(2, 60))
	}
	s.KindMode = modes[rng.IntN(len(modes))]
	if s.KindMode == rules.KindFixed {
		s.FourOfAKind = some(0.8*float64(min(1, r.Dice/4)), pts(10, 100))
		s.FiveOfAKind = some(0.8*float64(min(1, r.Dice/5)), pts(10, 150))
		s.SixOfAKind = some(0.8*float64(r.Dice/6), pts(10, 200))
	}
	if r.Dice >= 5 {
		s.SmallStraightLow = some(0.3, pts(5, 60))
		s.SmallStraightHigh = some(0.3, pts(5, 60))
	}
	if r.Dice == 6 {
		s.Straight = some(0.6, pts(5, 100))
		s.ThreePairs = some(0.5, pts(5, 100))
		s.ThreePairsQuad = rng.IntN(2) == 0
		s.FourKindPair = some(0.3, pts(5, 100))
		s.TwoTriplets = some(0.3, pts(5, 100))
		s.SixDiceNothing = some(0.3, pts(1, 40))
	}
	g := &r.Game
	g.Target = step * (1 + rng.IntN(maxTarget/step))
	g.Target = max(g.Target, 100)
	g.Ending = []string{rules.EndFinalRound, rules.EndImmediate}[rng.IntN(2)]
	g.MinPlayers = 1 + rng.IntN(3)
	g.MaxPlayers = g.MinPlayers + rng.IntN(rules.MaxPlayers-g.MinPlayers+1)
	g.FirstPlayer = []string{rules.RollOff, rules.SeatOrder}[rng.IntN(2)]
	g.Tie = []string{rules.RollOff, rules.Share}[rng.IntN(2)]
	g.MaxTurns = some(0.3, 1+rng.IntN(20))
	t := &r.Turn
	t.HotDice = rng.IntN(4) != 0
	t.EntryMinimum = some(0.3, min(g.Target, pts(1, 20)))
	t.BankMinimum = some(0.3, min(g.Target, pts(1, 10)))
	if rng.IntN(3) == 0 {
		t.FarklePenalty = rules.Penalty{Count: 1 + rng.IntN(3), Points: pts(1, 20)}
	}
	return r
}
