package solve

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// TestSoloByHand checks one-die rules whose optimum is derived by hand.
func TestSoloByHand(t *testing.T) {
	// Only a 1 scores (100), hot dice on: after a 1 at total t, throwing again
	// is worth (t+100)/6 < t, so bank at once: E = 100/6; bank_at[1] = 100
	// (at 0, throwing is worth 100/6 > 0).
	one := tinyRules(t, 1000, rules.EndFinalRound)
	// 1 = 100 and 5 = 50: throwing at t is worth (2t+150)/6 <= t from t >= 37.5:
	// E = 150/6 = 25, bank_at[1] = 50.
	five := one.Clone()
	five.Scoring.Single = map[string]int{"1": 100, "5": 50}
	// Without hot dice the single die must be banked: the same E = 25.
	cold := five.Clone()
	cold.Turn.HotDice = false
	// A bank minimum of 150 with 1 = 100 and hot dice: at 100 one must throw:
	// worth (200)/6; at 0: 1/6 * V(100) = 1/6 * 200/6 = 200/36.
	bm := one.Clone()
	bm.Turn.BankMinimum = 150
	// An entry minimum of 200 with 1 = 100: on the board E = 100/6. Off the
	// board (relative value h): at 100 throw on: 1/6 (200) + 5/6 h; the
	// turn from 0: 1/6 (1/6*200 + 5/6 h) + 5/6 h = h + E. So
	// h (1 - 5/36 - 5/6) = 200/36 - 100/6  =>  h = (200/36-600/36)/(1/36) = -400.
	entry := one.Clone()
	entry.Turn.EntryMinimum = 200
	for _, tc := range []struct {
		name     string
		r        rules.Rules
		expected float64
		bankAt   int
		entry    float64 // EntryCost
	}{
		{"single 1 only", one, 100.0 / 6, 100, 0},
		{"1 and 5", five, 25, 50, 0},
		{"no hot dice", cold, 25, 50, 0},
		{"bank minimum", bm, 200.0 / 36, 200, 0},
		{"entry minimum", entry, 100.0 / 6, 100, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := SolveSolo(tc.r)
			if err != nil {
				t.Fatal(err)
			}
			if !near(p.ExpectedTurn(), tc.expected, 1e-9) {
				t.Errorf("expected turn %.12f, want %.12f", p.ExpectedTurn(), tc.expected)
			}
			v, ok, err := p.BankAt(1)
			if err != nil || !ok || v != tc.bankAt {
				t.Errorf("bank_at[1] = %d, %v, %v; want %d", v, ok, err, tc.bankAt)
			}
			if !near(p.EntryCost(), tc.entry, 1e-9) {
				t.Errorf("entry cost %.12f, want %.12f", p.EntryCost(), tc.entry)
			}
		})
	}
}

// TestSoloPenaltyByHand: one die, 1 = 100, every farkle costs 100
// (count 1). Banking at once is still optimal; per turn: 100/6 - 5/6*100.
func TestSoloPenaltyByHand(t *testing.T) {
	r := tinyRules(t, 1000, rules.EndFinalRound)
	r.Turn.FarklePenalty = rules.Penalty{Count: 1, Points: 100}
	p, err := SolveSolo(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := 100.0/6 - 500.0/6; !near(p.ExpectedTurn(), want, 1e-9) {
		t.Errorf("expected turn %.12f, want %.12f", p.ExpectedTurn(), want)
	}
	// Two farkles in a row cost 600: streak values h0 = 0, h1, lambda with
	// h0 + l = 1/6*100 + 5/6*h1, h1 + l = 1/6*100 + 5/6*(h0 - 600).
	// => l = 100/6 + 5/6 h1 and h1 = 100/6 - 500 - l = -500 - 5/6 h1
	// => h1 = -500*6/11, l = 100/6 - 2500/11.
	r.Turn.FarklePenalty = rules.Penalty{Count: 2, Points: 600}
	p, err = SolveSolo(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := 100.0/6 - 2500.0/11; !near(p.ExpectedTurn(), want, 1e-9) {
		t.Errorf("count 2: expected turn %.12f, want %.12f", p.ExpectedTurn(), want)
	}
}

// TestSoloPresets checks the presets solve, with known anchors: classic
// without its penalty averages 446.5714 points a turn (a pinned figure), and a penalty never
// raises the average.
func TestSoloPresets(t *testing.T) {
	for _, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			r := rules.MustPreset(name)
			p, err := SolveSolo(r)
			if err != nil {
				t.Fatal(err)
			}
			if p.Residual() > 1e-9 {
				t.Errorf("residual %g", p.Residual())
			}
			e := p.ExpectedTurn()
			if e < 300 || e > 800 {
				t.Errorf("expected turn %.2f out of any plausible range", e)
			}
			for n := 1; n <= 6; n++ {
				prev := math.MaxInt
				for s := 0; s < p.Streaks(); s++ {
					v, ok, err := p.BankAtStreak(s, n)
					if err != nil || !ok {
						t.Fatalf("bank_at_streak[%d][%d]: %v %v", s, n, ok, err)
					}
					if v > prev {
						t.Errorf("bank at %d with %d farkles behind is above the threshold with fewer (%d)", v, s, prev)
					}
					prev = v
				}
			}
			r.Turn.FarklePenalty = rules.Penalty{}
			q, err := SolveSolo(r)
			if err != nil {
				t.Fatal(err)
			}
			if q.ExpectedTurn() < e-1e-9 {
				t.Errorf("without the penalty %.4f < with it %.4f", q.ExpectedTurn(), e)
			}
			if name == "classic" && !near(q.ExpectedTurn(), 446.5714, 1e-4) {
				t.Errorf("classic without penalty %.6f, want 446.5714", q.ExpectedTurn())
			}
		})
	}
}

// TestSoloPolicyConsistent: Value at the start of a turn is the average
// (plus the turn's own relative value), Options pick a keep of the best value
// and bank_at agrees with Choice.
func TestSoloPolicyConsistent(t *testing.T) {
	p, err := SolveSolo(rules.MustPreset("farkle-dice"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.Value(SoloPosition{Dice: 6})
	if err != nil {
		t.Fatal(err)
	}
	if !near(v, p.ExpectedTurn(), 1e-6) {
		t.Errorf("value of a turn from streak 0 %.9f, want the average %.9f", v, p.ExpectedTurn())
	}
	for n := 1; n <= 6; n++ {
		at, _, _ := p.BankAt(n)
		for _, tot := range []int{at - 50, at, at + 50, at + 1000} {
			if tot <= 0 {
				continue
			}
			c, err := p.Choice(SoloPosition{Total: tot, Dice: n % 6})
			if err != nil {
				t.Fatal(err)
			}
			if want := tot >= at; c.BankBest != want {
				t.Errorf("%d dice at %d: bank best %v, bank_at %d (bank %.3f throw %.3f)", n, tot, c.BankBest, at, c.Bank, c.Throw)
			}
		}
	}
	ks, _, err := p.Options(SoloPosition{Total: 300, Dice: 6}, dice.Of(1, 1, 1, 5, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	best := 0
	for i, k := range ks {
		if k.Value > ks[best].Value {
			best = i
		}
	}
	if !ks[best].Best {
		t.Errorf("the keep marked best is not the one of the highest value")
	}
}

func TestSoloBadPositions(t *testing.T) {
	p, err := SolveSolo(rules.MustPreset("classic"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pos := range []SoloPosition{
		{Total: -50, Dice: 6},
		{Total: 30, Dice: 6},
		{Total: 100, Dice: 7},
		{Total: 100, Dice: 0},
		{Total: 100, Dice: 3, Streak: 3},
		{Total: 100, Dice: 3, Streak: -1},
	} {
		if _, err := p.Value(pos); !errors.Is(err, ErrPosition) {
			t.Errorf("Value(%+v) = %v, want ErrPosition", pos, err)
		}
	}
	if _, _, err := p.Options(SoloPosition{Dice: 5}, dice.Of(1, 2)); !errors.Is(err, ErrPosition) {
		t.Errorf("a throw of 2 dice with 5 to throw: %v", err)
	}
	if _, _, err := p.BankAt(7); !errors.Is(err, ErrPosition) {
		t.Errorf("BankAt(7): %v", err)
	}
	r := rules.MustPreset("classic")
	r.Scoring.Single = map[string]int{"1": 100, "2": 100, "3": 100, "4": 100, "5": 100, "6": 100}
	if _, err := SolveSolo(r); !errors.Is(err, ErrRules) {
		t.Errorf("rules where every die scores: %v, want ErrRules", err)
	}
}

// simulateSolo plays turns with the policy's own decisions and returns the
// mean points per turn and a 95% interval half-width (batch means, so that
// the streak's dependence between turns is covered).
func simulateSolo(t *testing.T, p *Policy, turns int, seed uint64) (mean, half float64) {
	t.Helper()
	r := p.Rules()
	rng := rand.New(rand.NewPCG(seed, 1))
	const batches = 50
	per := turns / batches
	var sums [batches]float64
	streak := 0
	faces := make([]int, 0, 6)
	for i := 0; i < per*batches; i++ {
		total, n, pts := 0, r.Dice, 0
		for {
			faces = faces[:0]
			for range n {
				faces = append(faces, 1+rng.IntN(6))
			}
			throw, _ := dice.FromFaces(faces)
			keeps, _, err := p.Options(SoloPosition{Total: total, Dice: n, Streak: streak}, throw)
			if err != nil {
				t.Fatal(err)
			}
			if len(keeps) == 0 {
				if n == 6 && r.Scoring.SixDiceNothing > 0 {
					total += r.Scoring.SixDiceNothing
					continue
				}
				if c := r.Turn.FarklePenalty.Count; c > 0 {
					streak++
				}
				if c := r.Turn.FarklePenalty.Count; c > 0 && streak >= c {
					pts = -r.Turn.FarklePenalty.Points
					streak = 0
				}
				break
			}
			var k KeepValue
			for _, kv := range keeps {
				if kv.Best {
					k = kv
				}
			}
			total += int(k.Keep.Points)
			n -= int(k.Keep.N)
			if k.Choice.BankBest {
				pts, streak = total, 0
				break
			}
			if n == 0 {
				n = r.Dice
			}
		}
		sums[i/per] += float64(pts)
	}
	var s, s2 float64
	for _, b := range sums {
		m := b / float64(per)
		s += m
		s2 += m * m
	}
	mean = s / batches
	sd := math.Sqrt((s2/batches - mean*mean) * batches / (batches - 1))
	return mean, 2.01 * sd / math.Sqrt(batches) // t(49) 97.5% = 2.01
}

// TestSoloSimulation plays the policy and checks its expected points per
// turn lie within the simulation's 95% interval (fixed seeds).
func TestSoloSimulation(t *testing.T) {
	turns := 400000
	if testing.Short() {
		turns = 100000
	}
	for _, name := range []string{"cardgames", "classic"} {
		t.Run(name, func(t *testing.T) {
			p, err := SolveSolo(rules.MustPreset(name))
			if err != nil {
				t.Fatal(err)
			}
			mean, half := simulateSolo(t, p, turns, 42)
			t.Logf("%s: solver %.3f, simulation %.3f ± %.3f over %d turns", name, p.ExpectedTurn(), mean, half, turns)
			if math.Abs(mean-p.ExpectedTurn()) > half {
				t.Errorf("solver %.3f outside the simulation's 95%% interval %.3f ± %.3f", p.ExpectedTurn(), mean, half)
			}
		})
	}
}
