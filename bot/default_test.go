package bot

import (
	"testing"
)

// defaultRuns counts the runs of TestDefaultTables in this process.
var defaultRuns int

// TestDefaultTables: the Tables of bots made without WithTables keep their
// results in memory only, bounded in bytes, whatever the environment says
// (the package reads none).
func TestDefaultTables(t *testing.T) {
	t.Setenv("FARKLE_CACHE_DIR", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ts := DefaultTables()
	if ts.Dir != "" {
		t.Errorf("the default tables use the cache directory %q", ts.Dir)
	}
	if lim := ts.Limits(); lim != DefaultLimits() || lim.DuelCache <= 0 || lim.SoloCache <= 0 {
		t.Errorf("default limits %+v: want memory caches bounded in bytes", lim)
	}
	if DefaultTables() != ts {
		t.Fatal("a second call made other default tables")
	}
	before := ts.Stats().SoloSolves // other tests of the package may have used them
	// Rules no other test solves, nor an earlier run of this one (go test
	// -count N): targets ending in 50 (the others' end in 00).
	r := short("pocket-farkel", 1150+100*defaultRuns)
	defaultRuns++
	b, err := New("expert", r)
	if err != nil {
		t.Fatal(err)
	}
	if err := Prepare(b); err != nil {
		t.Fatal(err)
	}
	if st := ts.Stats(); st.SoloSolves != before+1 || st.CachedSolo == 0 {
		t.Fatalf("stats of the default tables %+v: want the expert's solo policy solved there", st)
	}
}

// TestSoloCacheEvicts: the solo policies kept stay within SoloCache, the
// least recently used dropped first and solved again when asked.
func TestSoloCacheEvicts(t *testing.T) {
	probe := NewTables("")
	p, err := probe.Solo(distinct(0))
	if err != nil {
		t.Fatal(err)
	}
	one := p.Bytes()
	ts := NewLimitedTables("", Limits{SoloCache: 2*one + one/2})
	for _, i := range []int{0, 1, 0, 2} { // 0 used again after 1: 1 is the least recently used
		if _, err := ts.Solo(distinct(i)); err != nil {
			t.Fatal(err)
		}
	}
	if st := ts.Stats(); st.Evictions != 1 || st.CachedSolo > 2*one+one/2 || st.SoloSolves != 3 {
		t.Fatalf("stats %+v: want three solves, one policy dropped, two kept", st)
	}
	ts.Solo(distinct(0))
	if st := ts.Stats(); st.SoloSolves != 3 {
		t.Fatalf("stats %+v: the recently used policy was dropped", st)
	}
	ts.Solo(distinct(1))
	if st := ts.Stats(); st.SoloSolves != 4 || st.Evictions != 2 {
		t.Fatalf("stats %+v: the dropped policy was not solved again", st)
	}
}
