package dragon

import (
	"math"
	"testing"
)

// farkleProb counts, over all 6^n ordered throws, those where no die can
// score under the soldier table: no 1, no 5, no three of a kind, and with
// six dice no straight and no three pairs (a four of a kind and a pair
// count as three pairs). Written without the dice package.
func farkleProb(n int) float64 {
	total, farkles := 0, 0
	faces := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			total++
			var c [7]int
			for _, f := range faces {
				c[f]++
			}
			if c[1] > 0 || c[5] > 0 {
				return
			}
			pairs := 0
			for f := 1; f <= 6; f++ {
				if c[f] >= 3 {
					return
				}
				pairs += c[f] / 2
			}
			if n == 6 && pairs == 3 {
				return
			}
			farkles++
			return
		}
		for f := 1; f <= 6; f++ {
			faces[i] = f
			rec(i + 1)
		}
	}
	rec(0)
	return float64(farkles) / float64(total)
}

func TestBattleOddsByHand(t *testing.T) {
	o := NewBattleOdds(DefaultRules(), 2000)
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15f, want %.15f", name, got, want)
		}
	}
	// The well-known farkle odds (six dice: only two pairs and two singles
	// of 2, 3, 4, 6 fail: 6 × 6!/(2!2!) = 1080 of 6^6).
	known := []float64{0, 4.0 / 6, 16.0 / 36, 60.0 / 216, 204.0 / 1296, 600.0 / 7776, 1080.0 / 46656}
	for n := 1; n <= 6; n++ {
		near("P(farkle)", farkleProb(n), known[n])
	}
	for n := 1; n <= 6; n++ {
		pf := farkleProb(n)
		// No soldiers, two damage: only the next event die can win (1/3);
		// any scoring throw cannot be paid.
		near("V(0,2,n)", o.Value(0, 2, n), 1.0/3)
		// One damage: the Dragon wins (1/6); a Rally brings two damage and
		// then only a farkle (wounded, so the battle goes on) keeps it alive.
		v1 := 1.0/6 + pf/6/3
		near("V(0,1,n)", o.Value(0, 1, n), v1)
		// No damage: a wound and a farkle, twice.
		near("V(0,0,n)", o.Value(0, 0, n), pf/6*(1.0/3)+pf/6*v1)
	}
	// 50 soldiers, two damage, one die: a wound wins (1/3); on a Blank a
	// 5 can be paid and brings hot dice with no soldiers (1/3 again); a 1
	// costs 100 and loses.
	near("V(50,2,1)", o.Value(50, 2, 1), 1.0/3+4.0/6*1.0/6*1.0/3)
	// 49 soldiers count as none: every cost is a multiple of 50.
	near("V(49,2,1)", o.Value(49, 2, 1), 1.0/3)
}

func TestBattleOddsMonotone(t *testing.T) {
	o := NewBattleOdds(DefaultRules(), 6000)
	for d := 0; d < 3; d++ {
		for n := 1; n <= 6; n++ {
			prev := -1.0
			for s := 0; s <= 6000; s += 50 {
				v := o.Value(s, d, n)
				if v < prev-1e-12 || v < 0 || v > 1 {
					t.Fatalf("V(%d,%d,%d) = %v after %v", s, d, n, v, prev)
				}
				prev = v
			}
		}
	}
	rows := OddsTable(DefaultRules())
	if len(rows) != 30 || rows[0].Soldiers != 500 || rows[29].Soldiers != 15000 {
		t.Fatalf("rows %v", rows)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].PWin < rows[i-1].PWin-1e-12 {
			t.Fatalf("P(win) falls from %v to %v", rows[i-1], rows[i])
		}
	}
}

// TestBattleOddsSimulated plays Final Battles through Game.Apply with the
// odds' own keep policy and compares the win rate and the soldiers lost
// with the exact values. It logs the 95% interval; the assertion uses the
// 99.9% interval (3.29 standard errors), because a correct table falls
// outside the 95% interval for one seed in twenty. (With 200,000 battles
// both points were inside their 95% intervals: 0.5127 against 0.5112 ±
// 0.0022 and 0.4886 against 0.4885 ± 0.0022.)
func TestBattleOddsSimulated(t *testing.T) {
	g := testGame(t, nil)
	o := NewBattleOdds(DefaultRules(), 10000)
	src := NewSource(SeedFrom("2015"))
	const n = 50000
	for _, soldiers := range []int{5000, 1000} {
		r := DefaultRules()
		r.BattleMinimum = 0
		g := g
		if soldiers < 5000 {
			g = MustGame(r, NoCards())
		}
		wins, lost, lost2 := 0, 0.0, 0.0
		for range n {
			s := battleReady(soldiers)
			s, _, err := g.Apply(s, Battle(), src)
			for err == nil && !s.Over() && s.Turn == 0 {
				switch s.Phase {
				case PhaseKeep:
					k, _, ok := o.Choose(s.Players[0].Soldiers, s.Damage, s.Throw)
					if !ok {
						t.Fatalf("no keep for %s with %d soldiers", s.Throw, s.Players[0].Soldiers)
					}
					s, _, err = g.Apply(s, Keep(k), src)
				case PhaseRoll:
					s, _, err = g.Apply(s, Roll(), src)
				default:
					t.Fatalf("phase %s in battle", s.Phase)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Over() {
				wins++
			}
			l := float64(soldiers - s.Players[0].Soldiers)
			lost += l
			lost2 += l * l
		}
		p := o.Win(soldiers)
		got := float64(wins) / n
		se := math.Sqrt(p * (1 - p) / n)
		t.Logf("%d soldiers: simulated %.4f, exact %.4f ± %.4f (95%%)", soldiers, got, p, 1.96*se)
		if math.Abs(got-p) > 3.29*se {
			t.Errorf("%d soldiers: simulated P(win) %.4f outside %.4f ± %.4f (99.9%%)", soldiers, got, p, 3.29*se)
		}
		// The mean loss against the expected loss, with the sample's
		// standard error.
		meanLoss := lost / n
		se = math.Sqrt((lost2/n - meanLoss*meanLoss) / n)
		want := o.ExpectedLoss(soldiers)
		t.Logf("%d soldiers: mean loss %.1f, expected %.1f ± %.1f (95%%)", soldiers, meanLoss, want, 1.96*se)
		if math.Abs(meanLoss-want) > 3.29*se {
			t.Errorf("%d soldiers: mean loss %.1f outside %.1f ± %.1f (99.9%%)", soldiers, meanLoss, want, 3.29*se)
		}
	}
}
