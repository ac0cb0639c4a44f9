package solve

import (
	"testing"

	"github.com/farkle/farkle/rules"
)

// benchTable solves a small duel once for the in-turn benchmarks.
func benchTable(b *testing.B, name string, target int) *Table {
	b.Helper()
	r := rules.MustPreset(name)
	r.Game.Target = target
	tab, err := SolveDuel(r, DuelOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return tab
}

// BenchmarkTurnSolve measures one start-of-turn solve (the unit of work of
// the duel solver) at the start of a game of the full classic target, with
// and without derivatives.
func BenchmarkTurnSolve(b *testing.B) {
	for _, name := range []string{"classic", "cardgames"} {
		r := rules.MustPreset(name)
		m := newModel(r)
		tab := &Table{m: m, A: m.target, c: int32(m.streaks())}
		tab.fr = m.newFinalRound()
		tab.pFmin = m.pFmin()
		tab.w = make([]float64, int(tab.A)*int(tab.A)*int(tab.c)*int(tab.c))
		// a plausible table: the leader is favoured
		for a := int32(0); a < tab.A; a++ {
			for b := int32(0); b < tab.A; b++ {
				for s := int32(0); s < tab.c*tab.c; s++ {
					tab.w[(a*tab.A+b)*tab.c*tab.c+s] = 0.5 + float64(a-b)/float64(2*tab.A)
				}
			}
		}
		for _, derivs := range []bool{false, true} {
			b.Run(name+map[bool]string{false: "/plain", true: "/derivs"}[derivs], func(b *testing.B) {
				var arr turnArrays
				b.ReportAllocs()
				for b.Loop() {
					tab.startValue(&arr, 0, 0, 0, 0, 0.5, 0.5, derivs)
				}
			})
		}
	}
}
