package solve

import (
	"math"
	"testing"
)

// TestBankedSkipSame solves every turn of the duel cases with and without
// the skipping of banked throws (model.banked) and with and without
// derivatives: every after-keep value and derivative must be the same to the
// last bit, the first throw's value too, and the skipping must fire (where
// it did, Q holds the bank value instead of the throw's lesser value).
func TestBankedSkipSame(t *testing.T) {
	for _, name := range caseNames(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tab, _ := caseTable(t, name)
			var with, without turnArrays
			skipped, states := 0, 0
			eachStart(tab, func(a, b, sa, sb int32, F, Z float64) {
				derivs := (a+b+sa+sb)%2 == 0
				for _, arr := range []*turnArrays{&with, &without} {
					tab.setup(arr, a, b, sb, F, derivs)
					arr.skipBanked = arr == &with
					tab.m.fill(arr, F, Z)
				}
				states++
				D := int32(tab.m.dice)
				if with.q[D] != without.q[D] {
					t.Fatalf("(%d,%d,%d,%d): first throw %v with skipping, %v without", a, b, sa, sb, with.q[D], without.q[D])
				}
				same := func(what string, x, y []float64) {
					for i := range x {
						if x[i] != y[i] && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
							t.Fatalf("(%d,%d,%d,%d) %s at total %d, slot %d: %v with skipping, %v without", a, b, sa, sb, what, i/stride, i%stride, x[i], y[i])
						}
					}
				}
				same("K", with.k, without.k)
				if derivs {
					same("dK/dF", with.kF, without.kF)
					same("dK/dZ", with.kZ, without.kZ)
				}
				for i := range with.q {
					if with.q[i] != without.q[i] {
						skipped++
						if !(with.q[i] >= without.q[i]) {
							t.Fatalf("(%d,%d,%d,%d) Q at total %d, slot %d: skipped to %v below its value %v", a, b, sa, sb, i/stride, i%stride, with.q[i], without.q[i])
						}
					}
				}
			})
			t.Logf("%d turns, %d throw values skipped", states, skipped)
			if skipped == 0 {
				t.Errorf("no throw was skipped in %d turns", states)
			}
		})
	}
}
