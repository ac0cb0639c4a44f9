package solve

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/rules"
)

// laneWindow returns lane-interleaved K and D windows for the blocks of m
// with random values in [0, 1] (ties on purpose: a quarter of the values
// repeat another), and the same values lane by lane as plain windows.
func laneWindow(rng *rand.Rand, reach int) (k, d []float64, plainK, plainD [lanes]*[winArr]float64) {
	k = make([]float64, reach)
	d = make([]float64, reach)
	for i := range k {
		k[i] = rng.Float64()
		if rng.IntN(4) == 0 && i >= lanes {
			k[i] = k[rng.IntN(i)]
		}
		d[i] = rng.Float64()
	}
	for l := range lanes {
		plainK[l], plainD[l] = new([winArr]float64), new([winArr]float64)
		for i := l; i < reach; i += lanes {
			plainK[l][i/lanes] = k[i]
			plainD[l][i/lanes] = d[i]
		}
	}
	return k, d, plainK, plainD
}

// TestLaneSums checks the lane sums, in Go and (where built) in AVX2,
// against the plain block sums of one turn lane by lane, to the last bit:
// for every preset's pruned and full option blocks and every number of
// dice, on random values with ties.
func TestLaneSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	impls := []bool{false}
	if useAVX2 {
		impls = append(impls, true)
	}
	defer func(v bool) { useAVX2 = v }(useAVX2)
	for _, name := range rules.Presets() {
		m := newModel(rules.MustPreset(name))
		for _, all := range []bool{false, true} {
			src := m.blocks
			if all {
				src = m.blocksAll
			}
			for n := 1; n <= m.dice; n++ {
				lb, reach := laneBlocks(src[n])
				if reach > winArr*lanes {
					t.Fatalf("%s: reach %d", name, reach)
				}
				k, d, pk, pd := laneWindow(rng, winArr*lanes)
				for _, avx := range impls {
					useAVX2 = avx
					var acc, acc2, accD2 [lanes]float64
					sumLanes(lb, k, &acc)
					sumLanesD(lb, k, d, &acc2, &accD2)
					for l := range lanes {
						want := blockSumArr(src[n], pk[l])
						v, dv := blockSumFArr(src[n], pk[l], pd[l])
						if math.Float64bits(acc[l]) != math.Float64bits(want) {
							t.Fatalf("%s all=%v n=%d avx=%v lane %d: sum %v, want %v", name, all, n, avx, l, acc[l], want)
						}
						if math.Float64bits(acc2[l]) != math.Float64bits(v) || math.Float64bits(accD2[l]) != math.Float64bits(dv) {
							t.Fatalf("%s all=%v n=%d avx=%v lane %d: derivative sum %v %v, want %v %v", name, all, n, avx, l, acc2[l], accD2[l], v, dv)
						}
					}
				}
			}
		}
	}
}

func BenchmarkLaneSums(b *testing.B) {
	m := newModel(rules.MustPreset("classic"))
	rng := rand.New(rand.NewPCG(1, 2))
	lb, _ := laneBlocks(m.blocks[6])
	k, _, pk, _ := laneWindow(rng, winArr*lanes)
	b.Run("plain-x4", func(b *testing.B) {
		s := 0.0
		for b.Loop() {
			for l := range lanes {
				s += blockSumArr(m.blocks[6], pk[l])
			}
		}
	})
	for _, avx := range []bool{false, true} {
		if avx && !useAVX2 {
			continue
		}
		b.Run(map[bool]string{false: "lanes-go", true: "lanes-avx2"}[avx], func(b *testing.B) {
			defer func(v bool) { useAVX2 = v }(useAVX2)
			useAVX2 = avx
			var acc [lanes]float64
			for b.Loop() {
				sumLanes(lb, k, &acc)
			}
		})
	}
}
