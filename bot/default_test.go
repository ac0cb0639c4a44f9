package bot

import (
	"testing"

	"github.com/farkle/farkle/solved"
)

// defaultRuns counts the runs of TestDefaultTables in this process.
var defaultRuns int

// TestDefaultTables: the Tables of bots made without WithTables keep their
// results in memory only, bounded in bytes, whatever the environment says
// (the package reads none).
func TestDefaultTables(t *testing.T) {
	t.Setenv("FARKLE_CACHE_DIR", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ts := solved.DefaultTables()
	if ts.Dir != "" {
		t.Errorf("the default tables use the cache directory %q", ts.Dir)
	}
	if lim := ts.Limits(); lim != solved.DefaultLimits() || lim.DuelCache <= 0 || lim.SoloCache <= 0 {
		t.Errorf("default limits %+v: want memory caches bounded in bytes", lim)
	}
	if solved.DefaultTables() != ts {
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
