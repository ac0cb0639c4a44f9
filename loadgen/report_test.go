package loadgen

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Percentile against its definition, counted directly: the smallest value
// with at least p% of the values at or under it.
func TestPercentileIsNearestRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 1 + rng.IntN(60)
		v := make([]time.Duration, n)
		for i := range v {
			v[i] = time.Duration(rng.IntN(20))
		}
		slices.Sort(v)
		p := []float64{1, 50, 90, 99, 100, rng.Float64() * 100}[rng.IntN(6)]
		var want time.Duration = -1
		for _, x := range v {
			under := 0
			for _, y := range v {
				if y <= x {
					under++
				}
			}
			if float64(under)*100 >= p*float64(n) {
				want = x
				break
			}
		}
		if got := Percentile(v, p); got != want {
			t.Fatalf("p%.3f of %v: %v, want %v", p, v, got, want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("the percentile of nothing is not 0")
	}
}
