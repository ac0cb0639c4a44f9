package solve

import (
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/rules"
)

// TestBlockSumArr checks the bounds-check-free sum of the duel solver
// against blockSum on random after-keep values, for the pruned and full
// groups of every preset and number of dice.
func TestBlockSumArr(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range rules.Presets() {
		m := newModel(rules.MustPreset(name))
		window := int(m.maxPts+1) * stride
		if window > winArr {
			t.Fatalf("%s: window %d > winArr %d: blockSumArr would not be used", name, window, winArr)
		}
		t.Run(name, func(t *testing.T) {
			k := make([]float64, winArr)
			for trial := 0; trial < 20; trial++ {
				for i := range k {
					k[i] = rng.Float64()
				}
				for n := 1; n <= m.dice; n++ {
					for _, bs := range [][]block{m.blocks[n], m.blocksAll[n]} {
						want := blockSum(bs, k[:window])
						got := blockSumArr(bs, (*[winArr]float64)(k))
						if got != want {
							t.Fatalf("dice %d: blockSumArr = %v, blockSum = %v", n, got, want)
						}
					}
				}
			}
		})
	}
}
