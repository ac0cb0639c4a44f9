package solve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/rules/rulestest"
)

// refDuel solves the two-player game of r the plain way, as a reference for
// SolveDuel: every state is re-solved in turn (scores by decreasing sum)
// until a whole pass changes no value by more than 1e-14, and each turn is
// one dynamic programme over every total with every keep of every throw
// (the model's groups, not pruned), no bound skipping a throw, no
// derivatives, no linear solve of a pair's cycle, no guesses. Only the
// model (checked against the engine in TestModelAgreesWithTheEngine) and the
// last turn of a final round (newFinalRound) are shared with the solver.
//
// Above the target a bank is worth 1 - fr(lead); from the lead where every
// fr beyond is below 1e-12 a bank is taken as a sure win (an error below
// 1e-12, well within the 1e-9 the comparisons allow). There a throw of six
// dice forced by six_dice_nothing is worth what it is (a farkle loses the
// turn, a nothing throws six again), not the bank value.
//
// It returns the table (Table.idx layout) and false if the passes did not
// settle within maxPasses.
func refDuel(r rules.Rules, maxPasses int) ([]float64, bool) {
	m := newModel(r)
	fr := m.newFinalRound()
	A, c, D := m.target, int32(m.streaks()), int32(m.dice)
	idx := func(a, b, sa, sb int32) int32 { return ((a*A+b)*c+sa)*c + sb }
	w := make([]float64, A*A*c*c)
	for i := range w {
		w[i] = 0.5
	}
	// sure is the lead from which a bank above the target is taken as won.
	sure := int32(len(fr.sup))
	for sure > 0 && fr.sup[sure-1] < 1e-12 {
		sure--
	}
	farkled := func(a, b, sa, sb int32) int32 {
		if m.penCount == 0 {
			return idx(b, a, sb, 0)
		}
		sa++
		if int(sa) == m.penCount {
			a -= min(a, m.penPts)
			sa = 0
		}
		return idx(b, a, sb, sa)
	}
	var kArr, qArr []float64
	turn := func(a, b, sb int32, F, Z float64) float64 {
		mEff := max(m.bankMin, 1)
		if a == 0 {
			mEff = max(mEff, m.entryMin)
		}
		rows := max(A-a, mEff) // from here on a bank wins (immediate)
		if !m.immediate {
			rows = max(rows, b-a+sure)
		}
		bank := func(tt int32) float64 {
			switch {
			case tt < mEff:
				return math.Inf(-1)
			case a+tt < A:
				return 1 - w[idx(b, a+tt, sb, 0)]
			case m.immediate || a+tt-b >= sure:
				return 1
			}
			return 1 - fr.at(a+tt-b)
		}
		// the forced six-dice throw where every bank wins: a farkle gives F,
		// a nothing the same throw again, any keep a bank that wins
		pf6, nothing := m.farkle[6], m.nothing
		q6Sure := 0.0
		if D == 6 && m.sdn > 0 {
			q6Sure = (1 - pf6 - nothing + pf6*F) / (1 - nothing)
		}
		need := int(rows+m.maxPts+m.sdn+1) * 8
		if len(kArr) < need {
			kArr, qArr = make([]float64, need), make([]float64, need)
		}
		K := func(tt, left int32) float64 {
			if tt >= rows {
				return 1
			}
			return kArr[tt*8+left]
		}
		Q := func(tt, n int32) float64 {
			if tt >= rows {
				return q6Sure // only six dice are read here
			}
			return qArr[tt*8+n]
		}
		for tt := rows - 1; tt >= 0; tt-- {
			for n := int32(1); n <= D; n++ {
				v := m.farkle[n] * F
				for _, g := range m.groups[n] {
					best := math.Inf(-1)
					for _, o := range g.opts {
						best = max(best, K(tt+o.pts, o.left))
					}
					v += g.prob * best
				}
				if n == 6 && m.sdn > 0 {
					v += nothing * Q(tt+m.sdn, 6)
				}
				qArr[tt*8+n] = v
			}
			bk := bank(tt)
			for left := int32(0); left < D; left++ {
				v := bk
				switch {
				case left > 0:
					v = max(v, qArr[tt*8+left])
				case m.hot:
					v = max(v, qArr[tt*8+D])
				}
				if math.IsInf(v, -1) {
					v = Z // no bank and no throw: the turn ends scoring nothing
				}
				kArr[tt*8+left] = v
			}
		}
		return qArr[D]
	}
	for pass := 0; pass < maxPasses; pass++ {
		change := 0.0
		for s := 2 * (A - 1); s >= 0; s-- {
			for a := max(0, s-(A-1)); a <= min(s, A-1); a++ {
				b := s - a
				for ss := 2 * (c - 1); ss >= 0; ss-- {
					for sa := max(0, ss-(c-1)); sa <= min(ss, c-1); sa++ {
						sb := ss - sa
						F := 1 - w[farkled(a, b, sa, sb)]
						Z := 1 - w[idx(b, a, sb, sa)]
						i := idx(a, b, sa, sb)
						v := turn(a, b, sb, F, Z)
						change = max(change, math.Abs(v-w[i]))
						w[i] = v
					}
				}
			}
		}
		if change < 1e-14 {
			return w, true
		}
	}
	return w, false
}

// refWork is a rough count of the inner steps of one pass of refDuel.
func refWork(r rules.Rules) float64 {
	m := newModel(r)
	opts := 0
	for n := 1; n <= m.dice; n++ {
		for _, g := range m.groups[n] {
			opts += len(g.opts)
		}
	}
	A, c := float64(m.target), float64(m.streaks())
	rows := A + float64(len(m.newFinalRound().fr))
	return A * A * c * c * rows * float64(opts)
}

// TestDuelAgainstReference compares SolveDuel, value by value, with the
// plain solver refDuel on presets at small targets and on random rule sets
// (rulestest.Random): the solver's pruning, bound skipping, cycle solves,
// guesses and sweeps must give the same table within 1e-9. The two slowest
// (farkle-dice, six dice nothing with the final round) run with -long only
// (internal/testflags).
func TestDuelAgainstReference(t *testing.T) {
	type tc struct {
		name string
		r    rules.Rules
	}
	var cases []tc
	// small targets: with the final round, each turn runs some 300 units
	// above the target (until the other's last turn is hopeless)
	for _, p := range rules.Presets() {
		r := rules.MustPreset(p)
		r.Game.Target = 300
		r.Turn.EntryMinimum = min(r.Turn.EntryMinimum, 250)
		if r.Game.Ending == rules.EndImmediate {
			r.Game.Target = 600
		}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{p, r})
	}
	// six dice nothing, with each ending
	for _, ending := range []string{rules.EndImmediate, rules.EndFinalRound} {
		r := smallRules(t, "classic", map[string]int{rules.EndImmediate: 600, rules.EndFinalRound: 300}[ending])
		r.Name = "sdn-" + ending
		r.Scoring.SixDiceNothing = 500
		r.Game.Ending = ending
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{r.Name, r})
	}
	rng := rand.New(rand.NewPCG(16, 2))
	for tries, random := 0, 0; random < 12 && tries < 2000; tries++ {
		r := rulestest.Random(rng, 800)
		if CheckDuelRules(r) != nil || newModel(r).bounded() != nil || refWork(r) > 1e7 || newModel(r).target < 3 {
			continue
		}
		random++
		m := newModel(r)
		cases = append(cases, tc{fmt.Sprintf("random-%d-dice-target-%d-units-streaks-%d", m.dice, m.target, m.streaks()), r})
	}
	if len(cases) < 10 {
		t.Fatalf("only %d rule sets to compare", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && refWork(c.r) > 2e6 {
				t.Skip("a reference solve of seconds (not with -short)")
			}
			if c.name == "farkle-dice" || c.name == "sdn-final-round" {
				testflags.SkipUnlessLong(t, "a reference solve of a minute or more on two cores")
			}
			want, ok := refDuel(c.r, 3000)
			if !ok {
				t.Skipf("the reference did not settle (%s)", c.r.Name)
			}
			tab, err := SolveDuel(c.r, DuelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			worst, at := 0.0, 0
			for i, v := range tab.w {
				if d := math.Abs(v - want[i]); !(d <= worst) {
					worst, at = d, i
				}
			}
			if !(worst <= 1e-9) {
				t.Errorf("rules %+v\nvalue %d is %v, reference %v (difference %.3g)", c.r, at, tab.w[at], want[at], worst)
			}
		})
	}
}
