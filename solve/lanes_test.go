package solve

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/rules/rulestest"
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

// simdKinds returns the lane instructions this CPU runs, Go's first.
func simdKinds() []simd {
	kinds := []simd{simdGo}
	if useAVX2 {
		kinds = append(kinds, simdAVX2)
	}
	if useAVX512 {
		kinds = append(kinds, simdAVX512)
	}
	return kinds
}

// TestLaneSums checks the lane sums, in Go and (where built and the CPU
// runs them) in AVX2 and AVX-512, against the plain block sums of one turn lane by lane, to the last bit:
// for every preset's pruned and full option blocks and every number of
// dice, on random values with ties.
func TestLaneSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	impls := simdKinds()
	for _, name := range rules.Presets() {
		m := newModel(rules.MustPreset(name))
		for _, all := range []bool{false, true} {
			src := m.blocks
			if all {
				src = m.blocksAll
			}
			for n := 1; n <= m.dice; n++ {
				lb, reach := newLaneSet(src[n])
				if reach > winArr*lanes {
					t.Fatalf("%s: reach %d", name, reach)
				}
				k, d, pk, pd := laneWindow(rng, winArr*lanes)
				for _, kind := range impls {
					var acc, acc2, accD2 [lanes]float64
					sumLanes(kind, &lb, k, &acc)
					sumLanesD(kind, &lb, k, d, &acc2, &accD2)
					for l := range lanes {
						want := blockSumArr(src[n], pk[l])
						v, dv := blockSumFArr(src[n], pk[l], pd[l])
						if math.Float64bits(acc[l]) != math.Float64bits(want) {
							t.Fatalf("%s all=%v n=%d %v lane %d: sum %v, want %v", name, all, n, kind, l, acc[l], want)
						}
						if math.Float64bits(acc2[l]) != math.Float64bits(v) || math.Float64bits(accD2[l]) != math.Float64bits(dv) {
							t.Fatalf("%s all=%v n=%d %v lane %d: derivative sum %v %v, want %v %v", name, all, n, kind, l, acc2[l], accD2[l], v, dv)
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
	lb, _ := newLaneSet(m.blocks[6])
	k, _, pk, _ := laneWindow(rng, winArr*lanes)
	b.Run("plain-each-lane", func(b *testing.B) {
		s := 0.0
		for b.Loop() {
			for l := range lanes {
				s += blockSumArr(m.blocks[6], pk[l])
			}
		}
	})
	for _, kind := range simdKinds() {
		b.Run("lanes-"+kind.String(), func(b *testing.B) {
			var acc [lanes]float64
			for b.Loop() {
				sumLanes(kind, &lb, k, &acc)
			}
		})
	}
}

// laneCases are rule sets for the lane solver's comparisons: the presets at
// two targets, with and without their farkle penalty, six dice nothing with
// each ending, a turn that can end scoring nothing (no hot dice and a bank
// minimum), throws that cannot score (no singles), and random rule sets.
func laneCases(t *testing.T) map[string]rules.Rules {
	cases := map[string]rules.Rules{}
	for _, p := range rules.Presets() {
		for _, target := range []int{1000, 1500} {
			r := rules.MustPreset(p)
			r.Game.Target = target
			r.Turn.EntryMinimum = min(r.Turn.EntryMinimum, 500)
			cases[fmt.Sprintf("%s-%d", p, target)] = r
			r.Turn.FarklePenalty = rules.Penalty{}
			cases[fmt.Sprintf("%s-%d-no-penalty", p, target)] = r
		}
	}
	for _, ending := range []string{rules.EndImmediate, rules.EndFinalRound} {
		r := smallRules(t, "classic", 1000)
		r.Scoring.SixDiceNothing = 500
		r.Game.Ending = ending
		cases["sdn-"+ending] = r
	}
	r := smallRules(t, "classic", 1000)
	r.Turn.HotDice = false
	r.Turn.BankMinimum = 300
	cases["nothing"] = r
	// No single die scores: a throw of one or two dice always farkles
	// (the banking bound of a throw without a scoring keep).
	for _, pen := range []bool{true, false} {
		r := smallRules(t, "classic", 1000)
		r.Scoring.Single = map[string]int{}
		name := "no-singles"
		if !pen {
			r.Turn.FarklePenalty = rules.Penalty{}
			name += "-no-penalty"
		}
		cases[name] = r
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for tries, random := 0, 0; random < 12 && tries < 2000; tries++ {
		r := rulestest.Random(rng, 1500)
		if CheckDuelRules(r) != nil || newModel(r).bounded() != nil || newModel(r).target < 3 {
			continue
		}
		if m := newModel(r); m.penCount == 1 && m.farkle[m.dice] > 0.3 {
			continue // a penalty at every farkle of a throw that often farkles: hundreds of sweeps
		}
		if need, err := DuelBytes(r, 2); err != nil || need > 64<<20 {
			continue
		}
		random++
		cases[fmt.Sprintf("random-%d", random)] = r
	}
	for name, r := range cases {
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return cases
}

// TestLanesSameAsAlone solves each rule set of laneCases with the pairs of
// a sum side by side (with each kind of lane instructions the CPU runs)
// and with every pair alone: the tables must be the same to the last bit,
// as must the sweeps. The presets at their larger target and the random
// rule sets of more than 40 units run with -long only (internal/testflags):
// minutes on two cores.
func TestLanesSameAsAlone(t *testing.T) {
	kinds := simdKinds()
	for name, r := range laneCases(t) {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && newModel(r).target > 40 {
				t.Skip("a larger table (not with -short)")
			}
			if strings.Contains(name, "-1500") || newModel(r).target > 40 {
				testflags.SkipUnlessLong(t, "a larger table")
			}
			t.Parallel()
			solve := func(lanes bool, kind simd) *Table {
				// one worker with the Go sums, three with the others:
				// the overlapped sums must not depend on who runs what
				workers := 1
				if kind != simdGo {
					workers = 3
				}
				tab, err := SolveDuel(r, DuelOptions{Workers: workers, test: duelTest{alone: !lanes, sums: kind}})
				if err != nil {
					t.Fatalf("side by side %v, %v: %v", lanes, kind, err)
				}
				return tab
			}
			alone, err := SolveDuel(r, DuelOptions{test: duelTest{alone: true, sums: simdGo}})
			if errors.Is(err, ErrNoConvergence) {
				// some random rules (a penalty at every farkle of a throw
				// that mostly farkles) need more sweeps than the solver runs
				t.Skipf("the solver gives up on these rules: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range kinds {
				side := solve(true, a)
				if side.sweeps != alone.sweeps {
					t.Errorf("%v: %d sweeps side by side, %d alone", a, side.sweeps, alone.sweeps)
				}
				for i := range alone.w {
					if math.Float64bits(side.w[i]) != math.Float64bits(alone.w[i]) {
						t.Fatalf("%v: value %d is %v side by side, %v alone", a, i, side.w[i], alone.w[i])
					}
				}
			}
		})
	}
}

// TestKeepRow checks keepRow in each kind this CPU runs against keepRowGo and
// against the rule it stands for, on random rows with ties, banks not
// allowed (-Inf) and both kinds of none left (hot dice or not).
func TestKeepRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for try := range 2000 {
		dice := 1 + rng.IntN(6)
		hotJ := -1
		if try%2 == 0 {
			hotJ = dice
		}
		q := make([]float64, stride*lanes)
		knext := make([]float64, stride*lanes)
		for i := range q {
			q[i], knext[i] = rng.Float64(), rng.Float64()
		}
		var bank, z [lanes]float64
		for l := range lanes {
			bank[l], z[l] = rng.Float64(), rng.Float64()
			switch rng.IntN(4) {
			case 0:
				bank[l] = negInf
			case 1:
				bank[l] = q[(1+rng.IntN(dice))*lanes+l] // a tie
			}
		}
		var want uint64
		wantK := make([]float64, stride*lanes)
		var wantMax [lanes]float64
		for l := range lanes {
			wantMax[l] = negInf
			for left := range dice {
				v := bank[l]
				j := left
				if left == 0 {
					j = hotJ
				}
				if j > 0 && q[j*lanes+l] > v {
					v = q[j*lanes+l]
				}
				if v == negInf {
					v = z[l]
				}
				wantK[left*lanes+l] = v
				wantMax[l] = math.Max(wantMax[l], v)
				if v > knext[left*lanes+l] {
					want |= 1 << l
				}
			}
		}
		for _, a := range simdKinds() {
			k := make([]float64, stride*lanes)
			var km [lanes]float64
			got := keepRow(a, q, k, knext, &bank, &z, &km, hotJ, dice)
			if got != want || km != wantMax {
				t.Fatalf("try %d %v: mask %b max %v, want %b %v", try, a, got, km, want, wantMax)
			}
			for i := range dice * lanes {
				if math.Float64bits(k[i]) != math.Float64bits(wantK[i]) {
					t.Fatalf("try %d %v: k[%d] = %v, want %v", try, a, i, k[i], wantK[i])
				}
			}
		}
	}
}

// TestBoundLanes checks boundAll in each kind this CPU runs against its Go form
// and against model.banked on one turn, lane by lane and for every number
// of dice at once.
func TestBoundLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"classic", "farkle-dice"} {
		m := newModel(rules.MustPreset(name))
		D := m.dice
		for try := range 3000 {
			rows := int32(m.maxPts) + 2
			kmax := make([]float64, int(rows)*lanes)
			for i := range kmax {
				kmax[i] = rng.Float64()
			}
			var qnext [stride * lanes]float64
			var bnext, bank, f [lanes]float64
			for l := range lanes {
				bnext[l], f[l] = rng.Float64(), rng.Float64()
				for n := 1; n <= D; n++ {
					qnext[n*lanes+l] = bnext[l]
					if rng.IntN(4) == 0 {
						qnext[n*lanes+l] = rng.Float64()
					}
				}
				bank[l] = 0.5 + rng.Float64()
				switch rng.IntN(5) {
				case 0:
					bank[l] = negInf
				case 1:
					bank[l] = rng.Float64()
				}
			}
			var cand, want [7]uint64
			for n := 1; n <= D; n++ {
				cand[n] = rng.Uint64() & (1<<lanes - 1)
				for l := range lanes {
					arr := &turnArrays{bank: make([]float64, rows), kmax: make([]float64, rows)}
					arr.bank[0] = bank[l]
					for tt := range rows {
						arr.kmax[tt] = kmax[int(tt)*lanes+l]
					}
					if cand[n]>>l&1 != 0 && qnext[n*lanes+l] == bnext[l] && m.banked(arr, 0, int32(n), f[l]) {
						want[n] |= 1 << l
					}
				}
			}
			for _, a := range simdKinds() {
				var got [7]uint64
				boundAll(a, &m.bounds, D, kmax, &qnext, &bnext, &bank, &f, &cand, &got)
				if got != want {
					t.Fatalf("%s try %d %v: %b, want %b", name, try, a, got, want)
				}
			}
		}
	}
}
