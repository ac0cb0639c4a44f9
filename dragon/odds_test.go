package dragon

import (
	"fmt"
	"math"
	"testing"

	"github.com/farkle/farkle/dice"
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
	o := NewBattleOdds(ClassicRules(), 2000)
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

// TestArmyOddsByHand checks the army battle's odds against battles small
// enough to work out by hand: a wave of 1,200 and a fire of 1,000, so that
// 2,400 soldiers buy two throws only if nothing is paid in between.
func TestArmyOddsByHand(t *testing.T) {
	r := DefaultRules()
	r.BattleWave, r.BattleFire = 1200, 1000
	o := NewBattleOdds(r, 5000)
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15f, want %.15f", name, got, want)
		}
	}
	for n := 1; n <= 6; n++ {
		pf := farkleProb(n)
		for _, s := range []int{0, 1199} {
			// Not even one wave: no throw, no chance.
			near(fmt.Sprintf("V(%d,2,%d)", s, n), o.Value(s, 2, n), 0)
		}
		for _, s := range []int{1200, 2350} {
			// One wave: only this throw's event die can win; whatever
			// follows (a keep, the fire, a wounded farkle) leaves less
			// than a wave.
			near(fmt.Sprintf("V(%d,2,%d)", s, n), o.Value(s, 2, n), 1.0/3)
			near(fmt.Sprintf("V(%d,1,%d)", s, n), o.Value(s, 1, n), 1.0/6)
			near(fmt.Sprintf("V(%d,0,%d)", s, n), o.Value(s, 0, n), 0)
		}
		// Two waves, nothing to spare: a second throw comes only after a
		// farkle that wounded the dragon (the fire or a keep would eat
		// into the second wave). Dragon, farkle, then a wound of 1 or 2
		// (1/3); Rally, farkle, then the Dragon (1/6).
		near(fmt.Sprintf("V(2400,0,%d)", n), o.Value(2400, 0, n), pf/6*(1.0/3)+pf/6*(1.0/6))
		near(fmt.Sprintf("V(2400,1,%d)", n), o.Value(2400, 1, n), 1.0/6+pf/6*(1.0/3))
		near(fmt.Sprintf("V(2400,2,%d)", n), o.Value(2400, 2, n), 1.0/3)
	}
	// 2,450 soldiers, two damage, one die: a wound wins (1/3); on a Blank
	// a 5 costs 50 and leaves exactly a wave for six dice (1/3 again); a 1
	// costs 100 and a farkle the fire, both leaving less than a wave.
	near("V(2450,2,1)", o.Value(2450, 2, 1), 1.0/3+4.0/6*1.0/6*1.0/3)
	// Without the fire a farkle on a Blank leaves a wave too.
	r.BattleFire = 0
	o = NewBattleOdds(r, 5000)
	for n := 1; n <= 6; n++ {
		near(fmt.Sprintf("no fire: V(2400,2,%d)", n), o.Value(2400, 2, n), 1.0/3+4.0/6*farkleProb(n)*1.0/3)
	}
}

func TestBattleOddsMonotone(t *testing.T) {
	for _, r := range []Rules{ClassicRules(), DefaultRules()} {
		o := NewBattleOdds(r, 6000)
		for d := 0; d < 3; d++ {
			for n := 1; n <= 6; n++ {
				prev := -1.0
				for s := 0; s <= 6000; s += 50 {
					v := o.Value(s, d, n)
					if v < prev-1e-12 || v < 0 || v > 1 {
						t.Fatalf("%s: V(%d,%d,%d) = %v after %v", r.Battle, s, d, n, v, prev)
					}
					prev = v
				}
			}
		}
	}
	rows := OddsTable(ClassicRules())
	if len(rows) != 30 || rows[0].Soldiers != 500 || rows[29].Soldiers != 15000 {
		t.Fatalf("classic rows %v", rows)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].PWin < rows[i-1].PWin-1e-12 {
			t.Fatalf("P(win) falls from %v to %v", rows[i-1], rows[i])
		}
	}
}

// TestArmyOddsCurve: with the army battle the odds rise with every step of
// the table (no two rows alike), a battle at the minimum wins about a
// quarter of the time and one with 12,000 soldiers more than two in three,
// and a failed battle costs a real part of the army.
func TestArmyOddsCurve(t *testing.T) {
	r := DefaultRules()
	rows := OddsTable(r)
	if len(rows) != 31 || rows[0].Soldiers != r.BattleMinimum || rows[len(rows)-1].Soldiers != 20000 {
		t.Fatalf("rows from %d to %d (%d rows)", rows[0].Soldiers, rows[len(rows)-1].Soldiers, len(rows))
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].PWin < rows[i-1].PWin+0.002 {
			t.Errorf("P(win) %.4f at %d, %.4f at %d: not rising", rows[i-1].PWin, rows[i-1].Soldiers, rows[i].PWin, rows[i].Soldiers)
		}
		if rows[i].ExpectedLoss <= rows[i-1].ExpectedLoss {
			t.Errorf("expected loss %.0f at %d, %.0f at %d", rows[i-1].ExpectedLoss, rows[i-1].Soldiers, rows[i].ExpectedLoss, rows[i].Soldiers)
		}
	}
	at := func(s int) OddsRow {
		for _, row := range rows {
			if row.Soldiers == s {
				return row
			}
		}
		t.Fatalf("no row for %d", s)
		return OddsRow{}
	}
	if p := at(5000).PWin; p < 0.2 || p > 0.3 {
		t.Errorf("P(win) with 5000 = %.4f, want about a quarter", p)
	}
	if p := at(12000).PWin; p <= 2.0/3 {
		t.Errorf("P(win) with 12000 = %.4f, want more than 2/3", p)
	}
	// A lost battle fought to the end costs at least the waves of the
	// throws it took: the expected loss given a loss is most of the army.
	o := NewBattleOdds(r, 20000)
	for _, s := range []int{5000, 8000, 12000} {
		if l := o.ExpectedLoss(s); l < 0.5*float64(s) {
			t.Errorf("a battle with %d soldiers costs %.0f on average", s, l)
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
	src := dice.NewSource(dice.SeedFrom("2015"))
	n := 50000
	if testing.Short() {
		n = 10000
	}
	for _, c := range []struct {
		rules    Rules
		soldiers int
	}{{ClassicRules(), 5000}, {ClassicRules(), 1000}, {DefaultRules(), 5000}, {DefaultRules(), 12000}, {DefaultRules(), 3000}} {
		r, soldiers := c.rules, c.soldiers
		r.BattleMinimum = 0
		g := MustGame(r, NoCards())
		o := NewBattleOdds(r, 12000)
		wins, lost, lost2 := 0, 0.0, 0.0
		for range n {
			s := battleReady(soldiers)
			s, _, err := g.Apply(s, Battle(), src)
			for err == nil && !s.Over() && s.Turn == 0 && s.Mode == Battling {
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
		got := float64(wins) / float64(n)
		se := math.Sqrt(p * (1 - p) / float64(n))
		t.Logf("%s, %d soldiers: simulated %.4f, exact %.4f ± %.4f (95%%)", r.Battle, soldiers, got, p, 1.96*se)
		if math.Abs(got-p) > 3.29*se {
			t.Errorf("%s, %d soldiers: simulated P(win) %.4f outside %.4f ± %.4f (99.9%%)", r.Battle, soldiers, got, p, 3.29*se)
		}
		// The mean loss against the expected loss, with the sample's
		// standard error.
		meanLoss := lost / float64(n)
		se = math.Sqrt((lost2/float64(n) - meanLoss*meanLoss) / float64(n))
		want := o.ExpectedLoss(soldiers)
		t.Logf("%s, %d soldiers: mean loss %.1f, expected %.1f ± %.1f (95%%)", r.Battle, soldiers, meanLoss, want, 1.96*se)
		if math.Abs(meanLoss-want) > 3.29*se {
			t.Errorf("%s, %d soldiers: mean loss %.1f outside %.1f ± %.1f (99.9%%)", r.Battle, soldiers, meanLoss, want, 3.29*se)
		}
	}
}
