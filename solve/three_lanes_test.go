package solve

import (
	"math"
	"math/rand/v2"
	"testing"
)

// threeKernelRow returns a row of lane entries for model m's three-player
// sums: random values, with ties between options in about a quarter of the
// own values (a tie keeps the first option).
func threeKernelRow(m *model, rng *rand.Rand) []float64 {
	row := make([]float64, int(m.maxPts+m.sdn+2)*stride*e3)
	for i := range row {
		row[i] = rng.Float64()
		if i%e3 < lanes3 && rng.IntN(4) == 0 {
			row[i] = 0.5
		}
	}
	return row
}

// TestSum3Lanes: the AVX2 sums of the three-player lanes are those of the
// Go form (sum3Lanes, which fill3Lanes uses without AVX2) to the last bit,
// for every number of dice of three presets, the pruned and the complete
// blocks, on rows with ties.
func TestSum3Lanes(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 here (or -tags purego): only the Go form runs")
	}
	rng := rand.New(rand.NewPCG(3, 29))
	for _, name := range []string{"classic", "pocket-farkel", "farkle-dice"} {
		m := newModel(smallRules(t, name, 10000))
		for try := 0; try < 20; try++ {
			row := threeKernelRow(m, rng)
			for n := 1; n <= m.dice; n++ {
				for _, set := range []struct {
					ls *laneSet
					bs []block
				}{{&m.lanes3Pruned[n], m.blocks[n]}, {&m.lanes3All[n], m.blocks3All[n]}} {
					if len(set.ls.hdr) == 0 {
						continue
					}
					var got, want [lanes3][4]float64
					sum3LanesAVX2(&set.ls.hdr[0], len(set.ls.hdr)/2, &set.ls.prob[0], &set.ls.off[0], &row[0], &got)
					for _, b := range set.bs {
						sum3Lanes(&b, row, &want, 1<<lanes3-1)
					}
					for l := range got {
						for c := range got[l] {
							if math.Float64bits(got[l][c]) != math.Float64bits(want[l][c]) {
								t.Fatalf("%s, %d dice: lane %d component %d: AVX2 %v, Go %v", name, n, l, c, got[l][c], want[l][c])
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkSum3Lanes: one total's sums of six dice for classic's pruned
// options, four lanes.
func BenchmarkSum3Lanes(b *testing.B) {
	m := newModel(smallRules(b, "classic", 10000))
	row := threeKernelRow(m, rand.New(rand.NewPCG(1, 2)))
	ls, bs := &m.lanes3Pruned[6], m.blocks[6]
	b.Run("avx2", func(b *testing.B) {
		if !useAVX2 {
			b.Skip("no AVX2")
		}
		b.ReportAllocs()
		var acc [lanes3][4]float64
		for b.Loop() {
			sum3LanesAVX2(&ls.hdr[0], len(ls.hdr)/2, &ls.prob[0], &ls.off[0], &row[0], &acc)
		}
	})
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		var acc [lanes3][4]float64
		for b.Loop() {
			for i := range bs {
				sum3Lanes(&bs[i], row, &acc, 1<<lanes3-1)
			}
		}
	})
}

// TestBound3Lanes: the three-player lanes' banking bounds for every number
// of dice at once (bound3Lanes, in AVX2 where built) and one number at a
// time in Go (banked3Lanes) are banked3's, lane by lane, on random rows
// whose bank values lie around the bound (both answers come often).
func TestBound3Lanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"classic", "farkle-dice", "pocket-farkel"} {
		m := newModel(smallRules(t, name, 10000))
		rows := int(m.maxPts) + 2
		var skipped, kept int
		for try := range 3000 {
			kmax := make([]float64, rows*lanes3)
			for i := range kmax {
				kmax[i] = rng.Float64()
			}
			var x, bOwn [lanes3]float64
			for l := range lanes3 {
				x[l] = rng.Float64()
				bOwn[l] = 0.3 + 0.6*rng.Float64()
			}
			mask := uint8(rng.IntN(1 << lanes3))
			var got [stride]uint64
			m.bound3Lanes(kmax, &x, &bOwn, mask, &got)
			for n := int32(1); n <= int32(m.dice); n++ {
				var want uint64
				for l := range lanes3 {
					own := make([]float64, rows)
					for tt := range rows {
						own[tt] = kmax[tt*lanes3+l]
					}
					if mask>>l&1 != 0 && m.banked3(own, n, x[l], bOwn[l]) {
						want |= 1 << l
					}
				}
				if got[n] != want {
					t.Fatalf("%s try %d, %d dice: bound3Lanes %04b, banked3 %04b", name, try, n, got[n], want)
				}
				if alone := m.banked3Lanes(kmax, n, &x, &bOwn, mask); uint64(alone) != want {
					t.Fatalf("%s try %d, %d dice: banked3Lanes %04b, banked3 %04b", name, try, n, alone, want)
				}
				for l := range lanes3 {
					if mask>>l&1 != 0 {
						if want>>l&1 != 0 {
							skipped++
						} else {
							kept++
						}
					}
				}
			}
		}
		if skipped < 1000 || kept < 1000 {
			t.Fatalf("%s: %d lanes skipped and %d kept: the rows test too little of one answer", name, skipped, kept)
		}
	}
}

// TestKeepRow3: the three-player lanes' after-keep row in AVX2 (where
// built) is keepRow3Go's to the last bit, on random rows with ties between
// the bank and a throw, lanes that may not bank, skipped throws, both
// kinds of none left, and lanes not live, whose entries and most value
// neither writes.
func TestKeepRow3(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 here (or -tags purego): only the Go form runs")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var banks, throws int
	for try := range 5000 {
		dice := 1 + rng.IntN(6)
		hotJ := -1
		if try%2 == 0 {
			hotJ = dice
		}
		q := make([]float64, stride*e3)
		k := make([]float64, 2*stride*e3)
		for i := range q {
			q[i] = rng.Float64()
		}
		for i := range k {
			k[i] = rng.Float64()
		}
		var x, kmax [lanes3]float64
		bank := make([]float64, 4*lanes3)
		for l := range lanes3 {
			x[l], kmax[l] = rng.Float64(), rng.Float64()
			for c := range 4 {
				bank[c*lanes3+l] = rng.Float64()
			}
			if rng.IntN(3) == 0 { // a tie: the bank's own value is a throw's
				j := 1 + rng.IntN(dice)
				v := q[j*e3+c3(l, 0):]
				bank[l], bank[3*lanes3+l] = v[0], v[3]
			}
		}
		var skips [stride]uint64
		for j := range skips {
			r1, r2 := rng.IntN(1<<lanes3), rng.IntN(1<<lanes3)
			skips[j] = uint64(r1 & r2) // a quarter of the lanes
		}
		ok, live := uint64(rng.IntN(1<<lanes3)), uint64(rng.IntN(1<<lanes3))
		kGo, kAVX := append([]float64(nil), k...), append([]float64(nil), k...)
		maxGo, maxAVX := kmax, kmax
		riseGo := keepRow3Go(q, bank, &x, kGo, &maxGo, &skips, ok, live, hotJ, dice)
		riseAVX := keepRow3AVX2(&q[0], &bank[0], &x[0], &kAVX[0], &kAVX[stride*e3], &maxAVX[0], &skips[0], ok, live, hotJ, dice)
		if riseGo != riseAVX {
			t.Fatalf("try %d: rise %04b in AVX2, %04b in Go", try, riseAVX, riseGo)
		}
		for i := range k {
			if math.Float64bits(kGo[i]) != math.Float64bits(kAVX[i]) {
				t.Fatalf("try %d (dice %d, hot %d, ok %04b, live %04b): k[%d] = %v in AVX2, %v in Go (was %v)", try, dice, hotJ, ok, live, i, kAVX[i], kGo[i], k[i])
			}
		}
		if maxGo != maxAVX {
			t.Fatalf("try %d: kmax %v in AVX2, %v in Go", try, maxAVX, maxGo)
		}
		for l := range lanes3 {
			if live>>l&1 == 0 {
				if maxGo[l] != kmax[l] || kGo[l] != k[l] {
					t.Fatalf("try %d: lane %d not live but written", try, l)
				}
				continue
			}
			for left := range dice {
				if kGo[left*e3+c3(l, 0)] == bank[l] {
					banks++
				} else {
					throws++
				}
			}
		}
	}
	if banks < 1000 || throws < 1000 {
		t.Fatalf("%d banks and %d throws chosen: the rows test too little of one", banks, throws)
	}
}

// BenchmarkKeepRow3: one total's after-keep row of four live lanes, six
// dice, hot dice, in Go and in AVX2.
func BenchmarkKeepRow3(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([]float64, stride*e3)
	k := make([]float64, 2*stride*e3)
	bank := make([]float64, 4*lanes3)
	for _, s := range [][]float64{q, k, bank} {
		for i := range s {
			s[i] = rng.Float64()
		}
	}
	var x, kmax [lanes3]float64
	var skips [stride]uint64
	for i := range x {
		x[i] = rng.Float64()
	}
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			keepRow3Go(q, bank, &x, k, &kmax, &skips, 0b1111, 0b1111, 6, 6)
		}
	})
	b.Run("avx2", func(b *testing.B) {
		if !useAVX2 {
			b.Skip("no AVX2")
		}
		for b.Loop() {
			keepRow3AVX2(&q[0], &bank[0], &x[0], &k[0], &k[stride*e3], &kmax[0], &skips[0], 0b1111, 0b1111, 6, 6)
		}
	})
}
