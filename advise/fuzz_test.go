package advise

import (
	"testing"

	"github.com/farkle/farkle/dice"
)

// FuzzPosition: any position is either refused with ErrPosition or
// advised with exactly one best choice (none for a farkle) and, for win
// probabilities, values between 0 and 1.
func FuzzPosition(f *testing.F) {
	f.Add(500, 1000, 300, 4, 0, 0, "1153")
	f.Add(0, 0, 0, 6, 0, 0, "")
	f.Add(-50, 1500, 75, 7, 1, 0, "1234567")
	f.Add(950, 1000, 50, 1, 0, 2, "5")
	duel := advisor(f, short("classic", 1000), 2)
	solo := advisor(f, short("classic", 1000), 1)
	f.Fuzz(func(t *testing.T, me, them, total, n, ms, ts int, throw string) {
		p := Position{Me: me, Them: them, Total: total, Dice: n, MyStreak: ms, TheirStreak: ts}
		if throw != "" {
			h, err := dice.Parse(throw)
			if err != nil {
				return
			}
			p.Throw = h
		}
		for _, a := range []*Advisor{duel, solo} {
			adv, err := a.Position(p)
			if err != nil {
				if a.Check(p) == nil {
					t.Fatalf("%+v: Check passes but Position fails: %v", p, err)
				}
				continue
			}
			best := 0
			for _, c := range adv.Choices {
				if c.Best {
					best++
				}
				if a.Measure() == WinProbability && !(c.Value >= -1e-12 && c.Value <= 1+1e-12) {
					t.Fatalf("%+v: value %v", p, c.Value)
				}
			}
			if (adv.Farkle && best != 0) || (!adv.Farkle && best != 1) {
				t.Fatalf("%+v: %d best choices (farkle %v)", p, best, adv.Farkle)
			}
		}
	})
}
