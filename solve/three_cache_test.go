package solve

import (
	"bytes"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/farkle/farkle/rules"
)

func TestThreeCacheRoundTrip(t *testing.T) {
	r := threeRules(smallRules(t, "classic", 600))
	r.Turn.FarklePenalty = rules.Penalty{}
	dir := t.TempDir()
	th, loaded, stale, err := CachedThree(r, dir, ThreeOptions{Workers: 2})
	if err != nil || loaded || stale != nil {
		t.Fatalf("first: loaded %v stale %v err %v", loaded, stale, err)
	}
	again, loaded, stale, err := CachedThree(r, dir, ThreeOptions{Workers: 2})
	if err != nil || !loaded || stale != nil {
		t.Fatalf("second: loaded %v stale %v err %v", loaded, stale, err)
	}
	for i := range th.w {
		if th.w[i] != again.w[i] {
			t.Fatalf("value %d: %v, read back %v", i, th.w[i], again.w[i])
		}
	}
	if len(again.orbits) != len(th.orbits) || again.regret != th.regret || again.resid != th.resid {
		t.Fatalf("orbits %d/%d regret %v/%v", len(again.orbits), len(th.orbits), again.regret, th.regret)
	}
	for i, o := range th.orbits {
		p := again.orbits[i]
		if o.Scores != p.Scores || o.Mixed != p.Mixed || o.Amplitude != p.Amplitude || o.Regret != p.Regret {
			t.Fatalf("orbit %d: %+v read back %+v", i, o, p)
		}
		for k := range o.Mix {
			if o.Mix[k] != p.Mix[k] && !(math.IsNaN(o.Mix[k]) && math.IsNaN(p.Mix[k])) {
				t.Fatalf("orbit %d: %+v read back %+v", i, o, p)
			}
		}
	}
	// a flipped byte is refused and the file rebuilt
	name := ThreeCacheFile(dir, r, OrbitMixed)
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if _, err := ReadThree(bytes.NewReader(b), r, OrbitMixed, 0); !errors.Is(err, ErrCache) {
		t.Fatalf("corrupt file: %v", err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, loaded, stale, err := CachedThree(r, dir, ThreeOptions{Workers: 2}); err != nil || loaded || !errors.Is(stale, ErrCache) {
		t.Fatalf("after corruption: loaded %v stale %v err %v", loaded, stale, err)
	}
	// other rules, other rule
	r2 := r
	r2.Game.Target = 650
	if _, err := ReadThree(bytes.NewReader(b), r2, OrbitMixed, 0); !errors.Is(err, ErrCache) {
		t.Fatalf("other rules: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteThree(&buf, th); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadThree(bytes.NewReader(buf.Bytes()), r, OrbitPure, 0); !errors.Is(err, ErrCache) {
		t.Fatalf("other orbit rule: %v", err)
	}
}

// The in-turn answers agree with the table: the value of throwing all the
// dice at total 0 is the mover's table value (normal turns), the final
// round's p1 value, and the last player's chance.
func TestThreePositions(t *testing.T) {
	r := threeRules(smallRules(t, "pocket-farkel", 500))
	th := mustThree(t, r, ThreeOptions{Workers: 2})
	u := th.m.unit
	D := int32(th.m.dice)
	for _, s := range [][3]int32{{0, 0, 0}, {3, 7, 9}, {9, 2, 5}, {8, 8, 1}} {
		tt, err := th.turnOf(ThreePosition{Scores: [3]int{int(s[0]) * u, int(s[1]) * u, int(s[2]) * u}, Trigger: -1})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := tt.throw(0, D), th.w[th.tidx(s[0], s[1], s[2])]; !near(got, want, 1e-15) {
			t.Errorf("%v: turn %.17g, table %.17g", s, got, want)
		}
	}
	f := th.fin
	for _, s := range [][3]int32{{3, 7, 11}, {9, 2, 12}, {0, 9, 10}} { // p1, p2, trigger
		tt, err := th.turnOf(ThreePosition{Scores: [3]int{int(s[0]) * u, int(s[1]) * u, int(s[2]) * u}, Trigger: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := tt.throw(0, D), f.at(s[2], s[0], s[1])[1]; !near(got, want, 1e-15) {
			t.Errorf("p1 %v: turn %.17g, table %.17g", s, got, want)
		}
		// the last player: s[1] against the trigger and p1 banked at 12
		last, err := th.turnOf(ThreePosition{Scores: [3]int{int(s[1]) * u, int(s[2]) * u, 12 * u}, Trigger: 1})
		if err != nil {
			t.Fatal(err)
		}
		k := 1
		if s[2] == 12 {
			k = 2
		}
		_, want := f.endVec(12-s[1], k)
		if got := last.throw(0, D); !near(got, want, 1e-15) {
			t.Errorf("last %v: turn %.17g, table %.17g", s, got, want)
		}
	}
	if _, err := th.turnOf(ThreePosition{Scores: [3]int{600, 0, 0}, Trigger: -1}); !errors.Is(err, ErrPosition) {
		t.Errorf("mover above the target: %v", err)
	}
	if _, _, _, err := th.BankBest(ThreePosition{Scores: [3]int{0, 0, 0}, Trigger: -1, Total: 300, Dice: 3}); err != nil {
		t.Error(err)
	}
}

// TestThreeFairCompensation: the fair compensation is, among every start
// with points given to the seats (on the grid of 50 and the unit, one
// seat given none), one whose largest distance of a seat's chance from 1/3
// is least, its chances those WinProbabilities gives there, and no worse
// than the start without points.
func TestThreeFairCompensation(t *testing.T) {
	r := threeRules(smallRules(t, "pocket-farkel", 600))
	th := mustThree(t, r, ThreeOptions{Workers: 2})
	fc := th.FairCompensation()
	dist := func(w [3]float64) float64 {
		return max(math.Abs(w[0]-1.0/3), math.Abs(w[1]-1.0/3), math.Abs(w[2]-1.0/3))
	}
	got, err := th.WinProbabilities(fc.Points, 0)
	if err != nil || got != fc.Wins {
		t.Fatalf("compensation %+v: WinProbabilities %v (%v)", fc, got, err)
	}
	if min(fc.Points[0], fc.Points[1], fc.Points[2]) != 0 {
		t.Fatalf("compensation %+v gives every seat points", fc)
	}
	if dist(fc.Wins) > dist(th.Start())+1e-15 {
		t.Fatalf("compensation %+v is worse than none (%v)", fc, th.Start())
	}
	tried := 0
	for a := 0; a < 600; a += 50 {
		for b := 0; b < 600; b += 50 {
			for c := 0; c < 600; c += 50 {
				if min(a, b, c) != 0 {
					continue
				}
				w, err := th.WinProbabilities([3]int{a, b, c}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if dist(w) < dist(fc.Wins)-1e-15 {
					t.Fatalf("points %d %d %d give %v, closer to even than %+v", a, b, c, w, fc)
				}
				tried++
			}
		}
	}
	t.Logf("start %v; fair compensation %+v (of %d starts)", th.Start(), fc, tried)
	if fc.Points == [3]int{} {
		t.Fatalf("no compensation: the first seat's edge should be worth some points (start %v)", th.Start())
	}
}

// TestThreeThrowAndTriples: Throw at the start of a turn is the table's
// chance of the mover (WinProbabilities), and after a keep the throwing
// value BankBest gives; ThreeTriples is the target in units, cubed.
func TestThreeThrowAndTriples(t *testing.T) {
	r := threeRules(smallRules(t, "pocket-farkel", 500))
	th := mustThree(t, r, ThreeOptions{Workers: 2})
	if n, err := ThreeTriples(r); err != nil || n != int64(th.Triples()) || n != 10*10*10 {
		t.Fatalf("ThreeTriples %d (%v), table %d", n, err, th.Triples())
	}
	for _, s := range [][3]int{{0, 0, 0}, {150, 350, 0}, {450, 100, 400}} {
		w, err := th.WinProbabilities(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := th.Throw(ThreePosition{Scores: s, Trigger: -1, Dice: r.Dice})
		if err != nil || !near(got, w[0], 1e-15) {
			t.Errorf("%v: Throw %v (%v), table %v", s, got, err, w[0])
		}
		_, _, throw, err := th.BankBest(ThreePosition{Scores: s, Trigger: -1, Total: 100, Dice: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := th.Throw(ThreePosition{Scores: s, Trigger: -1, Total: 100, Dice: 3}); err != nil || got != throw {
			t.Errorf("%v: Throw after a keep %v (%v), BankBest's %v", s, got, err, throw)
		}
	}
	if _, err := th.Throw(ThreePosition{Trigger: -1, Dice: 0}); !errors.Is(err, ErrPosition) {
		t.Errorf("no dice: %v", err)
	}
}

// A table with farkle streaks (classic at a small target): the in-turn
// answers agree with the table at every triple of streaks (the farkle read
// at the state the mover's streak leads to, the bank at the others'
// streaks; within the last sweep's change, as a penalty's farkle was read
// from the sweep before), a streak outside the penalty's count is refused, and the cache
// file reads back every value.
func TestThreePenaltyPositionsAndCache(t *testing.T) {
	r := threeRules(smallRules(t, "classic", 300))
	dir := t.TempDir()
	th, loaded, _, err := CachedThree(r, dir, ThreeOptions{Workers: 2})
	if err != nil || loaded {
		t.Fatalf("loaded %v err %v", loaded, err)
	}
	u, D, C := th.m.unit, int32(th.m.dice), int32(th.Streaks())
	checked := 0
	for _, s := range [][3]int32{{0, 0, 0}, {3, 1, 5}, {5, 5, 0}, {2, 2, 2}} {
		for sa := int32(0); sa < C; sa++ {
			for sb := int32(0); sb < C; sb++ {
				for sc := int32(0); sc < C; sc++ {
					p := ThreePosition{Scores: [3]int{int(s[0]) * u, int(s[1]) * u, int(s[2]) * u}, Trigger: -1, Streaks: [3]int{int(sa), int(sb), int(sc)}}
					tt, err := th.turnOf(p)
					if err != nil {
						t.Fatal(err)
					}
					want := th.w[th.tsidx(s[0], s[1], s[2], th.sidx(sa, sb, sc))]
					if got := tt.throw(0, D); !near(got, want, max(1e-15, 2*th.change)) {
						t.Fatalf("%v streaks %v: turn %.17g, table %.17g", s, p.Streaks, got, want)
					}
					checked++
				}
			}
		}
	}
	if checked != 4*27 {
		t.Fatalf("%d states checked", checked)
	}
	if _, err := th.turnOf(ThreePosition{Trigger: -1, Streaks: [3]int{0, 3, 0}}); !errors.Is(err, ErrPosition) {
		t.Errorf("streak 3 of a penalty after 3: %v", err)
	}
	again, loaded, stale, err := CachedThree(r, dir, ThreeOptions{Workers: 2})
	if err != nil || !loaded || stale != nil {
		t.Fatalf("read back: loaded %v stale %v err %v", loaded, stale, err)
	}
	if len(again.w) != len(th.w) || again.Streaks() != 3 {
		t.Fatalf("read back %d values, %d streaks; solved %d", len(again.w), again.Streaks(), len(th.w))
	}
	for i := range th.w {
		if th.w[i] != again.w[i] {
			t.Fatalf("value %d: %v, read back %v", i, th.w[i], again.w[i])
		}
	}
}
