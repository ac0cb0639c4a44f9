package dice

import (
	"testing"

	"github.com/farkle/farkle/rules"
)

// TestOddsByHand: the odds of one and two classic dice, counted by hand:
// one die scores with a 1 (100) or a 5 (50); two dice farkle when neither
// is a 1 or a 5 (4*4 of 36) and score the sum of their 1s and 5s.
func TestOddsByHand(t *testing.T) {
	tab := NewTable(rules.MustPreset("classic"))
	one := tab.Odds(1)
	if one.FarkleWays != 4 || one.PointWays != 150 || one.PFarkle() != 4.0/6 || one.Expected() != 25 {
		t.Errorf("one die: %+v", one)
	}
	// Two dice: each die is worth 100, 50 or 0 alone, and the points add
	// (no two-dice meld in classic): 2 dice * 6 faces * 150 points.
	two := tab.Odds(2)
	if two.FarkleWays != 16 || two.PointWays != 2*6*150 {
		t.Errorf("two dice: %+v", two)
	}
}

// TestOddsSixDiceNothing: six dice that score nothing are not a farkle
// where the rules pay a bonus for them, and they count the bonus.
func TestOddsSixDiceNothing(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Scoring.SixDiceNothing = 0
	plain := NewTable(r).Odds(6)
	r.Scoring.SixDiceNothing = 500
	bonus := NewTable(r).Odds(6)
	if plain.FarkleWays == 0 || bonus.FarkleWays != 0 {
		t.Fatalf("farkle ways without and with the bonus: %d, %d", plain.FarkleWays, bonus.FarkleWays)
	}
	if bonus.PointWays-plain.PointWays != 500*plain.FarkleWays {
		t.Errorf("the bonus adds %d point-ways, want 500 for each of %d nothing throws", bonus.PointWays-plain.PointWays, plain.FarkleWays)
	}
}
