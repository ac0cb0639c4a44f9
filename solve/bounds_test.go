package solve

import (
	"errors"
	"fmt"
	"testing"

	"github.com/farkle/farkle/rules"
)

// scaled returns r with every point value (melds, bonus, minimums,
// penalty, target) multiplied by k.
func scaled(r rules.Rules, k int) rules.Rules {
	r = r.Clone()
	s := &r.Scoring
	for f, v := range s.Single {
		s.Single[f] = v * k
	}
	for i := range s.Triple {
		s.Triple[i] *= k
	}
	for _, p := range []*int{&s.FourOfAKind, &s.FiveOfAKind, &s.SixOfAKind, &s.Straight, &s.SmallStraightLow, &s.SmallStraightHigh, &s.ThreePairs, &s.FourKindPair, &s.TwoTriplets, &s.SixDiceNothing, &r.Turn.EntryMinimum, &r.Turn.BankMinimum, &r.Turn.FarklePenalty.Points, &r.Game.Target} {
		*p *= k
	}
	return r
}

// TestScaledToBounds: classic scaled by 1000 puts a triple of 1s and the
// target at their bounds (1,000,000 points); the solvers give the same
// game: expected points 1000 times as many, the same win probabilities.
func TestScaledToBounds(t *testing.T) {
	base := smallRules(t, "classic", 1000)
	big := scaled(base, 1000)
	if err := big.Validate(); err != nil {
		t.Fatal(err)
	}
	if big.Scoring.Triple[0] != rules.MaxPoints || big.Game.Target != rules.MaxTarget {
		t.Fatalf("scaled rules not at the bounds: triple 1 %d, target %d", big.Scoring.Triple[0], big.Game.Target)
	}
	ps, err := SolveSolo(base)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := SolveSolo(big)
	if err != nil {
		t.Fatal(err)
	}
	if !near(pb.ExpectedTurn(), 1000*ps.ExpectedTurn(), 1e-6*pb.ExpectedTurn()) {
		t.Errorf("expected turn %v, want 1000 x %v", pb.ExpectedTurn(), ps.ExpectedTurn())
	}
	ts, tb := mustDuel(t, base), mustDuel(t, big)
	if !near(ts.FirstPlayerWins(), tb.FirstPlayerWins(), 1e-9) {
		t.Errorf("first player wins %v scaled, %v unscaled", tb.FirstPlayerWins(), ts.FirstPlayerWins())
	}
	p := DuelPosition{Me: 300, Them: 650, MyStreak: 1, Total: 250, Dice: 3}
	vs, err1 := ts.Value(p)
	p.Me, p.Them, p.Total = 1000*p.Me, 1000*p.Them, 1000*p.Total
	vb, err2 := tb.Value(p)
	if err1 != nil || err2 != nil || !near(vs, vb, 1e-9) {
		t.Errorf("position value %v (%v) scaled, %v (%v) unscaled", vb, err2, vs, err1)
	}
}

// TestBoundsNeverWrap: rules at the bounds (every meld at MaxPoints, the
// target and minimums at MaxTarget, the longest penalty; and with a unit of
// 1 point) give memory figures that are positive or ErrTooLarge, and the
// solvers answer or refuse with ErrTooLarge quickly: never a wrapped size.
func TestBoundsNeverWrap(t *testing.T) {
	maxed := func(mode string, five int) rules.Rules {
		r := rules.MustPreset("classic")
		s := &r.Scoring
		s.Single = map[string]int{"1": rules.MaxPoints, "5": five}
		for i := range s.Triple {
			s.Triple[i] = rules.MaxPoints
		}
		s.KindMode = mode
		s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
		s.Straight, s.SmallStraightLow, s.SmallStraightHigh = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
		s.ThreePairs, s.FourKindPair, s.TwoTriplets = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
		s.ThreePairsQuad = true
		s.SixDiceNothing = rules.MaxPoints
		r.Turn.HotDice = true
		r.Game.Target = rules.MaxTarget
		r.Turn.EntryMinimum, r.Turn.BankMinimum = rules.MaxTarget, rules.MaxTarget
		r.Turn.FarklePenalty = rules.Penalty{Count: rules.MaxPenaltyCount, Points: rules.MaxTarget}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		return r
	}
	const limit = 64 << 20
	for _, mode := range []string{rules.KindFixed, rules.KindMultiply, rules.KindDouble} {
		for _, five := range []int{rules.MaxPoints, rules.MaxPoints / 2, 1} {
			r := maxed(mode, five)
			t.Run(fmt.Sprintf("%s five=%d", mode, five), func(t *testing.T) {
				for _, c := range []struct {
					name  string
					bytes func() (int64, error)
					solve func() error
				}{
					{"solo", func() (int64, error) { return SoloBytes(r) }, func() error {
						_, err := SolveSoloWith(r, SoloOptions{MaxBytes: limit})
						return err
					}},
					{"duel", func() (int64, error) { return DuelBytes(r, 2) }, func() error {
						_, err := SolveDuel(r, DuelOptions{MaxBytes: limit, Workers: 2})
						return err
					}},
				} {
					need, err := c.bytes()
					if err != nil && !errors.Is(err, ErrTooLarge) || err == nil && need <= 0 {
						t.Fatalf("%s bytes: %d, %v", c.name, need, err)
					}
					err = c.solve()
					switch {
					case err == nil && need > limit:
						t.Errorf("%s solved with a need of %d above the limit", c.name, need)
					case err != nil && !errors.Is(err, ErrTooLarge):
						t.Errorf("%s: %v", c.name, err)
					case errors.Is(err, ErrTooLarge) && need > 0 && need <= limit:
						t.Errorf("%s refused (%v) with a need of %d within the limit", c.name, err, need)
					}
					t.Logf("%s: need %d (%v), solve: %v", c.name, need, ByteSize(need), err)
				}
			})
		}
	}
}

// FuzzBytes: for any rules within the bounds, SoloBytes and DuelBytes give
// a positive figure or ErrTooLarge / ErrRules, never a panic or a wrapped
// size, and the solvers refuse exactly above their figure: a limit one byte
// below it is refused before any work, the figure itself is enough (tried
// when it is small).
func FuzzBytes(f *testing.F) {
	f.Add(10000, 0, 500, 100, 50, 1000, 3, 1000, uint8(0), true)
	f.Add(1_000_000, 1_000_000, 1_000_000, 1_000_000, 1, 1_000_000, 10, 1_000_000, uint8(3), true)
	f.Add(1500, 300, 0, 100, 50, 300, 2, 500, uint8(1), false)
	f.Add(700, 0, 0, 100, 0, 1000, 0, 0, uint8(2), true)
	f.Fuzz(func(t *testing.T, target, bank, entry, one, five, triple, count, pen int, mode uint8, hot bool) {
		clamp := func(v, lo, hi int) int { return min(max(v, lo), hi) }
		r := rules.MustPreset("classic")
		r.Game.Target = clamp(target, 1, rules.MaxTarget)
		r.Turn.BankMinimum = clamp(bank, 0, r.Game.Target)
		r.Turn.EntryMinimum = clamp(entry, 0, r.Game.Target)
		r.Scoring.Single = map[string]int{"1": clamp(one, 0, rules.MaxPoints), "5": clamp(five, 0, rules.MaxPoints)}
		r.Scoring.Triple[0] = clamp(triple, 0, rules.MaxPoints)
		r.Scoring.KindMode = []string{rules.KindNone, rules.KindFixed, rules.KindMultiply, rules.KindDouble}[mode%4]
		r.Turn.FarklePenalty = rules.Penalty{Count: clamp(count, 0, rules.MaxPenaltyCount), Points: clamp(pen, 0, rules.MaxPoints)}
		r.Turn.HotDice = hot
		if err := r.Validate(); err != nil {
			t.Fatalf("clamped rules do not validate: %v", err)
		}
		// check: the figure, the refusal one byte below it, and (below
		// small, where a solve is quick) a solve within it
		check := func(name string, need int64, err error, small int64, solve func(limit int64) error) {
			if err != nil {
				if !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrRules) {
					t.Fatalf("%s: %v", name, err)
				}
				return
			}
			if need <= 0 {
				t.Fatalf("%s: need %d", name, need)
			}
			if err := solve(need - 1); !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%s with a limit one byte below its need %d: %v", name, need, err)
			}
			if need < small {
				if err := solve(need); err != nil {
					t.Fatalf("%s with its need %d as the limit: %v", name, need, err)
				}
			}
		}
		need, err := SoloBytes(r)
		check("solo", need, err, 4<<20, func(limit int64) error {
			_, err := SolveSoloWith(r, SoloOptions{MaxBytes: limit})
			return err
		})
		need, err = DuelBytes(r, 1)
		small := int64(0) // a duel solve is quick only for few scores
		if m := newModel(r); err == nil && int(m.target)*int(m.target)*m.streaks()*m.streaks() <= 1000 {
			small = need + 1
		}
		check("duel", need, err, small, func(limit int64) error {
			_, err := SolveDuel(r, DuelOptions{MaxBytes: limit, Workers: 1})
			return err
		})
	})
}
