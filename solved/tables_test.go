package solved

import (
	"testing"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// short returns a preset with a lower target.
func short(base string, target int) rules.Rules {
	r := rules.MustPreset(base)
	r.Game.Target = target
	return r
}

// threeShort returns a preset for three seats in seat order with a lower
// target and no farkle penalty.
func threeShort(base string, target int) rules.Rules {
	r := short(base, target)
	r.Game.MaxPlayers = max(r.Game.MaxPlayers, 3)
	r.Game.MinPlayers = 1
	r.Game.FirstPlayer = rules.SeatOrder
	r.Turn.FarklePenalty = rules.Penalty{}
	return r
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

// A table in the cache directory (as farkle solve --players 3 writes it) is
// found by Tables.Three.
func TestTablesThreeReadsCacheDir(t *testing.T) {
	r := threeShort("cardgames", 600)
	dir := t.TempDir()
	th, _, _, err := solve.CachedThree(r, dir, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewTables(dir).Three(r)
	if err != nil {
		t.Fatal(err)
	}
	if got.Start() != th.Start() {
		t.Errorf("read %v, solved %v", got.Start(), th.Start())
	}
}
