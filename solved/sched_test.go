package solved

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// distinct returns the i-th of a family of rule sets (i < 7) whose duel
// tables are small (pocket-farkel to 1,000: solved in milliseconds) and
// all of the same size, but whose hashes differ.
func distinct(i int) rules.Rules {
	r := short("pocket-farkel", 1000)
	r.Game.MaxPlayers = 2 + i
	return r
}

// eventually polls cond until it holds or a deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// gate makes the duel solves of ts report their start on started and wait
// until open is closed.
func gate(ts *Tables) (started chan rules.Rules, open chan struct{}) { return gateKind(ts, "duel") }

// gateKind is gate for the jobs of a kind ("duel", "three", "load", ...).
func gateKind(ts *Tables, kind string) (started chan rules.Rules, open chan struct{}) {
	started, open = make(chan rules.Rules, 16), make(chan struct{})
	ts.OnJob = func(k string, r rules.Rules) {
		if k == kind {
			started <- r
			<-open
		}
	}
	return started, open
}

// TestSchedulerBoundsSolvesAndQueue: with two solves at once and two
// waiting, the third and fourth requests wait, a fifth is refused at once
// with ErrBusy, and all four are solved once the first two end.
func TestSchedulerBoundsSolvesAndQueue(t *testing.T) {
	ts := NewLimitedTables("", Limits{Solves: 2, Queue: 2})
	started, open := gate(ts)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 4 {
		wg.Go(func() { _, errs[i] = ts.Duel(distinct(i)) })
	}
	<-started
	<-started
	eventually(t, "two solves queued", func() bool { return ts.Stats().Queued == 2 })
	select {
	case r := <-started:
		t.Fatalf("a third solve (%s, max %d players) started while two ran", r.Name, r.Game.MaxPlayers)
	default:
	}
	if st := ts.Stats(); st.Running != 2 {
		t.Fatalf("%d solves running, want 2", st.Running)
	}
	// The queue is full: refused at once, blocking or not.
	if _, err := ts.Duel(distinct(4)); !errors.Is(err, ErrBusy) {
		t.Fatalf("Duel with a full queue: %v, want ErrBusy", err)
	}
	if _, err := ts.DuelNow(distinct(5)); !errors.Is(err, ErrBusy) {
		t.Fatalf("DuelNow with a full queue: %v, want ErrBusy", err)
	}
	// So is a request by key (as a bot asks).
	if _, err := ts.DuelOf(KeyOf(distinct(4)), true); !errors.Is(err, ErrBusy) {
		t.Fatalf("DuelOf with a full queue: %v, want ErrBusy", err)
	}
	// A solo solve needs no solve slot: it is answered meanwhile.
	if _, err := ts.Solo(distinct(6)); err != nil {
		t.Fatalf("Solo while the duel solves are busy: %v", err)
	}
	close(open)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
	st := ts.Stats()
	if st.PeakRunning != 2 || st.DuelSolves != 4 || st.Busy != 3 || st.Running != 0 || st.Held != 0 {
		t.Fatalf("stats %+v: want at most 2 running, 4 solves, 3 refused, nothing held", st)
	}
}

// TestSchedulerMemoryBudget: a need above the whole budget is refused at
// once, before anything is allocated, with the figures; needs that fit
// only one at a time run one at a time.
func TestSchedulerMemoryBudget(t *testing.T) {
	size, err := duelSizes(distinct(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	need := size.Solve
	ts := NewLimitedTables("", Limits{Memory: need + need/2})
	big := short("classic", 300000) // a table of gigabytes
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ts.Duel(big)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, solve.ErrTooLarge) || !strings.Contains(err.Error(), "GiB") {
		t.Fatalf("Duel of a huge table: %v, want solve.ErrTooLarge giving the size", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 { // the rules' model, not the table
		t.Fatalf("the refusal allocated %d bytes", grew)
	}
	if r := Reason(err); !strings.Contains(r, "GiB, more than the solver memory of") || strings.Contains(r, "bot:") {
		t.Fatalf("Reason = %q", r)
	}
	// Two solves that fit the budget only one at a time.
	started, open := gate(ts)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			if _, err := ts.Duel(distinct(i)); err != nil {
				t.Error(err)
			}
		})
	}
	<-started
	eventually(t, "the second solve queued", func() bool { return ts.Stats().Queued == 1 })
	if st := ts.Stats(); st.Running != 1 || st.Held != need {
		t.Fatalf("stats %+v: want one running holding %d", st, need)
	}
	close(open)
	wg.Wait()
	if st := ts.Stats(); st.PeakRunning != 1 || st.PeakHeld > ts.lim.Memory || st.DuelSolves != 2 {
		t.Fatalf("stats %+v: want one at a time within %d bytes", st, ts.lim.Memory)
	}
}

// TestSchedulerSharesOneSolve: concurrent requests for the same rules wait
// for one solve and get the same table.
func TestSchedulerSharesOneSolve(t *testing.T) {
	ts := NewLimitedTables("", Limits{Solves: 1, Queue: 1})
	started, open := gate(ts)
	const n = 8
	var wg sync.WaitGroup
	got := make([]*solve.Table, n)
	for i := range n {
		wg.Go(func() {
			var err error
			if got[i], err = ts.Duel(distinct(0)); err != nil {
				t.Error(err)
			}
		})
	}
	<-started
	close(open)
	wg.Wait()
	for i := range got {
		if got[i] == nil || got[i] != got[0] {
			t.Fatalf("request %d got table %p, request 0 %p", i, got[i], got[0])
		}
	}
	if st := ts.Stats(); st.DuelSolves != 1 || st.Busy != 0 {
		t.Fatalf("stats %+v: want one solve for %d requests", st, n)
	}
}

// TestSchedulerPanicIsAnError: a panic in a solve is an error wrapping
// ErrSolveFailed, remembered so the rules are not tried again.
func TestSchedulerPanicIsAnError(t *testing.T) {
	ts := NewLimitedTables("", Limits{Solves: 1})
	ts.OnJob = func(kind string, r rules.Rules) { panic("boom in " + kind) }
	for range 2 {
		if _, err := ts.Duel(distinct(0)); !errors.Is(err, ErrSolveFailed) || !strings.Contains(err.Error(), "boom in duel") {
			t.Fatalf("Duel: %v, want ErrSolveFailed", err)
		}
		if _, err := ts.Solo(distinct(0)); !errors.Is(err, ErrSolveFailed) {
			t.Fatalf("Solo: %v, want ErrSolveFailed", err)
		}
	}
	if st := ts.Stats(); st.DuelSolves != 1 || st.SoloSolves != 1 || st.Failed != 2 || st.Running != 0 || st.Held != 0 {
		t.Fatalf("stats %+v: want one failed try each, nothing held", st)
	}
}

// TestSchedulerEvictsAndReloads: the duel tables kept in memory are
// bounded in bytes, the least recently used dropped and read back from the
// cache directory (not solved again), with the same values.
func TestSchedulerEvictsAndReloads(t *testing.T) {
	size, err := duelSizes(distinct(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	one := size.Resident
	dir := t.TempDir()
	ts := NewLimitedTables(dir, Limits{DuelCache: one + one/2})
	first, err := ts.Duel(distinct(0))
	if err != nil {
		t.Fatal(err)
	}
	p0 := first.FirstPlayerWins()
	if _, err := ts.Duel(distinct(1)); err != nil {
		t.Fatal(err)
	}
	second, _ := ts.Duel(distinct(1))
	if st := ts.Stats(); st.Evictions != 1 || st.CachedDuel != second.Bytes() || st.CachedDuel > one || st.DuelSolves != 2 {
		t.Fatalf("stats %+v: want the first table dropped, one kept", st)
	}
	// Read back from its file, not solved again, and the same values.
	again, err := ts.DuelOf(KeyOf(distinct(0)), true)
	if err != nil {
		t.Fatal(err)
	}
	if st := ts.Stats(); st.Loads != 1 || st.DuelSolves != 2 {
		t.Fatalf("stats %+v: want one load and no third solve", st)
	}
	if again == first || again.FirstPlayerWins() != p0 {
		t.Fatalf("reloaded table: %v, solved %v", again.FirstPlayerWins(), p0)
	}
}

// TestSchedulerCapsTheCacheDir: the cache directory keeps at most its cap
// in bytes, removing the least recently used files (a read counts as a
// use).
func TestSchedulerCapsTheCacheDir(t *testing.T) {
	dir := t.TempDir()
	// Learn the size of one file.
	probe := NewTables(dir)
	if _, err := probe.Duel(distinct(0)); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(solve.CacheFile(dir, distinct(0)))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(solve.CacheFile(dir, distinct(0)))
	size, _ := duelSizes(distinct(0), 0)
	one := size.Resident
	// Room for two files on disk and one table in memory.
	ts := NewLimitedTables(dir, Limits{CacheDirMax: 2*info.Size() + info.Size()/2, DuelCache: one})
	get := func(i int) {
		t.Helper()
		if _, err := ts.Duel(distinct(i)); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(i int) bool {
		_, err := os.Stat(solve.CacheFile(dir, distinct(i)))
		return err == nil
	}
	get(0)
	get(1) // 0 dropped from memory
	old := time.Now().Add(-time.Hour)
	os.Chtimes(solve.CacheFile(dir, distinct(0)), old, old) // 0 is the oldest file...
	os.Chtimes(solve.CacheFile(dir, distinct(1)), old.Add(time.Minute), old.Add(time.Minute))
	get(0) // ... until it is read back: now 1 is
	if st := ts.Stats(); st.Loads != 1 || st.DuelSolves != 2 {
		t.Fatalf("stats %+v: want table 0 read back", st)
	}
	get(2)
	if !exists(0) || exists(1) || !exists(2) {
		t.Fatalf("files 0, 1, 2 exist: %v %v %v; want the least recently used (1) removed", exists(0), exists(1), exists(2))
	}
	if st := ts.Stats(); st.DirRemoved != 1 {
		t.Fatalf("stats %+v: want one file removed", st)
	}
	// A table whose file alone is over the cap is not written.
	small := NewLimitedTables(dir, Limits{CacheDirMax: info.Size() / 2})
	if _, err := small.Duel(distinct(3)); err != nil || exists(3) {
		t.Fatalf("Duel: %v; file written: %v", err, exists(3))
	}
	// Temporary files left by a crash go once stale.
	tmp := filepath.Join(dir, ".duel-crash.tmp")
	os.WriteFile(tmp, []byte("half"), 0o644)
	os.Chtimes(tmp, old, old)
	if trimCacheDir(dir, 1<<40); fileExists(tmp) {
		t.Fatal("a stale temporary file was kept")
	}
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
