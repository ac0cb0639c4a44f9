package solve

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
)

func mustThree(t testing.TB, r rules.Rules, opt ThreeOptions) *Three {
	t.Helper()
	th, err := SolveThree(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// threeRules returns r with three seats allowed.
func threeRules(r rules.Rules) rules.Rules {
	r.Game.MinPlayers = 1
	r.Game.MaxPlayers = max(r.Game.MaxPlayers, 3)
	return r
}

// With one die scoring only a 1 and a target of one throw, the mover wins
// with a 1 (1/6) and otherwise passes the turn: P = (1/6) / (1 - (5/6)^3)
// = 36/91 for the first seat, then 30/91 and 25/91.
func TestThreeOneThrowByHand(t *testing.T) {
	th := mustThree(t, threeRules(tinyRules(t, 100, rules.EndImmediate)), ThreeOptions{})
	got := th.Start()
	want := [3]float64{36.0 / 91, 30.0 / 91, 25.0 / 91}
	for i := range got {
		if !near(got[i], want[i], 1e-15) {
			t.Errorf("seat %d: %.17g, want %.17g", i, got[i], want[i])
		}
	}
}

// bfState is a state of the brute-force game: scores and farkle streaks by
// seat, the seat to move, its turn total and the seat that reached the
// target first (-1: none yet), all in units.
type bfState struct {
	s, streak    [3]int
	mover, total int
	trig         int
}

// bfRules are the rules of the brute-force game beyond tinyRules' die:
// target, ending, the turn total forced to bank (tmax), and the farkle
// penalty (pen points, in units, on the count-th farkle in a row; count 0:
// none), the entry minimum and the bank minimum of every turn (units), as
// in the rules.
type bfRules struct {
	target    int
	immediate bool
	tmax      int
	count     int
	pen       int
	entry     int
	bank      int
	faces     int // faces scoring one unit: "1" up to this (tinyRules: 1)
}

// bruteThree plays the one-die game of tinyRules (a 1 scores one unit and
// gives hot dice, anything else farkles) by value iteration over every
// reachable state, each mover maximising its own chance (banking when
// banking and throwing are worth the same to it), until no value moves by
// 1e-15. Turn totals stop at tmax (a forced bank: (faces/6)^tmax below
// 3e-16).
func bruteThree(t *testing.T, g bfRules) map[bfState][3]float64 {
	t.Helper()
	target, immediate, tmax := g.target, g.immediate, g.tmax
	type vec = [3]float64
	over := func(s [3]int) vec {
		hi := max(s[0], s[1], s[2])
		var v vec
		k := 0.0
		for i := range s {
			if s[i] == hi {
				k++
			}
		}
		for i := range s {
			if s[i] == hi {
				v[i] = 1 / k
			}
		}
		return v
	}
	// endTurn returns the state after the mover's turn ends, banking add
	// (a farkle with farkled), or the game's result (done).
	endTurn := func(st bfState, add int, farkled bool) (bfState, vec, bool) {
		s, k := st.s, st.streak
		if farkled {
			if g.count > 0 {
				k[st.mover]++
				if k[st.mover] == g.count {
					s[st.mover] = max(0, s[st.mover]-g.pen)
					k[st.mover] = 0
				}
			}
		} else {
			s[st.mover] += add
			k[st.mover] = 0
		}
		trig := st.trig
		if trig < 0 && s[st.mover] >= target {
			if immediate {
				var v vec
				v[st.mover] = 1
				return bfState{}, v, true
			}
			trig = st.mover
		}
		next := (st.mover + 1) % 3
		if trig >= 0 && next == trig {
			return bfState{}, over(s), true
		}
		return bfState{s: s, streak: k, mover: next, trig: trig}, vec{}, false
	}
	canBank := func(st bfState) bool {
		return st.total > 0 && st.total >= g.bank && (st.s[st.mover] > 0 || st.total >= g.entry)
	}
	// reachable states
	var order []bfState
	start := bfState{trig: -1}
	seen := map[bfState]bool{start: true}
	queue := []bfState{start}
	push := func(s bfState) {
		if !seen[s] {
			seen[s] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		order = append(order, st)
		if st.total < tmax {
			n := st
			n.total++
			push(n)
		}
		if n, _, done := endTurn(st, 0, true); !done {
			push(n)
		}
		if canBank(st) {
			if n, _, done := endTurn(st, st.total, false); !done {
				push(n)
			}
		}
	}
	// each state's successors: up (the next throw scores), far (a
	// farkle) and bank, by index in order, or the result where the game
	// ends (-1 with its vector); bank -2 where banking is not allowed
	idx := make(map[bfState]int, len(order))
	for i, st := range order {
		idx[st] = i
	}
	type next struct {
		i int
		v vec
	}
	succ := func(st bfState, add int, farkled bool) next {
		n, v, done := endTurn(st, add, farkled)
		if done {
			return next{-1, v}
		}
		return next{idx[n], vec{}}
	}
	ups := make([]int, len(order))
	fars := make([]next, len(order))
	banks := make([]next, len(order))
	for i, st := range order {
		ups[i] = -1
		if st.total < tmax {
			n := st
			n.total++
			ups[i] = idx[n]
		}
		fars[i] = succ(st, 0, true)
		banks[i] = next{-2, vec{}}
		if canBank(st) {
			banks[i] = succ(st, st.total, false)
		}
	}
	vals := make([]vec, len(order))
	at := func(n next) vec {
		if n.i < 0 {
			return n.v
		}
		return vals[n.i]
	}
	// preds[i]: the states that read state i; a state none of whose
	// successors changed since it was last computed would get the same
	// value again, so only the states marked (dirty) are computed
	preds := make([][]int32, len(order))
	for i := range order {
		for _, j := range []int{ups[i], fars[i].i, banks[i].i} {
			if j >= 0 {
				preds[j] = append(preds[j], int32(i))
			}
		}
	}
	dirty := make([]bool, len(order))
	for i := range dirty {
		dirty[i] = true
	}
	p := float64(g.faces) / 6
	lastChange := 0.0
	for sweep := 0; ; sweep++ {
		if sweep > 100000 {
			t.Fatalf("brute force did not settle: last change %.3g", lastChange)
		}
		change := 0.0
		for i := len(order) - 1; i >= 0; i-- {
			if !dirty[i] {
				continue
			}
			dirty[i] = false
			var v vec
			if ups[i] >= 0 {
				up, far := vals[ups[i]], at(fars[i])
				for c := range v {
					v[c] = p*up[c] + (1-p)*far[c]
				}
			}
			mover := order[i].mover
			if banks[i].i != -2 {
				b := at(banks[i])
				if ups[i] < 0 || b[mover] >= v[mover] {
					v = b
				}
			} else if ups[i] < 0 {
				v = at(fars[i]) // no bank allowed: taken as a farkle
			}
			old := vals[i]
			for c := range v {
				change = max(change, math.Abs(v[c]-old[c]))
			}
			if v != old {
				for _, j := range preds[i] {
					dirty[j] = true
				}
			}
			vals[i] = v
		}
		if change < 1e-15 {
			out := make(map[bfState]vec, len(order))
			for i, st := range order {
				out[st] = vals[i]
			}
			return out
		}
		lastChange = change
	}
}

// The table against the brute force of the whole game, with both endings,
// at every triple of scores.
func TestThreeBruteForce(t *testing.T) {
	for _, c := range []struct {
		ending  string
		targets []int
	}{{rules.EndImmediate, []int{200, 400}}, {rules.EndFinalRound, []int{200, 300}}} {
		ending := c.ending
		for i, target := range c.targets {
			if i > 0 && testing.Short() {
				break
			}
			r := threeRules(tinyRules(t, target, ending))
			th := mustThree(t, r, ThreeOptions{Workers: 2})
			bf := bruteThree(t, bfRules{target: target / 100, immediate: ending == rules.EndImmediate, tmax: 20, faces: 1})
			A := int32(target / 100)
			worst := 0.0
			for a := int32(0); a < A; a++ {
				for b := int32(0); b < A; b++ {
					for c := int32(0); c < A; c++ {
						want := bf[bfState{s: [3]int{int(a), int(b), int(c)}, trig: -1}]
						i := th.tidx(a, b, c)
						for k := 0; k < 3; k++ {
							worst = max(worst, math.Abs(th.w[i+k]-want[k]))
						}
					}
				}
			}
			if worst > 1e-12 {
				t.Errorf("%s target %d: differs from the brute force by %.3g", ending, target, worst)
			}
			if len(th.Orbits()) != 0 {
				t.Errorf("%s target %d: %d orbits in a tiny game", ending, target, len(th.Orbits()))
			}
			t.Logf("%s target %d: start %.15f, largest difference %.2g", ending, target, th.Start(), worst)
		}
	}
}

// With a farkle penalty (and an entry minimum) the table against the brute
// force of the whole game at every triple of scores and every triple of
// streaks: the sweeps stop within 1e-9 of the fixed point.
func TestThreeBruteForcePenalty(t *testing.T) {
	for _, c := range []struct {
		ending             string
		target, count, pen int
		entry              int
	}{
		{rules.EndImmediate, 300, 3, 1, 0},
		{rules.EndFinalRound, 300, 3, 2, 0},
		{rules.EndFinalRound, 300, 2, 1, 2},
		{rules.EndImmediate, 400, 3, 10, 2},
		{rules.EndFinalRound, 400, 3, 1, 0},
	} {
		name := fmt.Sprintf("%s target %d penalty %d after %d entry %d", c.ending, c.target, 100*c.pen, c.count, 100*c.entry)
		t.Run(name, func(t *testing.T) {
			if c.target > 300 {
				testflags.SkipUnlessLong(t, "a brute force of a minute")
			}
			r := threeRules(tinyRules(t, c.target, c.ending))
			r.Scoring.Single = map[string]int{"1": 100, "2": 100}
			r.Turn.FarklePenalty = rules.Penalty{Count: c.count, Points: 100 * c.pen}
			r.Turn.EntryMinimum = 100 * c.entry
			th := mustThree(t, r, ThreeOptions{Workers: 2})
			if th.Streaks() != c.count {
				t.Fatalf("%d streak states", th.Streaks())
			}
			bf := bruteThree(t, bfRules{target: c.target / 100, immediate: c.ending == rules.EndImmediate, tmax: 24, count: c.count, pen: c.pen, entry: c.entry, faces: 2})
			A := int32(c.target / 100)
			worst, n := bruteTableDiff(th, bf)
			if n < int(A*A*A) {
				t.Fatalf("only %d states compared", n)
			}
			if worst > 1e-9 {
				t.Errorf("differs from the brute force by %.3g", worst)
			}
			t.Logf("%d states, start %.15f, %d sweeps, largest difference %.2g, orbits %d", n, th.Start(), th.sweeps, worst, len(th.Orbits()))
		})
	}
}

// bruteTableDiff returns the largest difference between th's values and
// the brute force's at the start of a turn before the final round, every
// triple of scores and of streaks the brute force reached, and how many
// states it compared.
func bruteTableDiff(th *Three, bf map[bfState][3]float64) (float64, int) {
	worst, n := 0.0, 0
	C := th.c
	for a := int32(0); a < th.A; a++ {
		for b := int32(0); b < th.A; b++ {
			for d := int32(0); d < th.A; d++ {
				for sa := int32(0); sa < C; sa++ {
					for sb := int32(0); sb < C; sb++ {
						for sd := int32(0); sd < C; sd++ {
							want, ok := bf[bfState{s: [3]int{int(a), int(b), int(d)}, streak: [3]int{int(sa), int(sb), int(sd)}, trig: -1}]
							if !ok {
								continue // not reachable
							}
							n++
							i := th.tsidx(a, b, d, th.sidx(sa, sb, sd))
							for k := 0; k < 3; k++ {
								worst = max(worst, math.Abs(th.w[i+k]-want[k]))
							}
						}
					}
				}
			}
		}
	}
	return worst, n
}

// brutePositionDiff returns the largest difference between the mover's
// chance at every state of the brute force with a turn total up to
// maxTotal (turn totals and final rounds included; the brute force's
// forced bank at tmax is then too far to matter) and the bot's questions
// at that position: the most of Throw (one die) and, where BankBest
// allows banking, its bank value; and how many positions it compared.
// Banking must be allowed exactly where the brute force allows it
// (canBank: the rules read independently).
func brutePositionDiff(t *testing.T, th *Three, bf map[bfState][3]float64, maxTotal int, canBank func(bfState) bool) (float64, int) {
	t.Helper()
	u := th.Unit()
	worst, n := 0.0, 0
	// the positions of one turn together: the bot keeps a few turns
	var sts []bfState
	for st := range bf {
		if st.total <= maxTotal {
			sts = append(sts, st)
		}
	}
	slices.SortFunc(sts, func(x, y bfState) int {
		return cmp.Or(slices.Compare(x.s[:], y.s[:]), slices.Compare(x.streak[:], y.streak[:]), cmp.Compare(x.mover, y.mover), cmp.Compare(x.trig, y.trig), cmp.Compare(x.total, y.total))
	})
	for _, st := range sts {
		v := bf[st]
		var p ThreePosition
		for i := range 3 {
			seat := (st.mover + i) % 3
			p.Scores[i] = st.s[seat] * u
			if st.trig < 0 {
				p.Streaks[i] = st.streak[seat]
			}
		}
		p.Trigger = -1
		if st.trig >= 0 {
			p.Trigger = (st.trig - st.mover + 3) % 3
		}
		p.Total, p.Dice = st.total*u, 1
		got, err := th.Throw(p)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		p.Dice = 0 // after the keep of the die: banking, or hot dice
		_, bank, _, err := th.BankBest(p)
		if (err == nil) != (st.total > 0 && canBank(st)) {
			t.Fatalf("%+v: BankBest %v, the brute force allows a bank: %v", p, err, canBank(st))
		}
		if err == nil {
			got = max(got, bank)
		}
		worst = max(worst, math.Abs(got-v[st.mover]))
		n++
	}
	return worst, n
}

// With a bank minimum (every turn, every score) the table and the bot's
// positions against the brute force of the whole game: with both endings
// (in the final round a player that cannot reach the minimum banks
// nothing, and less than the minimum behind it must bank the minimum and
// cannot tie), with an entry minimum on top and with a farkle penalty.
func TestThreeBruteForceBankMinimum(t *testing.T) {
	for _, c := range []struct {
		ending              string
		target, bank, entry int
		count, pen          int
	}{
		{rules.EndImmediate, 500, 2, 0, 0, 0},
		{rules.EndFinalRound, 400, 2, 0, 0, 0},
		{rules.EndFinalRound, 500, 3, 0, 0, 0},
		{rules.EndFinalRound, 500, 2, 3, 0, 0},
		{rules.EndImmediate, 300, 2, 0, 3, 1},
		{rules.EndFinalRound, 300, 2, 0, 3, 1},
	} {
		name := fmt.Sprintf("%s target %d bank %d entry %d penalty %d after %d", c.ending, c.target, 100*c.bank, 100*c.entry, 100*c.pen, c.count)
		t.Run(name, func(t *testing.T) {
			if c.pen > 0 && c.ending == rules.EndFinalRound && testing.Short() {
				t.Skip("-short: the penalty's brute force with a final round takes some ten seconds")
			}
			r := threeRules(tinyRules(t, c.target, c.ending))
			r.Scoring.Single = map[string]int{"1": 100, "2": 100}
			r.Turn.BankMinimum = 100 * c.bank
			r.Turn.EntryMinimum = 100 * c.entry
			r.Turn.FarklePenalty = rules.Penalty{Count: c.count, Points: 100 * c.pen}
			th := mustThree(t, r, ThreeOptions{Workers: 2})
			// turn totals stop at 26: a position up to 5 is within
			// (1/3)^21 of the game without the stop
			g := bfRules{target: c.target / 100, immediate: c.ending == rules.EndImmediate, tmax: 26, count: c.count, pen: c.pen, entry: c.entry, bank: c.bank, faces: 2}
			if c.pen > 0 {
				g.tmax = 24 // a position up to 3 is within (1/3)^21
			}
			bf := bruteThree(t, g)
			worst, n := bruteTableDiff(th, bf)
			// the scores a minimum of m units leaves: 0, then m and on
			// (a penalty of one unit reaches the others)
			A, k := int(th.A), 1+int(th.A)-max(c.bank, c.entry)
			if c.pen > 0 {
				k = A
			}
			if n < k*k*k {
				t.Fatalf("only %d states compared", n)
			}
			if worst > 1e-9 {
				t.Errorf("the table differs from the brute force by %.3g", worst)
			}
			pw, pn := brutePositionDiff(t, th, bf, g.tmax-21, func(st bfState) bool {
				return st.total >= c.bank && (st.s[st.mover] > 0 || st.total >= c.entry)
			})
			if pw > 1e-9 {
				t.Errorf("the positions differ from the brute force by %.3g", pw)
			}
			t.Logf("%d states, %d positions, start %.15f, %d sweeps, largest difference %.2g (positions %.2g), orbits %d", n, pn, th.Start(), th.sweeps, worst, pw, len(th.Orbits()))
		})
	}
}

// The last player of a final round against one leader is the duel's last
// turn: the same chances (a tie counting 1/2), also under a bank minimum
// (less than it behind, the last player must bank it and cannot tie).
func TestThreeLastTurnIsDuels(t *testing.T) {
	for _, c := range []struct {
		name string
		bank int
	}{{"pocket-farkel", 0}, {"classic", 0}, {"pocket-farkel", 300}, {"classic", 350}} {
		r := rules.MustPreset(c.name)
		r.Turn.FarklePenalty = rules.Penalty{}
		r.Turn.BankMinimum = c.bank
		m := newModel(r)
		fr := m.newFinalRound()
		f := m.newLast3()
		if f.lx != int32(len(fr.fr)) || f.bm != max(1, int32(c.bank/50)) {
			t.Fatalf("%s bank %d: lx %d, bank minimum %d units", c.name, c.bank, f.lx, f.bm)
		}
		for d := int32(1); d < f.lx; d++ {
			x, y := f.lastPassTie(d, 1)
			if !near(x+y/2, fr.at(d), 1e-14) {
				t.Fatalf("%s bank %d: d=%d: %.17g, duel %.17g", c.name, c.bank, d, x+y/2, fr.at(d))
			}
			if d < f.bm && y != 0 {
				t.Fatalf("%s bank %d: d=%d: a tie below the bank minimum", c.name, c.bank, d)
			}
		}
	}
}

// threeSums checks that every value of th lies in [0, 1] and returns how
// far the chances of a state sum from 1 at most.
func threeSums(t *testing.T, name string, th *Three) float64 {
	t.Helper()
	worst := 0.0
	for i := 0; i < len(th.w); i += 3 {
		for k := 0; k < 3; k++ {
			if v := th.w[i+k]; !(v >= 0 && v <= 1) {
				t.Fatalf("%s: value %v", name, v)
			}
		}
		worst = max(worst, math.Abs(th.w[i]+th.w[i+1]+th.w[i+2]-1))
	}
	return worst
}

// Invariants on the presets without a penalty at a small target: chances
// sum to 1 (up to the final round's neglected 2e-13), lie in [0, 1], and the
// seats' start chances fall in turn order; WinProbabilities rotates.
func TestThreeInvariants(t *testing.T) {
	for _, name := range []string{"pocket-farkel", "cardgames", "classic"} {
		r := threeRules(smallRules(t, name, 600))
		r.Turn.FarklePenalty = rules.Penalty{}
		th := mustThree(t, r, ThreeOptions{Workers: 2})
		worst := threeSums(t, name, th)
		if worst > 1e-12 {
			t.Errorf("%s: chances sum to 1 within %.3g only", name, worst)
		}
		s := th.Start()
		if !(s[0] > s[1] && s[1] > s[2]) {
			t.Errorf("%s: start %v not falling in turn order", name, s)
		}
		// WinProbabilities by seat is the table rotated
		p, err := th.WinProbabilities([3]int{300, 0, 150}, 2)
		if err != nil {
			t.Fatal(err)
		}
		i := th.tidx(3, 6, 0)
		if p != [3]float64{th.w[i+1], th.w[i+2], th.w[i]} {
			t.Errorf("%s: WinProbabilities %v, table %v", name, p, th.w[i:i+3])
		}
		t.Logf("%s target 600: start %.6f, orbits %d, residual %.2g, %.2fs", name, s, len(th.Orbits()), th.Residual(), th.Seconds())
	}
}

// Invariants with a farkle penalty (classic, Farkle Dice with its entry
// minimum lowered to fit the target) at a small target, at every state of
// scores and streaks: chances sum to 1 (up to the final round's neglected
// 2e-13 and the sweeps' 1e-9), lie in [0, 1]; the start falls in turn
// order; a seat with a farkle streak is worse off than without one; and
// the sweeps' estimated error is below 1e-9.
func TestThreeInvariantsPenalty(t *testing.T) {
	for _, c := range []struct {
		name          string
		target, entry int
	}{{"classic", 300, 0}, {"farkle-dice", 250, 150}} {
		r := threeRules(rules.MustPreset(c.name))
		r.Game.Target = c.target
		if c.entry > 0 {
			r.Turn.EntryMinimum = c.entry
		}
		th := mustThree(t, r, ThreeOptions{Workers: 2})
		if th.Streaks() != 3 {
			t.Fatalf("%s: %d streak states", c.name, th.Streaks())
		}
		worst := threeSums(t, c.name, th)
		if worst > 1e-9 {
			t.Errorf("%s: chances sum to 1 within %.3g only", c.name, worst)
		}
		s := th.Start()
		if !(s[0] > s[1] && s[1] > s[2]) {
			t.Errorf("%s: start %v not falling in turn order", c.name, s)
		}
		for a := int32(0); a < th.A; a++ {
			for b := int32(0); b < th.A; b++ {
				for d := int32(0); d < th.A; d++ {
					base := th.tsidx(a, b, d, 0)
					for sa := int32(1); sa < 3; sa++ {
						i := th.tsidx(a, b, d, th.sidx(sa, 0, 0))
						if th.w[i] > th.w[base]+1e-9 {
							t.Fatalf("%s: (%d, %d, %d): the mover's chance %.12f with streak %d, %.12f without", c.name, a, b, d, th.w[i], sa, th.w[base])
						}
					}
				}
			}
		}
		if th.errEst > 1e-9 || th.sweeps < 2 {
			t.Errorf("%s: %d sweeps, estimated error %.3g", c.name, th.sweeps, th.errEst)
		}
		t.Logf("%s target %d: start %.9f, %d sweeps (last change %.2g, error %.2g), orbits %d, residual %.2g, sum within %.2g", c.name, c.target, s, th.sweeps, th.change, th.errEst, len(th.Orbits()), th.Residual(), worst)
	}
}

// Invariants under a bank minimum (every turn), without and with a farkle
// penalty, with both endings, at small targets: at every state the
// chances sum to 1 (up to the final round's neglected 2e-13 and, with a
// penalty, the sweeps' 1e-9) and lie in [0, 1]; the start falls in turn
// order.
func TestThreeInvariantsBankMinimum(t *testing.T) {
	for _, c := range []struct {
		name                string
		target, bank, entry int
		penalty             bool
	}{
		{"pocket-farkel", 600, 300, 0, false},
		{"cardgames", 600, 300, 0, false},
		{"classic", 300, 200, 0, true},
		{"farkle-dice", 250, 100, 150, true},
	} {
		r := threeRules(rules.MustPreset(c.name))
		r.Game.Target = c.target
		if c.entry > 0 {
			r.Turn.EntryMinimum = c.entry
		}
		if !c.penalty {
			r.Turn.FarklePenalty = rules.Penalty{}
		}
		r.Turn.BankMinimum = c.bank
		th := mustThree(t, r, ThreeOptions{Workers: 2})
		tol := 1e-12
		if c.penalty {
			tol = 1e-9
			if th.Streaks() != 3 || th.errEst > 1e-9 {
				t.Errorf("%s: %d streak states, estimated error %.3g", c.name, th.Streaks(), th.errEst)
			}
		}
		worst := threeSums(t, c.name, th)
		if worst > tol {
			t.Errorf("%s: chances sum to 1 within %.3g only", c.name, worst)
		}
		s := th.Start()
		if !(s[0] > s[1] && s[1] > s[2]) {
			t.Errorf("%s: start %v not falling in turn order", c.name, s)
		}
		t.Logf("%s target %d bank minimum %d: start %.9f, %d sweeps, orbits %d, regret %.2g, sum within %.2g", c.name, c.target, c.bank, s, th.sweeps, len(th.Orbits()), th.Regret(), worst)
	}
}

func TestThreeRefuses(t *testing.T) {
	// a turn that can end with nothing (no hot dice, a bank or entry
	// minimum) under a penalty: refused; with hot dice, or without the
	// penalty, solvable
	r := threeRules(smallRules(t, "classic", 500))
	r.Turn.BankMinimum = 300
	r.Turn.HotDice = false
	if _, err := SolveThree(r, ThreeOptions{}); !errors.Is(err, ErrThreeBankMinimum) || !errors.Is(err, ErrRules) {
		t.Errorf("classic without hot dice with a bank minimum: %v", err)
	}
	r.Turn.BankMinimum, r.Turn.EntryMinimum = 0, 300
	if err := CheckThreeRules(r); !errors.Is(err, ErrThreeBankMinimum) {
		t.Errorf("classic without hot dice with an entry minimum: %v", err)
	}
	for _, ok := range []func(*rules.Rules){
		func(r *rules.Rules) { r.Turn.HotDice = true },
		func(r *rules.Rules) { r.Turn.FarklePenalty = rules.Penalty{} },
		func(r *rules.Rules) { r.Turn.EntryMinimum = 50 }, // one unit: never binds
	} {
		q := r
		ok(&q)
		q.Turn.BankMinimum = q.Turn.EntryMinimum
		if err := CheckThreeRules(q); err != nil {
			t.Errorf("%+v: %v", q.Turn, err)
		}
	}
	// classic's penalty puts the streaks in the state: 27 times the
	// triples, and so the memory
	c := rules.MustPreset("classic")
	np := c
	np.Turn.FarklePenalty = rules.Penalty{}
	nc, err1 := ThreeTriples(c)
	nn, err2 := ThreeTriples(np)
	bc, err3 := ThreeBytes(c, 2)
	bn, err4 := ThreeBytes(np, 2)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	if nc != 27*nn || nn != 200*200*200 || bc < 8*3*nc || bc < 20*bn {
		t.Errorf("classic: %d states (%d without its penalty), %d bytes (%d)", nc, nn, bc, bn)
	}
	var tl *TooLargeError
	if _, err := SolveThree(c, ThreeOptions{MaxBytes: 4 << 30}); !errors.As(err, &tl) || tl.Need < 8*3*nc || !strings.Contains(err.Error(), "times 27 triples of farkle streaks") {
		t.Errorf("classic in 4 GiB: %v", err)
	}
	if _, err := SolveThree(rules.MustPreset("cardgames"), ThreeOptions{}); !errors.Is(err, ErrRules) {
		t.Errorf("cardgames (two seats): %v", err)
	}
	r = rules.MustPreset("pocket-farkel")
	if _, err := SolveThree(r, ThreeOptions{MaxBytes: 64 << 20}); !errors.As(err, &tl) || tl.Need < 8*3*200*200*200 {
		t.Errorf("pocket-farkel in 64 MiB: %v", err)
	}
}

// Classic without its penalty at target 1000 has score triples where the
// movers' best responses cycle: each is resolved by a mixed equilibrium
// that no mover can improve on alone (checked with the turn's programme),
// and the pure rule's profile leaves a regret.
func TestThreeOrbits(t *testing.T) {
	r := threeRules(smallRules(t, "classic", 1000))
	r.Turn.FarklePenalty = rules.Penalty{}
	mixed := mustThree(t, r, ThreeOptions{Workers: 2})
	pure := mustThree(t, r, ThreeOptions{Workers: 2, Rule: OrbitPure})
	if len(mixed.Orbits()) == 0 {
		t.Fatal("no orbits")
	}
	for _, o := range mixed.Orbits() {
		if !o.Mixed || o.Regret > 1e-12 || o.Amplitude <= 0 {
			t.Errorf("orbit %+v", o)
		}
		n := 0
		for _, m := range o.Mix {
			if !math.IsNaN(m) {
				n++
				if m < 0 || m > 1 {
					t.Errorf("orbit %v: weight %v", o.Scores, m)
				}
			}
		}
		if n == 0 {
			t.Errorf("orbit %v resolved without a mix", o.Scores)
		}
	}
	if pure.Regret() <= 1e-9 {
		t.Errorf("the pure rule's regret %.3g: the orbits had a pure equilibrium", pure.Regret())
	}
	ms, ps := mixed.Start(), pure.Start()
	d := 0.0
	for i := range ms {
		d = max(d, math.Abs(ms[i]-ps[i]))
	}
	if d > 1e-4 {
		t.Errorf("start values depend on the rule by %.3g", d)
	}
	t.Logf("%d orbits; start mixed %.12f pure %.12f (differ by %.2g); pure regret %.2g", len(mixed.Orbits()), ms, ps, d, pure.Regret())
}

// The table does not depend on the number of workers (orbits included):
// a cache file is the same whoever solved it.
func TestThreeDeterministic(t *testing.T) {
	r := threeRules(smallRules(t, "classic", 600))
	r.Turn.FarklePenalty = rules.Penalty{}
	a := mustThree(t, r, ThreeOptions{Workers: 1})
	b := mustThree(t, r, ThreeOptions{Workers: 3})
	if len(a.Orbits()) == 0 || len(a.Orbits()) != len(b.Orbits()) {
		t.Fatalf("orbits %d and %d", len(a.Orbits()), len(b.Orbits()))
	}
	for i := range a.w {
		if a.w[i] != b.w[i] {
			t.Fatalf("value %d: %v with one worker, %v with three", i, a.w[i], b.w[i])
		}
	}
}

// The pruned options (only where the own after-keep values do not decrease)
// give the same table as comparing every option everywhere: the same
// choices, the values up to the rounding of summing the throws' groups in
// another order.
func TestThreePrunedSame(t *testing.T) {
	for _, name := range []string{"pocket-farkel", "cardgames"} {
		r := threeRules(smallRules(t, name, 600))
		start, cpu := time.Now(), userCPU()
		pruned := mustThree(t, r, ThreeOptions{Workers: 1})
		tp, cp := time.Since(start), userCPU()-cpu
		start, cpu = time.Now(), userCPU()
		all := mustThree(t, r, ThreeOptions{Workers: 1, test: threeTest{allOptions: true}})
		ta, ca := time.Since(start), userCPU()-cpu
		for i := range all.w {
			if !near(all.w[i], pruned.w[i], 1e-12) {
				t.Fatalf("%s: value %d: %v pruned, %v with every option", name, i, pruned.w[i], all.w[i])
			}
		}
		if len(all.Orbits()) != len(pruned.Orbits()) {
			t.Errorf("%s: %d orbits pruned, %d with every option", name, len(pruned.Orbits()), len(all.Orbits()))
		}
		t.Logf("%s target 600: pruned %v (user %v), every option %v (user %v)", name, tp, cp, ta, ca)
	}
}

// userCPU is the process's user CPU time so far.
func userCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}

// Progress starts at 0, never goes back, ends at its total, and the work of
// a sum counts every triple of it once: sumWork's triple count is the
// number of triples of the sum, and the sums' counts add up to A^3.
func TestThreeProgress(t *testing.T) {
	r := threeRules(smallRules(t, "cardgames", 400))
	var calls [][2]int
	mustThree(t, r, ThreeOptions{Workers: 2, Progress: func(done, total int) {
		calls = append(calls, [2]int{done, total})
	}})
	if len(calls) < 2 || calls[0][0] != 0 {
		t.Fatalf("calls %v", calls)
	}
	total := calls[0][1]
	for i, c := range calls {
		if c[1] != total || i > 0 && c[0] < calls[i-1][0] {
			t.Fatalf("call %d: %v after %v", i, c, calls[max(i-1, 0)])
		}
	}
	if last := calls[len(calls)-1]; last[0] != total {
		t.Errorf("ends at %v", last)
	}
	const A = 9
	all := 0
	for s := int32(0); s <= 3*(A-1); s++ {
		n := 0
		for a := int32(0); a < A; a++ {
			for b := int32(0); b < A; b++ {
				if c := s - a - b; c >= 0 && c < A {
					n++
				}
			}
		}
		if got := sumWork(A, s, 0) / int(3*A-s); got != n {
			t.Errorf("sum %d: %d triples counted, %d there", s, got, n)
		}
		all += n
	}
	if all != A*A*A {
		t.Errorf("%d triples", all)
	}
}

// TestThreeLanesSameAsAlone solves three-player tables with the triples of
// a sum side by side (the solver) and each alone, each with the throws no
// better than banking skipped (the solver) and without: the tables, orbits
// included, must be the same to the last bit. The rule sets cover a final
// round (pocket-farkel, classic without its penalty: orbits), the
// immediate ending (cardgames), classic's farkle penalty (each seat's
// streak in the state), a bank minimum (pocket-farkel, and classic with
// its penalty) and the pruned options switched off.
func TestThreeLanesSameAsAlone(t *testing.T) {
	t.Parallel()
	type tc struct {
		name    string
		target  int
		all     bool
		penalty bool // keep the preset's farkle penalty (each seat's streak in the state)
		bank    int  // the bank minimum (every turn)
	}
	cases := []tc{{"cardgames", 800, false, false, 0}, {"pocket-farkel", 500, false, false, 0}, {"classic", 600, false, false, 0}, {"cardgames", 400, true, false, 0},
		{"classic", 300, false, true, 0}, {"pocket-farkel", 500, false, false, 300}, {"classic", 300, false, true, 200}}
	variants := [][2]bool{{true, true}, {false, true}}
	if testing.Short() {
		// the solver against the plain one; pocket-farkel has an orbit
		cases = []tc{{"cardgames", 600, false, false, 0}, {"pocket-farkel", 500, false, false, 0}, {"cardgames", 400, true, false, 0}, {"classic", 300, false, true, 0},
			{"pocket-farkel", 500, false, false, 300}, {"classic", 300, false, true, 200}}
		variants = variants[:1]
	}
	for _, c := range cases {
		r := threeRules(smallRules(t, c.name, c.target))
		if !c.penalty {
			r.Turn.FarklePenalty = rules.Penalty{}
		}
		r.Turn.BankMinimum = c.bank
		plain := mustThree(t, r, ThreeOptions{Workers: 1, test: threeTest{alone: true, noSkip: true, allOptions: c.all}})
		for _, v := range variants {
			side := mustThree(t, r, ThreeOptions{Workers: 2, test: threeTest{alone: !v[0], noSkip: !v[1], allOptions: c.all}})
			for i := range plain.w {
				if math.Float64bits(side.w[i]) != math.Float64bits(plain.w[i]) {
					t.Fatalf("%s %d (every option %v): value %d is %v with side by side %v and skips %v, %v alone without", c.name, c.target, c.all, i, side.w[i], v[0], v[1], plain.w[i])
				}
			}
			ao, so := plain.Orbits(), side.Orbits()
			if len(ao) != len(so) {
				t.Fatalf("%s: %d orbits with side by side %v and skips %v, %d alone without", c.name, len(so), v[0], v[1], len(ao))
			}
			for i := range ao {
				if ao[i].Scores != so[i].Scores || ao[i].Regret != so[i].Regret {
					t.Errorf("%s: orbit %d: %+v with side by side %v and skips %v, %+v alone without", c.name, i, so[i], v[0], v[1], ao[i])
				}
			}
		}
		t.Logf("%s %d (bank minimum %d): %d orbits, start %v", c.name, c.target, c.bank, len(plain.Orbits()), plain.Start())
	}
}

// TestThreeReuseSame solves three-player tables with the policies of
// best-response passes reused where a mover's own farkle value is that of
// its last fill (the solver) and with every turn filled: the tables,
// orbits included, must be the same to the last bit, the iterations the
// same (every turn asked for either filled or reused), and some turns
// reused. A reuse that returned another policy than a fill would change
// the iteration or its values; one that never happened would leave the
// fills as many.
func TestThreeReuseSame(t *testing.T) {
	t.Parallel()
	type tc struct {
		name          string
		target, entry int // entry: the entry minimum, when the preset's exceeds a small target
		penalty       bool
	}
	cases := []tc{{"pocket-farkel", 500, 0, false}, {"cardgames", 600, 0, false}, {"classic", 300, 0, true}}
	reused := int64(0)
	if !testing.Short() {
		cases = append(cases, tc{"classic", 600, 0, false}, tc{"farkle-dice", 250, 150, true})
	}
	for _, c := range cases {
		r := threeRules(rules.MustPreset(c.name))
		r.Game.Target = c.target
		if c.entry > 0 {
			r.Turn.EntryMinimum = c.entry
		}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		if !c.penalty {
			r.Turn.FarklePenalty = rules.Penalty{}
		}
		for _, alone := range []bool{false, true} {
			every := mustThree(t, r, ThreeOptions{Workers: 2, test: threeTest{alone: alone, noReuse: true}})
			re := mustThree(t, r, ThreeOptions{Workers: 2, test: threeTest{alone: alone}})
			for i := range every.w {
				if math.Float64bits(re.w[i]) != math.Float64bits(every.w[i]) {
					t.Fatalf("%s %d (alone %v): value %d is %v with reuse, %v without", c.name, c.target, alone, i, re.w[i], every.w[i])
				}
			}
			eo, ro := every.Orbits(), re.Orbits()
			if len(eo) != len(ro) {
				t.Fatalf("%s %d: %d orbits with reuse, %d without", c.name, c.target, len(ro), len(eo))
			}
			for i := range eo {
				if eo[i].Scores != ro[i].Scores || eo[i].Streaks != ro[i].Streaks || eo[i].Regret != ro[i].Regret {
					t.Errorf("%s %d: orbit %d: %+v with reuse, %+v without", c.name, c.target, i, ro[i], eo[i])
				}
			}
			if every.reused != 0 {
				t.Errorf("%s %d: %d turns reused with reuse off", c.name, c.target, every.reused)
			}
			reused += re.reused
			if re.fills+re.reused != every.fills {
				t.Errorf("%s %d (alone %v): %d filled and %d reused with reuse, %d filled without", c.name, c.target, alone, re.fills, re.reused, every.fills)
			}
			t.Logf("%s %d (alone %v): %d of %d turns reused (%.0f%%), %d orbits", c.name, c.target, alone, re.reused, every.fills, 100*float64(re.reused)/float64(every.fills), len(eo))
		}
	}
	if reused == 0 {
		t.Error("no turn reused")
	}
}

// The first player of a final round cannot bank below the bank minimum:
// newFinal3 fills its turn's rows below the minimum again only where the
// minimum reaches the trigger (midBelowMin). Filled again from every
// start, the plain way, the tables agree: to the last bit with hot dice,
// up to rounding without them (a player that cannot reach the trigger at
// all ends below it whichever way).
func TestThreeMidBelowMinEveryStart(t *testing.T) {
	for _, c := range []struct {
		dice, bank int
		hot        bool
	}{{3, 300, true}, {2, 500, true}, {6, 300, false}} {
		r := rules.MustPreset("classic")
		r.Dice, r.Turn.BankMinimum, r.Turn.HotDice = c.dice, c.bank, c.hot
		r.Game.Target = 500
		m := newModel(r)
		f := m.newFinal3(false)
		lx := f.lx
		d := dp3{}
		worst := 0.0
		for d2 := int32(1); d2 <= lx; d2++ {
			m.midTurn(f, &d, d2)
			bt, bl := f.endVec(d2, 1)
			for d1 := lx - 1; d1 >= 1; d1-- {
				s := lx - 1 - d1
				for r := s; r < s+f.bm; r++ {
					d.ok[r] = false
				}
				m.refill3(&d, 0, 1, s, s+f.bm)
				q := d.q[s*stride+int32(m.dice)]
				v := vec4{q[0] + q[3]*bt, q[1], q[2] + q[3]*bl, 0}
				for k := range 3 {
					worst = max(worst, math.Abs(v[k]-f.mid[d2*lx+d1][k]))
				}
			}
		}
		if c.hot && worst != 0 || worst > 1e-14 {
			t.Errorf("%d dice, bank minimum %d, hot dice %v: differs by %.3g", c.dice, c.bank, c.hot, worst)
		}
		t.Logf("%d dice, bank minimum %d, hot dice %v: lx %d, largest difference %.3g", c.dice, c.bank, c.hot, lx, worst)
	}
}

// Where best responses chase each other through the penalty's lower score
// sums the sweeps stop settling: classic to 300 with a bank minimum of 250
// flips the same states between the same policies every sweep. The solve
// stops with ErrNoConvergence at the twelfth sweep, not the 500th;
// sweeps that settle (those of the same rules with a minimum of 150, which
// stall for a sweep on the way) are not stopped.
func TestThreeSweepsCycle(t *testing.T) {
	r := threeRules(smallRules(t, "classic", 300))
	r.Turn.BankMinimum = 250
	_, err := SolveThree(r, ThreeOptions{Workers: 2})
	if !errors.Is(err, ErrNoConvergence) || !strings.Contains(err.Error(), "in sweep 12,") {
		t.Errorf("classic to 300, bank minimum 250: %v", err)
	}
	settling := []float64{1, 0.115, 0.0785, 0.014, 0.0021, 0.000868, 0.000865, 1.86e-5, 4.75e-7, 6.81e-8, 7.67e-9, 7.26e-10}
	for n := range settling {
		if err := sweepsCycle(settling[:n+1]); err != nil {
			t.Errorf("settling sweeps stopped after %d: %v", n+1, err)
		}
	}
	flat := []float64{1, 0.12, 0.087, 0.017, 0.0027, 0.00147, 0.00146, 0.00146, 0.00146, 0.00146, 0.00146}
	if err := sweepsCycle(flat); err != nil {
		t.Errorf("stopped before the twelfth sweep: %v", err)
	}
	if err := sweepsCycle(append(flat, 0.00146)); !errors.Is(err, ErrNoConvergence) {
		t.Errorf("a change that stays: %v", err)
	}
}
