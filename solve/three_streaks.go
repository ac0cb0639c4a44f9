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
	ready  []int // the states of a round side by side (streakRound)
}

// farkleOf returns the scores and streaks after the mover of (sc, st)
// farkles: the next seat to move, the mover last.
func (t *Three) farkleOf(sc, st [3]int32) ([3]int32, [3]int32) {
	a, sa := sc[0], st[0]+1
	if sa == t.c {
		a -= min(t.m.penPts, a)
		sa = 0
	}
	return [3]int32{sc[1], sc[2], a}, [3]int32{st[1], st[2], sa}
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

// streakJobRun solves the states of the triple s; it returns the largest
// change of a value.
func (t *Three) streakJobRun(w *threeWork, j *streakJob, s [3]int32) (float64, error) {
	t.streakStates(j, s)
	change := 0.0
	for {
		if t.test.alone {
			change = max(change, t.streakChainAlone(w, j))
		} else {
			for {
				ch, any := t.streakRound(w, j)
				change = max(change, ch)
				if !any {
					break
				}
			}
		}
		// the states left lead to cycles: follow the farkles from one to
		// its cycle and solve that
		first := -1
		for k := range j.st {
			if !j.solved[k] {
				first = k
				break
			}
		}
		if first < 0 {
			return change, nil
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
			return 0, err
		}
		for n, k := range cyc {
			j.V[k], j.solved[k] = V[n], true
			change = max(change, t.putVec(j.st[k].i, V[n]))
		}
	}
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

// streakRound solves the states of the job that are ready (their farkle
// value known) at its start, lanes3 of them side by side (each depends
// only on its own farkle value: the same values as one at a time, in any
// order); it returns the largest change of a value and whether there was
// a state to solve.
func (t *Three) streakRound(w *threeWork, j *streakJob) (float64, bool) {
	j.ready = j.ready[:0]
	for k := range j.st {
		if j.isReady(k) {
			j.ready = append(j.ready, k)
		}
	}
	change := 0.0
	for i := 0; i < len(j.ready); i += lanes3 {
		g := j.ready[i:min(i+lanes3, len(j.ready))]
		var sc [lanes3][3]int32
		var bs [lanes3]int
		var xs [lanes3]float64
		var F [lanes3]vec4
		live := uint8(0)
		for l, k := range g {
			F[l] = t.streakFarkle(j, k)
			sc[l], bs[l], xs[l] = j.st[k].sc, j.st[k].bs, F[l][2]
			live |= 1 << l
		}
		t.setupLanes3(&w.la, &sc, &bs, &xs, live)
		t.m.fill3Lanes(&w.la)
		for l, k := range g {
			change = max(change, t.streakSolved(j, k, w.la.policyLane(l, t.m.dice), F[l]))
		}
	}
	return change, len(j.ready) > 0
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
	if st.sweep == 0 {
		for i := range t.w {
			t.w[i] = math.NaN()
		}
		if !t.test.coldStart {
			if err := t.warmStart(ctx, workers, opt.Progress); err != nil {
				return err
			}
			if opt.Sweep != nil {
				took := time.Since(start).Seconds()
				opt.Sweep(SweepInfo{N: 0, Left: -1, Seconds: took, Took: took})
			}
		}
	}
	t.seconds = st.seconds // the time of the sweeps before a resume
	k := t.m.maxPts + t.m.sdn + 2
	total := 0
	for s := 3 * (A - 1); s >= 0; s-- {
		total += sumWork(A, s, k)
	}
	ws := make([]*threeWork, workers)
	js := make([]*streakJob, workers)
	for i := range ws {
		ws[i] = &threeWork{la: lane3Arrays{skipBanked: !t.test.noSkip, allOptions: t.test.allOptions}}
		js[i] = &streakJob{}
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
			err := eachJob(workers, len(jobs), func(wi, i int) error {
				ch, err := t.streakJobRun(ws[wi], js[wi], jobs[i])
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

// rotN applies rot j times.
func rotN(v vec4, j int) vec4 {
	for ; j%3 != 0; j-- {
		v = rot(v)
	}
	return v
}

// cycleSolveN returns the values of the states of a farkle cycle of
// n = len(P) states under policies P: V_k = alpha_k + beta_k rot(V_{k+1}),
// V_n = V_0. With p the product of the betas and S the sum over j of the
// product of the betas before j times rot^j(alpha_j), V_0 = S + p
// rot^n(V_0): for n a multiple of 3, V_0 = S / (1-p); else, with Q =
// rot^n, V_0 = (S + p Q S + p^2 Q^2 S) / (1 - p^3) (Q^3 is the identity).
func cycleSolveN(P []policy, V []vec4) {
	n := len(P)
	a := func(k int) vec4 { return vec4{P[k].alpha[0], P[k].alpha[1], P[k].alpha[2], 0} }
	var S vec4
	prod := 1.0
	for j := 0; j < n; j++ {
		r := rotN(a(j), j)
		for i := 0; i < 3; i++ {
			S[i] += prod * r[i]
		}
		prod *= P[j].beta
	}
	if n%3 == 0 {
		for i := 0; i < 3; i++ {
			V[0][i] = S[i] / (1 - prod)
		}
	} else {
		q1, q2 := rotN(S, n), rotN(S, 2*n)
		den := 1 - prod*prod*prod
		for i := 0; i < 3; i++ {
			V[0][i] = (S[i] + prod*q1[i] + prod*prod*q2[i]) / den
		}
	}
	V[0][3] = 0
	for k := n - 1; k >= 1; k-- {
		nx := rot(V[(k+1)%n])
		for i := 0; i < 3; i++ {
			V[k][i] = P[k].alpha[i] + P[k].beta*nx[i]
		}
		V[k][3] = 0
	}
}

// cycleResidN is the largest residual of V_k = alpha_k + beta_k rot(V_{k+1}).
func cycleResidN(P []policy, V []vec4) float64 {
	r := 0.0
	n := len(P)
	for k := range P {
		nx := rot(V[(k+1)%n])
		for i := 0; i < 3; i++ {
			r = max(r, math.Abs(V[k][i]-P[k].alpha[i]-P[k].beta*nx[i]))
		}
	}
	return r
}

func samePolicies(x, y []policy) bool {
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
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

// eachProfile calls f with each profile of one policy a mover from sets,
// at most limit of them.
func eachProfile(sets [][]policy, limit int, f func([]policy)) {
	P := make([]policy, len(sets))
	count := 0
	var rec func(k int)
	rec = func(k int) {
		if count >= limit {
			return
		}
		if k == len(sets) {
			count++
			f(P)
			return
		}
		for _, p := range sets[k] {
			P[k] = p
			rec(k + 1)
		}
	}
	rec(0)
}

// mixedEquilibriumN finds a stationary equilibrium of the movers of a
// farkle cycle (the three rotations of a triple, or with streaks the states
// of a cycle at (0, 0, 0)) among the policies of their upper envelopes
// (envelope): each mover plays one of them purely (and its own farkle value
// lies where that policy is best) or mixes two neighbours at the value
// where it is indifferent between them. The candidates are tried with the
// fewest mixing movers first, then in the order of movers and policies
// (less farkle risk first); the first equilibrium found is taken. The
// mixing weights solve the indifference equations: by bisection for one
// mixing mover, by Newton's method for more, to 1e-15. mix[k] is the
// weight mover k puts on the riskier policy of its pair, NaN for a mover
// playing purely. With same (equal scores without streaks: the three
// rotations are one state) the movers play alike, one weight for all.
func mixedEquilibriumN(sets [][]policy, same bool) ([]policy, []float64, bool) {
	n := len(sets)
	env := make([][]policy, n)
	cross := make([][]float64, n)
	for k, s := range sets {
		env[k] = envelope(s)
		for i := 1; i < len(env[k]); i++ {
			a, b := env[k][i-1], env[k][i]
			cross[k] = append(cross[k], (a.alpha[0]-b.alpha[0])/(b.beta-a.beta))
		}
	}
	type choice struct {
		i   int
		mix bool
	}
	choices := make([][]choice, n)
	for k := range env {
		for i := range env[k] {
			choices[k] = append(choices[k], choice{i, false})
		}
		for i := 0; i+1 < len(env[k]); i++ {
			choices[k] = append(choices[k], choice{i, true})
		}
	}
	const tol = 1e-13
	cs := make([]choice, n)
	lam := make([]float64, n)
	P := make([]policy, n)
	V := make([]vec4, n)
	profile := func() []policy {
		if same {
			for k := range lam {
				lam[k] = lam[0]
			}
		}
		for k, c := range cs {
			if c.mix {
				P[k] = mixPolicy(env[k][c.i], env[k][c.i+1], lam[k])
			} else {
				P[k] = env[k][c.i]
			}
		}
		return P
	}
	xs := func() []float64 {
		cycleSolveN(profile(), V)
		x := make([]float64, n)
		for k := range x {
			x[k] = V[(k+1)%n][2]
		}
		return x
	}
	tried := 0
	var found bool
	var rec func(k, left int) bool
	try := func() bool {
		tried++
		var S []int
		for k, c := range cs {
			if c.mix {
				S = append(S, k)
			}
		}
		clear(lam)
		resid := func() []float64 {
			x := xs()
			r := make([]float64, len(S))
			for j, k := range S {
				r[j] = x[k] - cross[k][cs[k].i]
			}
			return r
		}
		solveFor := S
		if same && len(S) > 0 {
			solveFor = S[:1] // one weight for all
		}
		if !solveIndifference(lam, solveFor, resid) {
			return false
		}
		x := xs()
		for k, c := range cs {
			if c.mix {
				if !(math.Abs(x[k]-cross[k][c.i]) < tol && lam[k] >= 0 && lam[k] <= 1) {
					return false
				}
				continue
			}
			if c.i > 0 && x[k] < cross[k][c.i-1]-tol {
				return false
			}
			if c.i < len(cross[k]) && x[k] > cross[k][c.i]+tol {
				return false
			}
		}
		return true
	}
	rec = func(k, left int) bool {
		if tried > 1<<16 {
			return false
		}
		if k == n {
			return left == 0 && try()
		}
		for _, c := range choices[k] {
			if c.mix && left == 0 || same && k > 0 && c != cs[0] {
				continue
			}
			cs[k] = c
			l := left
			if c.mix {
				l--
			}
			if rec(k+1, l) {
				return true
			}
		}
		return false
	}
	for nmix := 0; nmix <= n && !found; nmix++ {
		found = rec(0, nmix)
	}
	if !found {
		return nil, nil, false
	}
	mix := make([]float64, n)
	for k, c := range cs {
		mix[k] = math.NaN()
		if c.mix {
			mix[k] = lam[k]
		}
	}
	return append([]policy(nil), profile()...), mix, true
}
