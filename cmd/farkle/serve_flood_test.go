package main

import (
	"flag"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// BenchmarkServeSolveFlood floods the serve defaults with ten distinct
// rule sets at once: for each, a perfect bot's preparation and decision
// (as a server's table makes them) and a hint through the serve advisor.
// Every request is answered at once (the bots as expert, the hints in
// expected points) while one duel solve runs and the others wait or are
// refused; peak RSS (VmHWM, reset at the start) is reported once that
// solve has allocated and filled its table and solved its first score
// sum, then the solves are stopped. Run it alone, e.g.
//
//	go test ./cmd/farkle -run '^$' -bench ServeSolveFlood -benchtime 1x -benchmem
//
// "targets-20000" is classic to 20,000..20,450 (tables of about 12 MiB),
// "targets-90000" to 90,000..90,450 (about 230 MiB: near the largest the
// defaults keep in memory), "targets-300000" to
// 300,000..300,450 (2.6 GiB each: refused at once for the budget).
func BenchmarkServeSolveFlood(b *testing.B) {
	for _, base := range []int{20000, 90000, 300000} {
		b.Run("targets-"+strconv.Itoa(base), func(b *testing.B) {
			var peak, answered float64
			var last solved.Stats
			for b.Loop() {
				p, ms, st := flood(b, base)
				peak, answered, last = max(peak, p), ms, st
			}
			b.ReportMetric(peak/(1<<20), "peak-RSS-MiB")
			b.ReportMetric(answered, "ms-to-answer-all")
			b.ReportMetric(float64(last.PeakHeld)/(1<<20), "peak-held-MiB")
			b.ReportMetric(float64(last.Busy+last.TooLarge), "refused")
		})
	}
}

// flood runs one flood and returns the peak RSS in bytes, the time to
// answer every request and the scheduler's stats.
func flood(b *testing.B, base int) (peakRSS, answeredMS float64, st solved.Stats) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	build := solveFlags(fs, os.Getenv)
	if err := fs.Parse([]string{"--cache", b.TempDir()}); err != nil {
		b.Fatal(err)
	}
	ts, err := build()
	if err != nil {
		b.Fatal(err)
	}
	allocated := make(chan struct{})
	var once sync.Once
	ts.Progress = func(sweep, done, total int) {
		// The first score sum solved: the table is allocated and filled,
		// and the workers have their arrays.
		once.Do(func() { close(allocated) })
	}
	runtime.GC()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("cannot reset the peak RSS (%v): it counts from the start of the process", err)
	}
	cast := newServeAdvisor(ts, true).cast // the server's: its bots and its hints
	start := time.Now()
	var wg sync.WaitGroup
	var failures atomic.Int32
	for i := range 10 {
		r := rules.MustPreset("classic")
		r.Game.Target = base + 50*i
		g, seat := keepState(b, r)
		wg.Go(func() {
			pb, err := cast.Bot(g.Variant(), "perfect")
			if err != nil {
				b.Error(err)
				return
			}
			go pb.(interface{ Prepare() error }).Prepare() // in the background, as the server does
			if a, err := pb.Choose(g, seat, nil); err != nil || a.(engine.Action).Kind != engine.Keep {
				failures.Add(1)
			}
			adv, err := cast.Advisor(g.Variant(), len(g.Players()))
			var h *game.Advice
			if err == nil {
				h, err = adv.Advise(g, seat)
			}
			if err != nil || len(h.Choices) == 0 || h.Measure != game.ExpectedPoints {
				b.Errorf("hint for target %d: %+v %v", r.Game.Target, h, err)
			}
		})
	}
	wg.Wait()
	answeredMS = float64(time.Since(start).Microseconds()) / 1000
	if failures.Load() > 0 {
		b.Fatalf("%d bots did not keep", failures.Load())
	}
	if base < 300000 {
		<-allocated
	}
	peakRSS = vmHWM(b)
	st = ts.Stats()
	ts.Close()
	for deadline := time.Now().Add(time.Minute); ts.Stats().Running+ts.Stats().Queued > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("solves still running a minute after Close: %+v", ts.Stats())
		}
	}
	return peakRSS, answeredMS, st
}

// keepState returns a two-player game of r at its first keep decision,
// and the seat to keep.
func keepState(b *testing.B, r rules.Rules) (game.Game, int) {
	v, err := game.NewFarkle(r)
	if err != nil {
		b.Fatal(err)
	}
	g, _, err := v.Start([]string{"a", "b"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	src := dice.NewSource(dice.SeedFrom("flood"))
	for n := 0; ; n++ {
		st := g.(*game.FarkleGame).State()
		if st.Phase == engine.PhasePlay && st.Step == engine.StepKeep && len(st.Legal()) >= 2 {
			return g, st.Actor()
		}
		if n > 1000 {
			b.Fatal("no keep decision in 1,000 actions")
		}
		if g, _, err = g.Apply(st.Actor(), st.Legal()[0], src); err != nil {
			b.Fatal(err)
		}
	}
}

// vmHWM returns the peak resident set size of the process.
func vmHWM(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return kb * 1024
		}
	}
	b.Skip("no VmHWM")
	return 0
}
