//go:build !js

package solve

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/rules"
)

// classicThree is classic for three players at a small target: a farkle
// penalty, so solved in sweeps.
func classicThree(target int) rules.Rules {
	r := threeRules(rules.MustPreset("classic"))
	r.Game.Target = target
	return r
}

// sameBits fails unless a and b hold the same values to the last bit.
func sameBits(t *testing.T, a, b *Three) {
	t.Helper()
	if len(a.w) != len(b.w) {
		t.Fatalf("%d values against %d", len(a.w), len(b.w))
	}
	for i := range a.w {
		if math.Float64bits(a.w[i]) != math.Float64bits(b.w[i]) {
			t.Fatalf("value %d: %v against %v", i, a.w[i], b.w[i])
		}
	}
	if a.sweeps != b.sweeps || a.errEst != b.errEst || len(a.orbits) != len(b.orbits) {
		t.Fatalf("sweeps %d error %g orbits %d against %d, %g, %d", a.sweeps, a.errEst, len(a.orbits), b.sweeps, b.errEst, len(b.orbits))
	}
}

// A solve stopped after a sweep resumes from its checkpoint and ends with
// the table of a solve that ran through, to the last bit; a checkpoint
// damaged, or of other rules, is not used and the solve starts over.
func TestThreeCheckpointResume(t *testing.T) {
	r := classicThree(300)
	whole := mustThree(t, r, ThreeOptions{Workers: 2})
	if whole.sweeps < 4 {
		t.Fatalf("%d sweeps: too few to stop in between", whole.sweeps)
	}
	dir := t.TempDir()
	file := ThreeCheckpointFile(dir, r, OrbitMixed)
	var seen []int
	_, err := SolveThree(r, ThreeOptions{Workers: 2, Checkpoint: file, test: threeTest{stopAfter: 2},
		Sweep: func(si SweepInfo) { seen = append(seen, si.N) }})
	if !errors.Is(err, errStopped) {
		t.Fatalf("stopped solve: %v", err)
	}
	if fmt.Sprint(seen) != "[0 1 2]" { // 0: the table without the penalty
		t.Fatalf("sweeps reported %v", seen)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no checkpoint after sweep 2: %v", err)
	}
	resumed := -1
	seen = nil
	th := mustThree(t, r, ThreeOptions{Workers: 1, Checkpoint: file,
		Resume: func(sweep int, err error) {
			if err != nil {
				t.Errorf("checkpoint refused: %v", err)
			}
			resumed = sweep
		},
		Sweep: func(si SweepInfo) { seen = append(seen, si.N) }})
	if resumed != 2 || seen[0] != 3 {
		t.Fatalf("resumed after sweep %d, sweeps reported %v", resumed, seen)
	}
	if last := seen[len(seen)-1]; last != whole.sweeps {
		t.Fatalf("last sweep reported %d of %d", last, whole.sweeps)
	}
	sameBits(t, th, whole)

	// a damaged checkpoint: one value's byte changed
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-100] ^= 1
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var why error
	th = mustThree(t, r, ThreeOptions{Workers: 2, Checkpoint: file, Resume: func(sweep int, err error) { resumed, why = sweep, err }})
	if resumed != 0 || !errors.Is(why, ErrCache) {
		t.Fatalf("damaged checkpoint: resumed after %d, %v", resumed, why)
	}
	sameBits(t, th, whole)

	// a checkpoint of other rules under this name
	other := classicThree(350)
	if _, err := SolveThree(other, ThreeOptions{Workers: 2, Checkpoint: file, test: threeTest{stopAfter: 1}}); !errors.Is(err, errStopped) {
		t.Fatal(err)
	}
	why = nil
	th = mustThree(t, r, ThreeOptions{Workers: 2, Checkpoint: file, Resume: func(sweep int, err error) { resumed, why = sweep, err }})
	if resumed != 0 || !errors.Is(why, ErrCache) {
		t.Fatalf("checkpoint of other rules: resumed after %d, %v", resumed, why)
	}
	sameBits(t, th, whole)
}

// A checkpoint that cannot be written (its directory is a file) fails the
// solve with the cause instead of running on without one.
func TestThreeCheckpointUnwritable(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := SolveThree(classicThree(200), ThreeOptions{Workers: 2, Checkpoint: filepath.Join(notDir, "x.sweeps")})
	if err == nil || !strings.Contains(err.Error(), notDir) {
		t.Fatalf("solved without its checkpoint, or failed otherwise: %v", err)
	}
}

// The sweeps started from the table without the penalty (warmStart) settle
// sooner than from equal chances, at the same values within the sweeps'
// error.
func TestThreeWarmStart(t *testing.T) {
	r := classicThree(500)
	warm := mustThree(t, r, ThreeOptions{Workers: 2})
	cold := mustThree(t, r, ThreeOptions{Workers: 2, test: threeTest{coldStart: true}})
	if warm.sweeps >= cold.sweeps {
		t.Errorf("%d sweeps from the table without the penalty, %d from equal chances", warm.sweeps, cold.sweeps)
	}
	worst := 0.0
	for i := range warm.w {
		worst = max(worst, math.Abs(warm.w[i]-cold.w[i]))
	}
	if worst > 1e-9 {
		t.Errorf("the two solves differ by %.3g", worst)
	}
	t.Logf("sweeps %d warm, %d cold; largest difference %.2g", warm.sweeps, cold.sweeps, worst)
}

func TestSweepsLeft(t *testing.T) {
	for _, c := range []struct {
		sweep        int
		change, prev float64
		want         int
	}{
		{1, 1, 0, -1},
		{2, 0.03, 0.1, -1},       // too early
		{4, 0.3, 0.4, -1},        // the start still being corrected
		{3, 1e-3, 1e-2, 6},       // 1e-4, ..., 1e-8, then 1e-9 below sweepStop
		{3, 1.5e-3, 1e-2, 6},     // a tenfold at least: 1.5e-4, ..., 1.5e-8, 1.5e-9
		{5, 1e-9, 1e-6, 1},       // already below sweepStop: the next, at most
		{5, 2e-8, 1e-4, 1},       // 5,000-fold: the next is below sweepStop
		{4, 0.0134, 0.0624, 7},   // classic to 1,000: 1.34e-3, ..., 1.34e-9
		{6, 3.86e-5, 9.92e-4, 3}, // classic to 2,000: 25.7-fold: 1.5e-6, 5.8e-8, 2.3e-9
	} {
		if got := sweepsLeft(c.sweep, c.change, c.prev); got != c.want {
			t.Errorf("sweepsLeft(%d, %g, %g) = %d, want %d", c.sweep, c.change, c.prev, got, c.want)
		}
	}
}

// The states of several triples solved side by side (streakJobRun: their
// rounds packed into the same lanes) are the states of one triple at a
// time, to the last bit.
func TestThreeStreakRoundsPacked(t *testing.T) {
	r := classicThree(500)
	packed := mustThree(t, r, ThreeOptions{Workers: 2})
	if packed.packed == 0 {
		t.Fatal("no triples were packed together")
	}
	alone := mustThree(t, r, ThreeOptions{Workers: 2, test: threeTest{alone: true}})
	if alone.packed != 0 {
		t.Fatalf("%d packed jobs solving one triple at a time", alone.packed)
	}
	sameBits(t, packed, alone)
}
