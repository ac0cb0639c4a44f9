package solved

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// TestThreeSolvedInBackground: a Tables allowed to solve a three-player
// table of that size does so through its scheduler, taking a solve slot
// (a duel solve waits behind it), says while it does that the table is
// being prepared, and then gives the table the solver gives (the same
// values to the last bit), written to the cache directory where another
// Tables reads it instead of solving.
func TestThreeSolvedInBackground(t *testing.T) {
	r := threeShort("pocket-farkel", 500)
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ts := NewLimitedTables(dir, Limits{NoWait: true, Solves: 1, Queue: 4, ThreeSolve: triples, Memory: 256 << 20})
	started, open := gateKind(ts, "three")
	if _, err := ts.ThreeNow(r); !errors.Is(err, ErrNotReady) {
		t.Fatalf("ThreeNow before the solve: %v, want ErrNotReady", err)
	}
	<-started
	if st := ts.Stats(); st.Running != 1 || st.ThreeSolves != 1 || st.Held == 0 {
		t.Fatalf("stats %+v: want the three-player solve running, holding its memory", st)
	}
	_, err = ts.ThreeNow(r)
	var pe *PreparingError
	if !errors.As(err, &pe) || Reason(err) != "its table is being prepared" {
		t.Fatalf("ThreeNow while solving: %v (%q)", err, Reason(err))
	}
	// The one solve slot is taken: a duel solve waits for it.
	duel := make(chan error, 1)
	go func() { _, err := ts.Duel(distinct(0)); duel <- err }()
	eventually(t, "the duel solve queued", func() bool { return ts.Stats().Queued == 1 })
	// The solve's progress, as the solver reports it, is the note's.
	ts.mu.Lock()
	f := ts.three.fl[KeyOf(r).h]
	ts.mu.Unlock()
	f.total.Store(200)
	f.work.Store(86)
	if _, err := ts.ThreeNow(r); Reason(err) != "its table is being prepared (43%)" || WhyOf(err).In(lang.Get("nb")) != "tabellen forberedes (43\u00a0%)" {
		t.Fatalf("ThreeNow with progress: %q / %q", Reason(err), WhyOf(err).In(lang.Get("nb")))
	}
	close(open)
	eventually(t, "the table solved", func() bool { _, err := ts.ThreeNow(r); return err == nil })
	if err := <-duel; err != nil {
		t.Fatal(err)
	}
	got, _ := ts.ThreeNow(r)
	want, err := solve.SolveThree(r, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameThree(t, got, want)
	if st := ts.Stats(); st.Held != 0 || st.CachedThree == 0 || st.PeakRunning != 1 {
		t.Fatalf("stats %+v: want nothing held, the table kept, one solve at a time", st)
	}
	// Written to the cache directory: another Tables reads it, not solving.
	if _, err := os.Stat(solve.ThreeCacheFile(dir, r, solve.OrbitMixed)); err != nil {
		t.Fatal(err)
	}
	other := NewLimitedTables(dir, Limits{ThreeSolve: triples})
	again, err := other.Three(r)
	if err != nil {
		t.Fatal(err)
	}
	sameThree(t, again, want)
	if st := other.Stats(); st.ThreeLoads != 1 || st.ThreeSolves != 0 {
		t.Fatalf("stats %+v: want the table read, not solved", st)
	}
}

// sameThree fails unless a and b hold the same values at the start and
// at every score pair of the first mover, bit for bit.
func sameThree(t *testing.T, a, b *solve.Three) {
	t.Helper()
	if a.Start() != b.Start() || a.Triples() != b.Triples() || len(a.Orbits()) != len(b.Orbits()) {
		t.Fatalf("tables differ: start %v / %v, %d / %d triples", a.Start(), b.Start(), a.Triples(), b.Triples())
	}
	u, target := a.Unit(), a.Rules().Game.Target
	for s1 := 0; s1 < target; s1 += u {
		for s2 := 0; s2 < target; s2 += 7 * u {
			pa, errA := a.WinProbabilities([3]int{s1, s2, (s1 + s2) % target}, 0)
			pb, errB := b.WinProbabilities([3]int{s1, s2, (s1 + s2) % target}, 0)
			if pa != pb || (errA == nil) != (errB == nil) {
				t.Fatalf("scores %d %d: %v (%v) / %v (%v)", s1, s2, pa, errA, pb, errB)
			}
		}
	}
}

// TestThreeRefusedUpFront: a three-player table is refused before any
// work when its rules are outside the solver (a farkle penalty), when it
// needs more than the memory budget, and when it is larger than this
// Tables solves (until farkle solve --players 3 writes it to the cache
// directory: then it is read). Each refusal says why, in English and
// Norwegian.
func TestThreeRefusedUpFront(t *testing.T) {
	nb := lang.Get("nb")
	r := threeShort("cardgames", 600)
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ts := NewLimitedTables(dir, Limits{NoWait: true, ThreeSolve: triples - 1, Memory: 256 << 20})
	ts.OnJob = func(kind string, r rules.Rules) {
		if kind == "three" {
			t.Errorf("a three-player solve started for %s", r.Name)
		}
	}
	// Too many triples for this Tables: no table, and why.
	_, err = ts.ThreeNow(r)
	if !errors.Is(err, ErrNoThreeTable) || !strings.Contains(Reason(err), "too large for this server's budget") || !strings.Contains(WhyOf(err).In(nb), "for stor for denne serverens budsjett") {
		t.Fatalf("ThreeNow over the triples: %v (%q / %q)", err, Reason(err), WhyOf(err).In(nb))
	}
	// A bank minimum that can end a turn with nothing (no hot dice)
	// under a farkle penalty: refused, for good.
	pen := threeShort("cardgames", 600)
	pen.Turn.BankMinimum = 300
	pen.Turn.HotDice, pen.Turn.FarklePenalty = false, rules.Penalty{Count: 3, Points: 1000}
	if _, err := ts.ThreeNow(pen); !errors.Is(err, solve.ErrThreeBankMinimum) || !strings.Contains(Reason(err), "needs hot dice where a bank or entry minimum meets a farkle penalty") || !strings.Contains(WhyOf(err).In(nb), "varme terninger") {
		t.Fatalf("ThreeNow with a bank minimum: %v (%q / %q)", err, Reason(err), WhyOf(err).In(nb))
	}
	// More memory than the budget: refused before anything is allocated.
	big := threeShort("pocket-farkel", 10000)
	tiny := NewLimitedTables(dir, Limits{NoWait: true, ThreeSolve: 1 << 40, Memory: 64 << 20})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = tiny.ThreeNow(big)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, solve.ErrTooLarge) || !strings.Contains(Reason(err), "more than the solver memory of 64.0 MiB") {
		t.Fatalf("ThreeNow of a large table: %v (%q)", err, Reason(err))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("the refusal allocated %d bytes", grew)
	}
	if st := tiny.Stats(); st.TooLarge != 1 || st.ThreeSolves != 0 {
		t.Fatalf("stats %+v", st)
	}
	// farkle solve --players 3 writes the table to the cache directory:
	// the same Tables now reads it.
	if _, _, _, err := solve.CachedThree(r, dir, solve.ThreeOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the table read", func() bool { _, err := ts.ThreeNow(r); return err == nil })
	if st := ts.Stats(); st.ThreeLoads != 1 || st.ThreeSolves != 0 {
		t.Fatalf("stats %+v: want the table read", st)
	}
}

// TestThreeCacheEvicts: the three-player tables kept stay within
// ThreeCache, the least recently used dropped and read back from the
// cache directory when asked again; a table larger than ThreeCache is
// refused.
func TestThreeCacheEvicts(t *testing.T) {
	dir := t.TempDir()
	rs := []rules.Rules{threeShort("pocket-farkel", 400), threeShort("pocket-farkel", 400)}
	rs[1].Game.MaxPlayers-- // the same table, another hash
	need, err := solve.ThreeBytes(rs[0], 1)
	if err != nil {
		t.Fatal(err)
	}
	triples, _ := solve.ThreeTriples(rs[0])
	ts := NewLimitedTables(dir, Limits{ThreeSolve: triples, ThreeCache: need + need/2})
	for _, r := range []rules.Rules{rs[0], rs[1], rs[0]} {
		if _, err := ts.Three(r); err != nil {
			t.Fatal(err)
		}
	}
	if st := ts.Stats(); st.ThreeSolves != 2 || st.ThreeLoads != 1 || st.Evictions != 2 || st.CachedThree > need+need/2 {
		t.Fatalf("stats %+v: want two solves, one read back, two dropped, one kept", st)
	}
	small := NewLimitedTables(dir, Limits{ThreeSolve: triples, ThreeCache: need - 1})
	if _, err := small.Three(rs[0]); !errors.Is(err, solve.ErrTooLarge) || !strings.Contains(Reason(err), "memory kept for three-player tables") {
		t.Fatalf("Three over ThreeCache: %v (%q)", err, Reason(err))
	}
}

// TestThreePenaltySolved: rules with a farkle penalty are no longer
// refused: their three-player table counts the seats' streaks in its
// triples (27 times those of the rules without it), so a Tables whose
// triple budget holds only the scores says it is too large, and one that
// holds the streaks too solves it: the table the solver gives.
func TestThreePenaltySolved(t *testing.T) {
	r := threeShort("classic", 300)
	r.Turn.FarklePenalty = rules.Penalty{Count: 3, Points: 1000}
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := solve.ThreeTriples(threeShort("classic", 300)); triples != 27*plain {
		t.Fatalf("%d triples with the penalty, %d without", triples, plain)
	}
	nb := lang.Get("nb")
	small := NewLimitedTables(t.TempDir(), Limits{NoWait: true, Solves: 1, Queue: 4, ThreeSolve: triples / 27, Memory: 256 << 20})
	t.Cleanup(small.Close)
	if _, err := small.ThreeNow(r); !errors.Is(err, ErrNoThreeTable) || !strings.Contains(Reason(err), "too large for this server's budget") || !strings.Contains(WhyOf(err).In(nb), "for stor") {
		t.Fatalf("ThreeNow within the triples of the scores only: %v (%q)", err, Reason(err))
	}
	ts := NewLimitedTables(t.TempDir(), Limits{NoWait: true, Solves: 1, Queue: 4, ThreeSolve: triples, Memory: 256 << 20, Workers: 2})
	t.Cleanup(ts.Close)
	got, err := ts.Three(r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := solve.SolveThree(r, solve.ThreeOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got.Streaks() != 3 || got.Start() != want.Start() {
		t.Fatalf("the Tables' table: %d streaks, start %v; the solver's %v", got.Streaks(), got.Start(), want.Start())
	}
}
