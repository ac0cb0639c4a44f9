//go:build !js

package solve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"time"
)

// The three-player game with a farkle penalty. Each seat's farkle streak
// (0..c-1, c the penalty's count) is in the state: a farkle moves the
// mover's streak up, and the farkle that completes the streak takes the
// penalty's points (down to 0) and sets the streak back to 0; a bank sets
// it to 0. The states of a score triple (its rotations times the c^3
// triples of streaks) form one job: a farkle goes to the next rotation with
// the mover's streak one up, so within a job the farkles lead up the
// streaks until a penalty leaves the job for a lower score sum. Only a
// mover at 0 stays in the job on its penalty: the farkles cycle only at
// (0, 0, 0), through all three seats' streaks.
//
// A state whose farkle leads to a solved state is solved by one turn, its
// best response to that value; a cycle by best-response iteration, its
// values solved exactly for the policies, a mixed equilibrium where the
// responses cycle (threeCycle). The penalty lowers the score sum, so the
// triples are solved in sweeps by decreasing sum, as the duel's are: a
// farkle reads the last sweep's value of a lower sum (a guess in the first
// sweep), and the sweeps go on until they settle (the duel's stopping
// rule, duelTol and errTol).

// streakState is one state of a job: scores and streaks in turn order from
// the mover, its table index, its farkle target (the index in the job, or
// -1 and the table index) and the streak index of its bank target.
type streakState struct {
	sc, st [3]int32
	i      int
	fIn    int
	fi     int
	bs     int
}

// streakJob is one worker's scratch space for the jobs of the streaks.
type streakJob struct {
	st     []streakState
	solved []bool
	V      []vec4
}

// streakStates lists the states of the triple s (canonical) with their farkle
// and bank targets.
func (t *Three) streakStates(j *streakJob, s [3]int32) {
	j.st = j.st[:0]
	rots := [][3]int32{{s[0], s[1], s[2]}, {s[1], s[2], s[0]}, {s[2], s[0], s[1]}}
	if s[0] == s[1] && s[1] == s[2] {
		rots = rots[:1]
	}
	C := t.c
	for _, sc := range rots {
		for sa := int32(0); sa < C; sa++ {
			for sb := int32(0); sb < C; sb++ {
				for sd := int32(0); sd < C; sd++ {
					st := [3]int32{sa, sb, sd}
					j.st = append(j.st, streakState{sc: sc, st: st, i: t.tsidx(sc[0], sc[1], sc[2], t.sidx(sa, sb, sd)), bs: t.sidx(sb, sd, 0)})
				}
			}
		}
	}
	pos := make(map[int]int, len(j.st))
	for k := range j.st {
		pos[j.st[k].i] = k
	}
	for k := range j.st {
		s := &j.st[k]
		fsc, fst := t.farkleOf(s.sc, s.st)
		s.fi = t.tsidx(fsc[0], fsc[1], fsc[2], t.sidx(fst[0], fst[1], fst[2]))
		s.fIn = -1
		if p, ok := pos[s.fi]; ok {
			s.fIn = p
		}
	}
	if cap(j.solved) < len(j.st) {
		j.solved = make([]bool, len(j.st))
		j.V = make([]vec4, len(j.st))
	}
	j.solved, j.V = j.solved[:len(j.st)], j.V[:len(j.st)]
	clear(j.solved)
}

// readVec returns the values at table index i; in the first sweep a value
// not solved yet (a penalty lowered the sum) is guessed: equal chances.
func (t *Three) readVec(i int) vec4 {
	if math.IsNaN(t.w[i]) {
		return vec4{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}
	}
	return vec4{t.w[i], t.w[i+1], t.w[i+2], 0}
}

// putVec stores v at table index i and returns the largest change (1 where
// there was no value).
func (t *Three) putVec(i int, v vec4) float64 {
	ch := 0.0
	for k := 0; k < 3; k++ {
		if old := t.w[i+k]; math.IsNaN(old) {
			ch = 1
		} else {
			ch = max(ch, math.Abs(v[k]-old))
		}
		t.w[i+k] = v[k]
	}
	return ch
}

// streakJobRun solves the states of the triples ss (one job each, in js:
// at most lanes3 of them, of one score sum) together: their states whose
// farkle value is known are solved in rounds, side by side across the
// triples (streakRound), then each triple's cycles, until every state is
// solved. It returns the largest change of a value.
func (t *Three) streakJobRun(w *threeWork, js []*streakJob, ss [][3]int32) (float64, error) {
	js = js[:len(ss)]
	for i, s := range ss {
		t.streakStates(js[i], s)
	}
	change := 0.0
	for {
		if t.test.alone {
			for _, j := range js {
				change = max(change, t.streakChainAlone(w, j))
			}
		} else {
			for {
				ch, any := t.streakRound(w, js)
				change = max(change, ch)
				if !any {
					break
				}
			}
		}
		// the states left lead to cycles: follow the farkles from one to
		// its cycle and solve that, a cycle a triple at a time
		left := false
		for _, j := range js {
			ch, found, err := t.streakCycle(w, j)
			if err != nil {
				return 0, err
			}
			change, left = max(change, ch), left || found
		}
		if !left {
			return change, nil
		}
	}
}

// streakCycle solves one farkle cycle among the states of the job j not
// solved yet, if there is one, and returns the largest change of a value
// and whether there was.
func (t *Three) streakCycle(w *threeWork, j *streakJob) (float64, bool, error) {
	first := -1
	for k := range j.st {
		if !j.solved[k] {
			first = k
			break
		}
	}
	if first < 0 {
		return 0, false, nil
	}
	seen := map[int]bool{}
	k := first
	for !seen[k] {
		seen[k] = true
		k = j.st[k].fIn
	}
	cyc := []int{k}
	for n := j.st[k].fIn; n != k; n = j.st[n].fIn {
		cyc = append(cyc, n)
	}
	V, err := t.solveCycle(w, j, cyc)
	if err != nil {
		return 0, true, err
	}
	change := 0.0
	for n, k := range cyc {
		j.V[k], j.solved[k] = V[n], true
		change = max(change, t.putVec(j.st[k].i, V[n]))
	}
	return change, true, nil
}

// streakFarkle returns the value after the farkle of state k of the job:
// its farkle target's, solved in the job or read from the table.
func (t *Three) streakFarkle(j *streakJob, k int) vec4 {
	if st := &j.st[k]; st.fIn >= 0 {
		return j.V[st.fIn]
	}
	return t.readVec(j.st[k].fi)
}

// streakSolved records the value of state k of the job under policy p, its
// farkle value F, and returns the largest change of a value in the table.
func (t *Three) streakSolved(j *streakJob, k int, p policy, F vec4) float64 {
	var v vec4
	r := rot(F)
	for c := 0; c < 3; c++ {
		v[c] = p.alpha[c] + p.beta*r[c]
	}
	j.V[k], j.solved[k] = v, true
	return t.putVec(j.st[k].i, v)
}

// isReady reports whether state k of the job is still to solve and its
// farkle value is known (its farkle target solved, or outside the job).
func (j *streakJob) isReady(k int) bool {
	st := &j.st[k]
	return !j.solved[k] && (st.fIn < 0 || j.solved[st.fIn])
}

// streakChainAlone solves, one turn at a time, every state of the job
// whose farkles lead to a solved state (the chains up the streaks); it
// returns the largest change of a value.
func (t *Three) streakChainAlone(w *threeWork, j *streakJob) float64 {
	change := 0.0
	for progress := true; progress; {
		progress = false
		for k := range j.st {
			if !j.isReady(k) {
				continue
			}
			F := t.streakFarkle(j, k)
			st := &j.st[k]
			p := t.turnS(&w.d, st.sc[0], st.sc[1], st.sc[2], st.bs, F[2])
			change = max(change, t.streakSolved(j, k, p, F))
			progress = true
		}
	}
	return change
}

// streakRound solves the states of the jobs js that are ready (their
// farkle value known) at its start, lanes3 of them side by side across the
// jobs (each depends only on its own farkle value: the same values as one
// at a time, in any order); it returns the largest change of a value and
// whether there was a state to solve. A round of one triple has a
// multiple of three states (its rotations; at equal scores, one), so
// lanes3 = 4 lanes filled from one triple alone went a quarter empty in
// rounds of 3, 6 and 9.
func (t *Three) streakRound(w *threeWork, js []*streakJob) (float64, bool) {
	ready := w.ready[:0]
	for ji, j := range js {
		for k := range j.st {
			if j.isReady(k) {
				ready = append(ready, readyState{ji, k})
			}
		}
	}
	w.ready = ready
	change := 0.0
	for i := 0; i < len(ready); i += lanes3 {
		g := ready[i:min(i+lanes3, len(ready))]
		var sc [lanes3][3]int32
		var bs [lanes3]int
		var xs [lanes3]float64
		var F [lanes3]vec4
		live := uint8(0)
		for l, r := range g {
			j := js[r.job]
			F[l] = t.streakFarkle(j, r.k)
			sc[l], bs[l], xs[l] = j.st[r.k].sc, j.st[r.k].bs, F[l][2]
			live |= 1 << l
		}
		t.setupLanes3(&w.la, &sc, &bs, &xs, live)
		t.m.fill3Lanes(&w.la)
		for l, r := range g {
			change = max(change, t.streakSolved(js[r.job], r.k, w.la.policyLane(l, t.m.dice), F[l]))
		}
	}
	return change, len(ready) > 0
}

// solveStreaks solves a table with farkle streaks in sweeps: from the
// checkpoint opt.Checkpoint where there is a sound one, else from the table
// without the penalty (warmStart).
func (t *Three) solveStreaks(ctx context.Context, workers int, opt *ThreeOptions, start time.Time) error {
	A := t.A
	defer func() { t.test = threeTest{} }()
	var st sweepState
	if opt.Checkpoint != "" {
		var err error
		st, err = t.readCheckpoint(opt.Checkpoint)
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if opt.Resume != nil && (err != nil || st.sweep > 0) {
			opt.Resume(st.sweep, err)
		}
		if err != nil {
			st = sweepState{}
		}
	}
	switch {
	case st.sweep > 0: // resumed: the checkpoint's values
	case t.test.coldStart:
		for i := range t.w {
			t.w[i] = math.NaN() // not solved yet: equal chances (readVec)
		}
	default:
		// sets every value, over whatever a failed checkpoint left
		if err := t.warmStart(ctx, workers, opt.Progress); err != nil {
			return err
		}
		if opt.Sweep != nil {
			took := time.Since(start).Seconds()
			opt.Sweep(SweepInfo{N: 0, Left: -1, Seconds: took, Took: took})
		}
	}
	t.seconds = st.seconds // the time of the sweeps before a resume
	k := t.m.maxPts + t.m.sdn + 2
	total := 0
	for s := 3 * (A - 1); s >= 0; s-- {
		total += sumWork(A, s, k)
	}
	ws := make([]*threeWork, workers)
	js := make([][]*streakJob, workers)
	for i := range ws {
		ws[i] = &threeWork{la: lane3Arrays{skipBanked: !t.test.noSkip, allOptions: t.test.allOptions}}
		for range lanes3 {
			js[i] = append(js[i], &streakJob{})
		}
	}
	progress := opt.Progress
	for sweep := st.sweep + 1; ; sweep++ {
		if sweep > maxSweeps {
			return fmt.Errorf("%w: three-player sweeps did not settle", ErrNoConvergence)
		}
		for _, w := range ws {
			w.orbits, w.resid, w.regret = w.orbits[:0], 0, 0
		}
		changes := make([]float64, workers)
		done := 0
		if progress != nil {
			progress(0, total)
		}
		began := time.Now()
		for s := 3 * (A - 1); s >= 0; s-- {
			if err := ctx.Err(); err != nil {
				return err
			}
			jobs := canonicalTriples(A, s)
			// lanes3 triples a job where there are enough to keep every
			// worker busy to the end of the sum
			n := 1
			if !t.test.alone && !t.test.noPack && len(jobs) >= 2*lanes3*workers {
				n = lanes3
				t.packed += int64((len(jobs) + n - 1) / n)
			}
			err := eachJob(workers, (len(jobs)+n-1)/n, func(wi, i int) error {
				ch, err := t.streakJobRun(ws[wi], js[wi], jobs[i*n:min(i*n+n, len(jobs))])
				changes[wi] = max(changes[wi], ch)
				return err
			})
			if err != nil {
				return err
			}
			done += sumWork(A, s, k)
			if progress != nil {
				progress(done, total)
			}
		}
		change := 0.0
		for _, c := range changes {
			change = max(change, c)
		}
		t.sweeps, t.change = sweep, change
		st.sweep, st.changes = sweep, append(st.changes, change)
		st.seconds = t.seconds + time.Since(start).Seconds()
		if err := sweepsCycle(st.changes); err != nil {
			return err
		}
		if sweep >= 3 && change < sweepStop {
			rho := max(change/st.prevDelta, st.rho)
			if change < sweepTol || (rho < 0.5 && change*rho/(1-rho) < errTol) {
				t.errEst = change * rho / (1 - rho)
				if opt.Sweep != nil {
					opt.Sweep(SweepInfo{N: sweep, Change: change, Seconds: st.seconds, Took: time.Since(began).Seconds()})
				}
				break
			}
		}
		left := sweepsLeft(sweep, change, st.prevDelta)
		if sweep >= 3 {
			st.rho = change / st.prevDelta
		}
		st.prevDelta = change
		if opt.Checkpoint != "" {
			if err := t.writeCheckpoint(opt.Checkpoint, st); err != nil {
				return err
			}
		}
		if opt.Sweep != nil {
			opt.Sweep(SweepInfo{N: sweep, Change: change, Left: left, Seconds: st.seconds, Took: time.Since(began).Seconds()})
		}
		if sweep == t.test.stopAfter {
			return errStopped
		}
	}
	t.orbits = t.orbits[:0]
	for _, w := range ws {
		t.orbits = append(t.orbits, w.orbits...)
		t.resid = max(t.resid, w.resid)
		t.regret = max(t.regret, w.regret)
		t.fills += w.fills
		t.reused += w.reused
	}
	sortOrbits(t.orbits)
	return nil
}

// sweepState is where the sweeps of a solve with a farkle penalty stand:
// what a checkpoint keeps beside the values.
type sweepState struct {
	sweep          int
	seconds        float64
	prevDelta, rho float64
	changes        []float64 // the largest change of each sweep
}

// maxSweeps bounds the sweeps of a solve (solveStreaks refuses more) and
// so the changes a checkpoint lists.
const maxSweeps = 500

// errStopped is the error of a solve its test stopped after a sweep
// (threeTest.stopAfter).
var errStopped = errors.New("solve: stopped after a sweep (test)")

// sweepsLeft estimates the sweeps still to come after a sweep whose
// largest change was change, the one before prev: those that take the
// change below sweepStop (the sweep that does is the last), each cutting
// it by as many tenfolds as the last one did, and at least one; -1 before
// the third sweep or while the change is above 0.05 (the first sweeps
// correct the start, and their changes fall unevenly). The changes fall
// faster and faster (classic to 2,000: 0.017, 0.0069, 9.9e-4, 3.9e-5,
// 3e-8, 6e-11), so the estimate errs long, by one or two sweeps in the
// solves measured (targets 700 to 3,000).
func sweepsLeft(sweep int, change, prev float64) int {
	if sweep < 3 || !(change < 0.05) || !(prev > 0) {
		return -1
	}
	if change < sweepStop {
		return 1
	}
	tens := max(1, math.Log10(prev/change))
	return int(math.Floor(math.Log10(change/sweepStop)/tens)) + 1
}

// sweepsCycle returns an error wrapping ErrNoConvergence where the sweeps
// have stopped settling (changes: the largest change of a value in each
// sweep so far): from the twelfth on, a change above sweepStop that is at
// least half the change six sweeps before. Settling sweeps shrink the
// change by 0.003 to 0.04 a sweep (classic); where best responses chase
// each other through the penalty's lower score sums (the farkle reads the
// last sweep's values there), the same states flip between the same
// policies sweep after sweep and the change stays (classic to 300 with a
// bank minimum of 250: 1.5e-3 every sweep; halving each new value with
// the old does not settle it either). The solver resolves such orbits
// within a triple's job only, so it stops there instead of running its
// 500 sweeps.
func sweepsCycle(changes []float64) error {
	n := len(changes)
	if n < 12 {
		return nil
	}
	c, before := changes[n-1], changes[n-7]
	if c > sweepStop && c >= before/2 {
		return fmt.Errorf("%w: the three-player sweeps do not settle (the largest change of a chance was %.3g in sweep %d, %.3g six sweeps before): best responses chase each other through the farkle penalty's lower scores, an orbit across score sums the solver does not resolve", ErrNoConvergence, c, n, before)
	}
	return nil
}

// cycleTurn solves the turn of the mover of state k of the cycle cyc with
// own farkle value x.
func (t *Three) cycleTurn(w *threeWork, j *streakJob, cyc []int, k int, x float64) policy {
	st := &j.st[cyc[k]]
	return t.turnS(&w.d, st.sc[0], st.sc[1], st.sc[2], st.bs, x)
}

// solveCycle solves the farkle cycle cyc of a job (states by index, each
// farkling to the next) by best-response iteration as tripleJob does: the
// first pass answers the values the states had (the last sweep's, or
// guesses), later passes update one mover at a time, the values solved
// exactly for the policies after each; where the policies repeat without
// settling, the orbit is resolved by a mixed equilibrium (orbitN).
func (t *Three) solveCycle(w *threeWork, j *streakJob, cyc []int) ([]vec4, error) {
	n := len(cyc)
	V := make([]vec4, n)
	for k, s := range cyc {
		V[k] = t.readVec(j.st[s].i)
	}
	P := make([]policy, n)
	w.memo.reset(n)
	// turn is mover k's best response at x, reused where its last fill
	// was at the same x (turnMemo3: the states the turns read are of
	// higher score sums, unchanged here)
	turn := func(k int, x float64) policy {
		if p, ok := w.memo.get(k, x, !t.test.noReuse); ok {
			w.reused++
			return p
		}
		p := t.cycleTurn(w, j, cyc, k, x)
		w.memo.put(k, x, p)
		w.fills++
		return p
	}
	for k := range cyc {
		P[k] = turn(k, V[(k+1)%n][2])
	}
	hist := [][]policy{append([]policy(nil), P...)}
	cycleSolveN(P, V)
	vals := [][]vec4{append([]vec4(nil), V...)}
	for pass := 1; ; pass++ {
		prev := append([]policy(nil), P...)
		for k := range cyc {
			P[k] = turn(k, V[(k+1)%n][2])
			cycleSolveN(P, V)
		}
		if samePolicies(P, prev) {
			w.resid = max(w.resid, cycleResidN(P, V))
			return V, nil
		}
		from := -1
		for i := range hist {
			if samePolicies(hist[i], P) {
				from = i
			}
		}
		hist = append(hist, append([]policy(nil), P...))
		vals = append(vals, append([]vec4(nil), V...))
		if from >= 0 || pass >= threeMaxPass {
			if from < 0 {
				from = len(hist) - 20
			}
			return t.orbitN(w, j, cyc, hist[from:], vals[from:]), nil
		}
	}
}

// orbitN resolves a farkle cycle whose best responses cycled through the
// profiles in hist (vals: the values solved for each), as orbit does for
// the three rotations of a triple without streaks (resolveOrbit).
func (t *Three) orbitN(w *threeWork, j *streakJob, cyc []int, hist [][]policy, vals [][]vec4) []vec4 {
	first := &j.st[cyc[0]]
	o := Orbit{Mix: [3]float64{math.NaN(), math.NaN(), math.NaN()}, Movers: len(cyc)}
	for k := range o.Scores {
		o.Scores[k] = int(first.sc[k]) * t.m.unit
		o.Streaks[k] = int(first.st[k])
	}
	V, mix := t.resolveOrbit(w, &o, hist, vals, false, func(k int, x float64) policy {
		return t.cycleTurn(w, j, cyc, k, x)
	})
	o.CycleMix = mix
	copy(o.Mix[:], mix)
	w.orbits = append(w.orbits, o)
	return V
}
