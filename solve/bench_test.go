package solve

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// syntheticTable returns a full-size table of the preset with plausible
// values (the leader is favoured) without solving it: for benchmarks of the
// parts that only read a table.
func syntheticTable(b *testing.B, name string) *Table {
	b.Helper()
	r := rules.MustPreset(name)
	m := newModel(r)
	tab := &Table{m: m, A: m.target, c: int32(m.streaks())}
	tab.fr = m.newFinalRound()
	tab.pFmin = m.pFmin()
	tab.w = make([]float64, int(tab.A)*int(tab.A)*int(tab.c)*int(tab.c))
	for a := int32(0); a < tab.A; a++ {
		for bb := int32(0); bb < tab.A; bb++ {
			for s := int32(0); s < tab.c*tab.c; s++ {
				tab.w[(a*tab.A+bb)*tab.c*tab.c+s] = 0.5 + float64(a-bb)/float64(2*tab.A)
			}
		}
	}
	return tab
}

// BenchmarkSolveSolo is the whole solo solve of each preset.
func BenchmarkSolveSolo(b *testing.B) {
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := SolveSolo(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSolveDuel is the whole duel solve of each preset (up to a minute
// of CPU with a farkle penalty: run with -benchtime=1x). Besides the wall
// time it reports the CPU time of the process per solve (cpu-ns/op) and
// CPU over wall (cpu/wall: 2 when two cores are kept busy; less when the
// machine is shared). Peak memory is best measured on the command:
// /usr/bin/time -v farkle solve --duel --rules NAME --no-cache.
func BenchmarkSolveDuel(b *testing.B) {
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		b.Run(name, func(b *testing.B) {
			benchDuel(b, r, DuelOptions{})
		})
	}
}

// BenchmarkSolveDuelPenalty is the whole duel solve of the presets with a
// farkle penalty (classic, farkle-dice: sweeps until the values settle) on
// one worker and on two, with each kind of lane instructions the CPU runs
// but Go's (avx2, avx512): the CPU of a solve and of one sweep
// (cpu-ns/sweep, the same on one worker and two where nothing is wasted on
// waiting), and how well two cores are kept busy (cpu/wall near 2). Run
// with -benchtime=1x; on a shared machine compare old and new alternately.
func BenchmarkSolveDuelPenalty(b *testing.B) {
	for _, name := range []string{"classic", "farkle-dice"} {
		r := rules.MustPreset(name)
		if r.Turn.FarklePenalty.Count == 0 {
			b.Fatalf("%s has no farkle penalty", name)
		}
		for _, workers := range []int{1, 2} {
			kinds := simdKinds()
			if len(kinds) > 1 {
				kinds = kinds[1:] // the Go sums, far slower, only where there is nothing else
			}
			for _, kind := range kinds {
				b.Run(fmt.Sprintf("%s/jobs-%d/%v", name, workers, kind), func(b *testing.B) {
					benchDuel(b, r, DuelOptions{Workers: workers, test: duelTest{sums: kind}})
				})
			}
		}
	}
}

// benchDuel solves r with opt once per iteration and reports sweeps, CPU per
// solve and per sweep, and CPU over wall.
func benchDuel(b *testing.B, r rules.Rules, opt DuelOptions) {
	b.ReportAllocs()
	cpu0, cpuOK := processCPU()
	start := time.Now()
	sweeps := 0
	for b.Loop() {
		t, err := SolveDuel(r, opt)
		if err != nil {
			b.Fatal(err)
		}
		sweeps = t.Sweeps()
	}
	wall := time.Since(start)
	b.ReportMetric(float64(sweeps), "sweeps")
	if cpu1, ok := processCPU(); cpuOK && ok && wall > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N*sweeps), "cpu-ns/sweep")
		b.ReportMetric(float64(cpu1-cpu0)/float64(wall), "cpu/wall")
	}
}

// BenchmarkSolveDuelSmall is the duel solve of presets at a target of 3000:
// a quick measure of the solver's speed, with the pairs of a sum solved
// side by side (the solver) and one at a time (as before the lanes), in
// the same run.
func BenchmarkSolveDuelSmall(b *testing.B) {
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		r.Game.Target = 3000
		for _, side := range []bool{true, false} {
			b.Run(name+map[bool]string{true: "/side-by-side", false: "/alone"}[side], func(b *testing.B) {
				benchDuel(b, r, DuelOptions{test: duelTest{alone: !side}})
			})
		}
	}
}

// BenchmarkTurnSolve is one start-of-turn solve at 0 to 0 (the largest),
// the unit of work of the duel solver, with and without derivatives.
func BenchmarkTurnSolve(b *testing.B) {
	for _, name := range []string{"classic", "cardgames"} {
		tab := syntheticTable(b, name)
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

// BenchmarkCacheLoad reads a full-size classic table from memory (the file
// read itself is the operating system's).
func BenchmarkCacheLoad(b *testing.B) {
	tab := syntheticTable(b, "classic")
	var buf bytes.Buffer
	if err := WriteTable(&buf, tab); err != nil {
		b.Fatal(err)
	}
	r := rules.MustPreset("classic")
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadTable(bytes.NewReader(buf.Bytes()), r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPosition recomputes in-turn values from a full-size table: the
// value of a throw, a bank-or-throw choice and the keeps of a throw, early in
// a game (the longest turns) and near its end.
func BenchmarkPosition(b *testing.B) {
	tab := syntheticTable(b, "classic")
	for _, tc := range []struct {
		name string
		p    DuelPosition
	}{
		{"start", DuelPosition{Me: 0, Them: 0, Total: 0, Dice: 6}},
		{"midgame", DuelPosition{Me: 5000, Them: 6500, MyStreak: 1, Total: 450, Dice: 3}},
		{"last turn", DuelPosition{Me: 7000, Them: 10250, Total: 1500, Dice: 4}},
	} {
		b.Run(tc.name+"/value-recomputed", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tab.cache.m = nil // solve the turn again every time
				if _, err := tab.Value(tc.p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/value-cached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tab.Value(tc.p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/options-cached", func(b *testing.B) {
			throw := dice.Throws(tc.p.Dice)[len(dice.Throws(tc.p.Dice))/3]
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := tab.Options(tc.p, throw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSoloOptions is a solo decision: the keeps of a throw with values.
func BenchmarkSoloOptions(b *testing.B) {
	p, err := SolveSolo(rules.MustPreset("classic"))
	if err != nil {
		b.Fatal(err)
	}
	throw := dice.Of(1, 1, 5, 2, 3, 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := p.Options(SoloPosition{Total: 350, Dice: 6}, throw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDuelTurns solves every start of a turn of each preset's table at
// a target of 3000 once per iteration, with and without the skipping of
// throws no better than banking (model.banked): the work of one sweep,
// before and after that skipping, measured in the same run.
func BenchmarkDuelTurns(b *testing.B) {
	for _, name := range rules.Presets() {
		b.Run(name, func(b *testing.B) {
			r := rules.MustPreset(name)
			r.Game.Target = 3000
			tab, err := SolveDuel(r, DuelOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for _, skip := range []bool{false, true} {
				b.Run(map[bool]string{false: "all", true: "banked-skipped"}[skip], func(b *testing.B) {
					var arr turnArrays
					b.ReportAllocs()
					for b.Loop() {
						eachStart(tab, func(a, bb, sa, sb int32, F, Z float64) {
							tab.setup(&arr, a, bb, sb, F, false)
							arr.skipBanked = skip
							tab.m.fill(&arr, F, Z)
						})
					}
				})
			}
		})
	}
}

// BenchmarkDuelSizes is what admitting new rules costs the bot scheduler
// (under its lock): the memory of their duel table (DuelSizes).
func BenchmarkDuelSizes(b *testing.B) {
	r := rules.MustPreset("farkle-dice")
	for b.Loop() {
		if _, err := DuelSizes(r, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveThreeSmall is the three-player solve of the presets
// without their penalty at a target of 1000, and of classic with it at 500
// (each seat's streak in the state; run with -benchtime=1x), the triples
// of a sum (or the states of a triple's job) side by side (the solver) and
// one at a time, in the same run (alone also without skipping the throws
// no better than banking: the solver before the lanes): a quick measure of
// the three-player solver's speed, reporting the CPU time of the process
// per solve (cpu-ns/op; the machine may be shared); every-fill: side by
// side without reusing a fill whose farkle value repeats (turnMemo3); with
// the penalty also unpacked (the states of one triple at a time side by
// side, never several triples') and cold (the sweeps started from equal
// chances, not the table without the penalty).
func BenchmarkSolveThreeSmall(b *testing.B) {
	for _, name := range []string{"pocket-farkel", "cardgames", "classic", "classic-penalty"} {
		r := rules.MustPreset(strings.TrimSuffix(name, "-penalty"))
		r.Game.Target = 1000
		r.Game.MinPlayers, r.Game.MaxPlayers = 1, max(r.Game.MaxPlayers, 3)
		if strings.HasSuffix(name, "-penalty") {
			r.Game.Target = 500
		} else {
			r.Turn.FarklePenalty = rules.Penalty{}
		}
		variants := []string{"side-by-side", "every-fill", "alone"}
		if strings.HasSuffix(name, "-penalty") {
			variants = append(variants, "unpacked", "cold")
		}
		for _, v := range variants {
			side := v != "alone"
			b.Run(name+"/"+v, func(b *testing.B) {
				// every-fill: side by side without reusing a fill (turnMemo3)
				opt := ThreeOptions{test: threeTest{alone: !side, noSkip: !side, noReuse: v == "every-fill" || v == "alone"}}
				// unpacked: the rounds of one triple at a time side by
				// side, never several triples' (streakJobRun); cold: the
				// sweeps from equal chances (warmStart)
				opt.test.noPack, opt.test.coldStart = v == "unpacked", v == "cold"
				b.ReportAllocs()
				cpu0, cpuOK := processCPU()
				for b.Loop() {
					if _, err := SolveThree(r, opt); err != nil {
						b.Fatal(err)
					}
				}
				if cpu1, ok := processCPU(); cpuOK && ok {
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}
