package solve

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/farkle/farkle/rules"
)

// DefaultMaxBytes is the memory a solve (solo or duel) or a table load may
// need unless told otherwise (SoloOptions, DuelOptions, ReadTableLimit).
const DefaultMaxBytes = 2 << 30

// duelTol is the tolerance of every fixed point of the duel solver: a pair's
// cycle is solved until a pass changes no value by more, and with a farkle
// penalty the sweeps go on until one changes no value by more.
const duelTol = 1e-12

// With a farkle penalty the sweeps stop when the last sweep changed no value
// by more than sweepTol, or by less than sweepStop when the estimated error
// left is below errTol. Each sweep shrinks the error geometrically (by the
// chance of a penalty before the scores climb past the penalty's reach,
// observed 0.003 to 0.05 a sweep); with ratio rho between the last two
// changes the error left after a change d is about d*rho/(1-rho). errTol
// is half the 1e-9 the tables are exact to: on 30 rule sets (presets with
// penalties of 300 to 1000 at two targets, random ones) the error left,
// against tables solved on to a change of 1e-15, was at most 0.93 times the
// estimate and at most 3.3e-10 (TestSweepErrorEstimate checks some, with
// tighter ones through duelTest).
const (
	sweepTol  = 1e-11
	sweepStop = 1e-8
	errTol    = 5e-10
)

// DuelOptions tunes SolveDuel. The zero value is fine.
type DuelOptions struct {
	// MaxBytes is the most memory the table and work arrays may need;
	// 0 means DefaultMaxBytes. A larger need is refused before any work.
	MaxBytes int64
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, if set, is called now and then with the sweep number (from 1)
	// and the score pairs done out of the total of that sweep.
	Progress func(sweep, done, total int)
	// Sweep, if set, is called after each sweep with its number and the
	// largest change of a value in it (1 for the first sweep).
	Sweep func(sweep int, change float64)
	// Context, if set, stops the solve early: SolveDuel then returns its
	// error (context.Canceled or DeadlineExceeded).
	Context context.Context

	test duelTest
}

// duelTest is what the package's tests change in one duel solve
// (DuelOptions.test), so that tests solving with different settings can run
// in parallel; the zero value is the solver as it runs.
type duelTest struct {
	// job, if set, is called before each pair of scores is solved.
	job func(a, b int32)
	// alone solves every pair alone (job), never side by side (jobLanes).
	alone bool
	// sums, if not 0, is the lane routines' instructions (else bestSIMD).
	sums simd
	// sweepTol and errTol, where not 0, replace the constants of the
	// stopping rule.
	sweepTol, errTol float64
}

// Table is the solution of the two-player game for one rule set: the
// probability that the player to move wins at the start of their turn, for
// every pair of scores below the target and every pair of farkle streaks.
// In-turn values are recomputed from it on demand (Position, Options). It is
// immutable once built and safe for concurrent use.
type Table struct {
	m       *model
	A       int32 // target in units: scores 0..A-1
	c       int32 // streak states per player
	w       []float64
	fr      *finalRound
	pFmin   float64
	sweeps  int
	seconds float64
	change  float64
	errEst  float64 // estimated error left by the sweeps (0 without a penalty)
	// banks, during the solve, holds the values that banks read, the
	// states (mover a, other b, streaks sa, 0) at (a*c+sa)*A+b: the bank
	// values of a turn are then one run of memory, not one value every
	// c*c (set keeps it up to date).
	banks []float64
	// test is the solve's test settings (DuelOptions.test).
	test duelTest
	// slopes, during the solve, keeps the slopes of the cycles through the
	// penalty from sweep to sweep (slopesOf).
	slopes []float64
	cache  turnMemo[*turnArrays]
}

// set writes a table value during the solve, and its copy in banks.
func (t *Table) set(i int32, v float64) {
	t.w[i] = v
	if i%t.c == 0 { // the other player's streak is 0: a bank lands here
		ab := i / (t.c * t.c)
		a, sa := ab/t.A, i/t.c%t.c
		t.banks[(a*t.c+sa)*t.A+ab%t.A] = v
	}
}

// idx returns the index of (mover score a, other score b, mover streak sa,
// other streak sb), all in units / states.
func (t *Table) idx(a, b, sa, sb int32) int32 {
	return ((a*t.A+b)*t.c+sa)*t.c + sb
}

// CheckDuelRules returns an error wrapping ErrRules if r is not valid or
// does not allow a two-player game.
func CheckDuelRules(r rules.Rules) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrRules, err)
	}
	if r.Game.MinPlayers > 2 {
		return fmt.Errorf("%w: these rules need at least %d players (game.min_players); the duel solver plays two", ErrRules, r.Game.MinPlayers)
	}
	if r.Game.MaxPlayers < 2 {
		return fmt.Errorf("%w: these rules allow at most %d player (game.max_players); the duel solver plays two", ErrRules, r.Game.MaxPlayers)
	}
	return nil
}

// SolveDuel solves the two-player game of r (rules allowing more players are
// solved for two). Errors wrap ErrRules (invalid rules, rules needing more
// than two players or allowing only one, turns without bound) or ErrTooLarge.
func SolveDuel(r rules.Rules, opt DuelOptions) (*Table, error) {
	if err := CheckDuelRules(r); err != nil {
		return nil, err
	}
	m := newModel(r)
	if err := m.bounded(); err != nil {
		return nil, err
	}
	workers := duelWorkers(opt.Workers)
	if err := checkDuel(m.duelPlan(workers), limitOr(opt.MaxBytes), m.unit); err != nil {
		return nil, err
	}
	start := time.Now()
	t := &Table{m: m, A: m.target, c: int32(m.streaks()), test: opt.test}
	t.fr = m.finalRound()
	t.w = make([]float64, int(t.A)*int(t.A)*int(t.c)*int(t.c))
	t.pFmin = m.pFmin()
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := t.solve(ctx, workers, opt.Progress, opt.Sweep); err != nil {
		return nil, err
	}
	t.seconds = time.Since(start).Seconds()
	return t, nil
}

// ByteSize writes a number of bytes for people: "7.5 GiB", "512.0 MiB".
func ByteSize(n int64) string {
	switch {
	case n >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(n)/(1<<40))
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// penaltied reports whether a farkle can move a score down, so that the
// pairs are not solved in one sweep.
func (t *Table) penaltied() bool { return t.m.penCount > 0 && t.m.penPts > 0 }

// hasNothing reports whether a turn can end scoring nothing without a farkle
// (no hot dice and a bank minimum).
func (m *model) hasNothing() bool { return !m.hot && m.bankMin > 1 }

// farkleTarget returns the state the other player moves in after the mover
// farkles: (b, a', sb, sa').
func (t *Table) farkleTarget(a, b, sa, sb int32) (int32, int32, int32, int32) {
	m := t.m
	if m.penCount == 0 {
		return b, a, sb, 0
	}
	sa++
	if int(sa) == m.penCount {
		a -= min(m.penPts, a)
		sa = 0
	}
	return b, a, sb, sa
}

// solve runs the sweeps: score pairs by decreasing sum, so that every bank
// reads solved pairs; a pair's own cycle (a farkle hands the same scores to
// the other player) is solved in the pair's job. With a penalty a farkle can
// lower the sum: those reads use the previous sweep, and sweeps repeat until
// none changes any value by more than duelTol.
func (t *Table) solve(ctx context.Context, workers int, progress func(sweep, done, total int), sweepDone func(int, float64)) error {
	A := t.A
	for i := range t.w {
		t.w[i] = math.NaN() // not yet solved
	}
	t.banks = make([]float64, len(t.w)/int(t.c))
	for i := range t.banks {
		t.banks[i] = math.NaN()
	}
	if t.penaltied() && !t.m.laneCycles() {
		t.slopes = make([]float64, int(A)*4*int(t.c)*int(t.c))
	}
	defer func() { t.banks, t.slopes, t.test = nil, nil, duelTest{} }()
	totalPairs := int(A) * (int(A) + 1) / 2
	ws := make([]*work, workers)
	lws := make([]*laneWork, workers)
	for i := range ws {
		ws[i], lws[i] = &work{}, &laneWork{arr: laneArrays{simd: cmp.Or(t.test.sums, bestSIMD())}}
	}
	var jobs []job
	// runJob solves a job with worker wi's scratch space. A panic there
	// would end the whole process, not just this solve: it becomes the
	// solve's error.
	runJob := func(wi int, jb job, sweep int) (ch float64, err error) {
		defer func() {
			if p := recover(); p != nil {
				ch, err = 0, fmt.Errorf("%w: a duel worker panicked: %v", ErrInternal, p)
			}
		}()
		if t.test.job != nil {
			for i := range jb.n {
				t.test.job(jb.a+i, jb.b-i)
			}
		}
		switch {
		case jb.n == 1 && !t.test.alone && t.c > 1:
			return t.jobLevels(lws[wi], jb.a, jb.b, sweep)
		case jb.n == 1:
			return t.job(ws[wi], jb.a, jb.b, sweep)
		default:
			return t.jobLanes(lws[wi], jb.a, jb.b, int(jb.n), sweep)
		}
	}
	// runSum solves the pairs of score sum s (as in the given sweep).
	runSum := func(s int32, sweep int, maxChange *[64]float64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		jobs = t.m.sumJobs(jobs, s, max(0, s-(A-1)), workers, !t.test.alone)
		var next atomic.Int64
		var wg sync.WaitGroup
		var firstErr error
		var errMu sync.Mutex
		nw := min(workers, len(jobs))
		for wi := 0; wi < nw; wi++ {
			wg.Add(1)
			go func(wi int) {
				defer wg.Done()
				for {
					j := int(next.Add(1) - 1)
					if j >= len(jobs) {
						return
					}
					ch, err := runJob(wi, jobs[j], sweep)
					if err != nil {
						errMu.Lock()
						firstErr = err
						errMu.Unlock()
						return
					}
					maxChange[wi] = max(maxChange[wi], ch)
				}
			}(wi)
		}
		wg.Wait()
		return firstErr
	}
	tol, eTol := sweepTol, errTol
	if t.test.sweepTol != 0 {
		tol = t.test.sweepTol
	}
	if t.test.errTol != 0 {
		eTol = t.test.errTol
	}
	var prevDelta, prevRho float64
	for sweep := 1; ; sweep++ {
		if sweep > 500 {
			return fmt.Errorf("%w: duel sweeps did not settle (last change %.3g)", ErrNoConvergence, t.change)
		}

		var done atomic.Int64
		var maxChange [64]float64
		sumDone := func(s int32) {
			d := done.Add(int64(s/2 - max(0, s-(A-1)) + 1))
			if progress != nil {
				progress(sweep, int(d), totalPairs)
			}
		}
		if sweep > 1 && t.penaltied() && t.m.penPts >= 2 && !t.test.alone {
			if err := t.overlapped(ctx, workers, sweep, runJob, sumDone, &maxChange); err != nil {
				return err
			}
		} else {
			for s := 2 * (A - 1); s >= 0; s-- {
				if err := runSum(s, sweep, &maxChange); err != nil {
					return err
				}
				sumDone(s)
			}
		}
		if sweep == 1 && t.penaltied() {
			// The first sweep guessed the penalty landings of the pairs
			// near the top (nothing above them along the diagonal was
			// solved): solve the pairs within two penalties of the top
			// sum again, reading the first sweep's solutions (a small
			// part of a sweep that saves one: classic 7 sweeps -> 6).
			var ignore [64]float64
			for s := 2 * (A - 1); s >= max(0, 2*(A-1)-2*t.m.penPts); s-- {
				if err := runSum(s, 2, &ignore); err != nil {
					return err
				}
			}
		}
		t.sweeps = sweep
		change := 0.0
		for _, c := range maxChange {
			change = max(change, c)
		}
		t.change = change
		if sweepDone != nil {
			sweepDone(sweep, change)
		}
		if !t.penaltied() {
			return nil
		}
		if sweep >= 3 && change < sweepStop {
			rho := max(change/prevDelta, prevRho)
			if change < tol || (rho < 0.5 && change*rho/(1-rho) < eTol) {
				t.errEst = change * rho / (1 - rho)
				return nil
			}
		}
		if sweep >= 3 {
			prevRho = change / prevDelta
		}
		prevDelta = change
	}
}

// job is n pairs of one score sum, {a+i, b-i} for i < n: one pair solved
// alone (job) or up to lanes side by side (jobLanes).
type job struct{ a, b, n int32 }

// work is one worker's scratch space.
type work struct {
	arr turnArrays
	st  []jobState
	lin []float64
}

type jobState struct {
	a, b, sa, sb      int32
	i                 int32 // table index
	fi, zi            int32 // table index of the farkle and nothing targets
	fIn, zIn          int32 // position in the job of those targets, -1 outside
	alpha, beta, zeta float64
}

// jobStates lists the states of the unordered pair {a, b}, a <= b, in the
// order they are solved, with their farkle and nothing targets, and reports
// whether a target inside the job comes at or after its state (a cycle).
func (t *Table) jobStates(st []jobState, a, b int32) ([]jobState, bool) {
	c := t.c
	st = st[:0]
	add := func(x, y int32) {
		for s := 2 * (c - 1); s >= 0; s-- { // by decreasing streak sum
			for sa := max(0, s-(c-1)); sa <= min(s, c-1); sa++ {
				sb := s - sa
				st = append(st, jobState{a: x, b: y, sa: sa, sb: sb, i: t.idx(x, y, sa, sb)})
			}
		}
	}
	add(a, b)
	if a != b {
		add(b, a)
	}
	// interleave so that the order is by decreasing streak sum overall
	sortByStreakSum(st)
	pos := func(i int32) int32 {
		for k := range st {
			if st[k].i == i {
				return int32(k)
			}
		}
		return -1
	}
	cyclic := false
	hasZ := t.m.hasNothing()
	for k := range st {
		s := &st[k]
		fb, fa, fsb, fsa := t.farkleTarget(s.a, s.b, s.sa, s.sb)
		s.fi = t.idx(fb, fa, fsb, fsa)
		s.zi = t.idx(s.b, s.a, s.sb, s.sa)
		s.fIn, s.zIn = pos(s.fi), -1
		if hasZ {
			s.zIn = pos(s.zi)
		}
		if s.fIn >= int32(k) || s.zIn >= int32(k) {
			cyclic = true
		}
	}
	return st, cyclic
}

// firstGuesses sets, in the first sweep, the starting values of the states
// of a job not solved yet.
func (t *Table) firstGuesses(st []jobState) {
	for k := range st {
		s := &st[k]
		if math.IsNaN(t.w[s.i]) {
			t.set(s.i, t.guess(s.a, s.b, s.sa, s.sb))
		}
	}
}

// job solves the states of the unordered pair {a, b}, a <= b.
func (t *Table) job(w *work, a, b int32, sweep int) (float64, error) {
	var cyclic bool
	w.st, cyclic = t.jobStates(w.st, a, b)
	return t.passes(w.st, cyclic, a, b, sweep, func(derivs bool) (float64, error) {
		return t.pass(w, cyclic, derivs)
	})
}

// passes solves the states st of the pair {a, b} in the given sweep with
// passes of one: in the first sweep from guesses where nothing is solved
// yet, a cycle from the slopes it kept from the last sweep (keptSlopes). A
// pass solves every state once (and a cycle's linear model) with or
// without derivatives; they go on until one changes no value by more than
// duelTol (one pass where the job is not a cycle). It returns the change
// of the first pass, against the last sweep (1 in the first sweep).
func (t *Table) passes(st []jobState, cyclic bool, a, b int32, sweep int, one func(derivs bool) (float64, error)) (float64, error) {
	if sweep == 1 {
		t.firstGuesses(st)
	}
	kept := t.keptSlopes(st, a, b, sweep)
	change := 0.0
	for pass := 0; ; pass++ {
		ch, err := one(cyclic && derivPass(pass, kept))
		if err != nil {
			return 0, err
		}
		if pass == 0 {
			change = ch
		}
		if !cyclic || ch < duelTol {
			break
		}
		if pass > 100 {
			return 0, fmt.Errorf("%w: pair (%d, %d)", ErrNoConvergence, a, b)
		}
	}
	t.keepSlopes(st, a, b)
	if sweep == 1 {
		return 1, nil
	}
	return change, nil
}

// A cyclic job alternates passes with derivatives (new slopes and the
// linear model solved) and chord passes (the slopes kept): the chord pass
// confirms the solution where the policies did not change, and where they
// did, costs less than a derivative pass and moves most of the way (the
// slopes change little). A job that starts from the slopes it ended the
// last sweep with (keptSlopes) begins with two chord passes: where the
// policies are those of the last sweep, the first solves the job and the
// second confirms it.
func derivPass(pass int, kept bool) bool {
	if kept {
		return pass >= 2 && pass%2 == 0
	}
	return pass%2 == 0
}

// slopesOf returns the slopes kept between sweeps for the pair {a, b}, or
// nil: only the pairs with a score of 0 under a penalty (cycles through
// the penalty, solved alone every sweep) keep them.
func (t *Table) slopesOf(a, b int32) []float64 {
	if a != 0 || t.slopes == nil {
		return nil
	}
	n := 4 * int(t.c) * int(t.c) // two slopes of 2c^2 states
	return t.slopes[int(b)*n : int(b+1)*n]
}

// keptSlopes sets the slopes of the states of a cyclic job from the last
// sweep's, where they are kept, and reports whether it did.
func (t *Table) keptSlopes(st []jobState, a, b int32, sweep int) bool {
	kept := t.slopesOf(a, b)
	if kept == nil || sweep == 1 {
		return false
	}
	for k := range st {
		st[k].beta, st[k].zeta = kept[2*k], kept[2*k+1]
	}
	return true
}

// keepSlopes keeps a job's slopes for the next sweep (see slopesOf).
func (t *Table) keepSlopes(st []jobState, a, b int32) {
	if kept := t.slopesOf(a, b); kept != nil {
		for k := range st {
			kept[2*k], kept[2*k+1] = st[k].beta, st[k].zeta
		}
	}
}

func sortByStreakSum(st []jobState) {
	for i := 1; i < len(st); i++ {
		for j := i; j > 0 && st[j].sa+st[j].sb > st[j-1].sa+st[j-1].sb; j-- {
			st[j], st[j-1] = st[j-1], st[j]
		}
	}
}

// guess returns a starting value for a state not solved yet: extrapolated
// from the neighbours of higher sum along the other player's score, by a
// parabola through three where they exist (the pair's cycle then keeps the
// policies of its first pass more often than with a line: a fifth fewer
// passes without a penalty), else by a line through two, else the nearest.
func (t *Table) guess(a, b, sa, sb int32) float64 {
	get := func(x, y int32) float64 {
		if x < t.A && y < t.A {
			return t.w[t.idx(x, y, sa, sb)]
		}
		return math.NaN()
	}
	if v1, v2, v3 := get(a, b+1), get(a, b+2), get(a, b+3); !math.IsNaN(v1) && !math.IsNaN(v2) && !math.IsNaN(v3) {
		return min(1, max(0, 3*v1-3*v2+v3))
	}
	for _, d := range [][2]int32{{0, 1}, {1, 0}} {
		v1, v2 := get(a+d[0], b+d[1]), get(a+2*d[0], b+2*d[1])
		if !math.IsNaN(v1) && !math.IsNaN(v2) {
			return min(1, max(0, 2*v1-v2))
		}
		if !math.IsNaN(v1) {
			return v1
		}
	}
	return 0.5
}

// pass solves every state of the job once in order (reading the values of
// the states before it), then, if the job is cyclic, solves the job's linear
// model (each value linear in its farkle and nothing values for the current
// policies) exactly. It returns the largest change of a value.
//
// With derivs false the slopes of the previous pass are kept (a chord step:
// the slopes are farkle probabilities of the policies, which rarely change
// between passes), which saves the derivative arrays.
func (t *Table) pass(w *work, cyclic, derivs bool) (float64, error) {
	change := 0.0
	for k := range w.st {
		s := &w.st[k]
		F := 1 - t.read(s.fi, s.a+s.b)
		Z := 1 - t.read(s.zi, s.a+s.b)
		v, dF, dZ := t.startValue(&w.arr, s.a, s.b, s.sa, s.sb, F, Z, derivs)
		change = max(change, t.record(s, v, dF, dZ, F, Z, derivs))
	}
	if !cyclic {
		return change, nil
	}
	ch, err := t.solveLinear(&w.lin, w.st)
	return max(change, ch), err
}

// record writes a state's new start value v, solved with farkle value F
// and nothing value Z, and its affine model: with derivs the slopes dF, dZ
// found with it, else the ones it had (a chord pass). It returns the change
// of the value (1 where it had none).
func (t *Table) record(s *jobState, v, dF, dZ, F, Z float64, derivs bool) float64 {
	if !derivs {
		dF, dZ = s.beta, s.zeta
	}
	s.alpha, s.beta, s.zeta = v-dF*F-dZ*Z, dF, dZ
	old := t.w[s.i]
	t.set(s.i, v)
	if math.IsNaN(old) {
		return 1
	}
	return math.Abs(v - old)
}

// solveLinear solves the linear model of a cyclic job exactly (each value
// linear in its farkle and nothing values for the current policies, by
// Gaussian elimination; the system is at most 2c^2 states), writes the
// values and returns the largest change.
func (t *Table) solveLinear(lin *[]float64, st []jobState) (float64, error) {
	// x_i + beta_i x_f(i) + zeta_i x_z(i) = rhs_i
	n := len(st)
	if cap(*lin) < n*(n+1) {
		*lin = make([]float64, n*(n+1))
	}
	mat := (*lin)[:n*(n+1)]
	clear(mat)
	for k := range st {
		s := &st[k]
		row := mat[k*(n+1) : (k+1)*(n+1)]
		row[k] += 1
		rhs := s.alpha + s.beta + s.zeta
		if s.fIn >= 0 {
			row[s.fIn] += s.beta
		} else {
			rhs -= s.beta * t.read(s.fi, s.a+s.b)
		}
		if s.zIn >= 0 {
			row[s.zIn] += s.zeta
		} else {
			rhs -= s.zeta * t.read(s.zi, s.a+s.b)
		}
		row[n] = rhs
	}
	if !solveDense(mat, n) {
		return 0, fmt.Errorf("%w: singular linear model of a pair", ErrNoConvergence)
	}
	change := 0.0
	for k := range st {
		v := mat[k*(n+1)+n]
		change = max(change, math.Abs(v-t.w[st[k].i]))
		t.set(st[k].i, v)
	}
	return change, nil
}

// read returns a table value; in the first sweep a value not solved yet (a
// farkle penalty lowered the score of the player not to move) is guessed by
// extrapolating linearly from the solved pairs of the same lead with both
// scores higher, or where there are none (near the target), from that
// player's solved scores above it. The guesses only set where the sweeps
// start: the sweeps go on until the values settle.
//
// The guess uses only scores summing above sum (the pairs already solved in
// this sweep), so that it does not move while the job at sum is solved.
func (t *Table) read(i, sum int32) float64 {
	v := t.w[i]
	if !math.IsNaN(v) {
		return v
	}
	c := t.c
	s := i % (c * c)
	ab := i / (c * c)
	a, b := ab/t.A, ab%t.A
	// First along the diagonal: both scores up by d (the lead kept) to the
	// first two solved sums, then linearly back; a score of the player not
	// to move at or above the target is the last turn of the game (lost at
	// once with the immediate ending).
	if d := (sum-(a+b))/2 + 1; a+d+1 < t.A {
		at := func(x, y int32) float64 {
			if y >= t.A {
				if t.m.immediate {
					return 0
				}
				return t.fr.at(y - x)
			}
			return t.w[((x*t.A+y)*c*c)+s]
		}
		v1, v2 := at(a+d, b+d), at(a+d+1, b+d+1)
		if !math.IsNaN(v1) && !math.IsNaN(v2) {
			return min(1, max(0, v1+float64(d)*(v1-v2)))
		}
	}
	// Else along the score of the player not to move.
	at := func(y int32) float64 { return t.w[((a*t.A+y)*c*c)+s] }
	for y := max(b+1, sum-a+1); y+1 < t.A; y++ {
		v1, v2 := at(y), at(y+1)
		if math.IsNaN(v1) || math.IsNaN(v2) {
			continue
		}
		return min(1, max(0, v1+float64(y-b)*(v1-v2)))
	}
	return 0.5
}

// mEff returns the least total the mover at score a may bank.
func (t *Table) mEff(a int32) int32 {
	m := max(t.m.bankMin, 1)
	if a == 0 {
		m = max(m, t.m.entryMin)
	}
	return m
}

// turnTop returns the top of the turn of the mover at a against b with
// farkle value F (the first total whose values are the tail's: banking
// there is provably best), and for each number of dice the first total from
// which throwing them is provably no better than banking (at most top).
func (t *Table) turnTop(a, b int32, F float64) (top int32, topN [8]int32) {
	m := t.m
	top = max(t.A-a, t.mEff(a))
	for n := range topN {
		topN[n] = 1 << 30
	}
	if !m.immediate {
		// Above the target, banking beats throwing n dice wherever the
		// other's chance to pass the lead is at most what a farkle of that
		// throw would cost: FR(d) <= pF(n)(1-F), since throwing is worth at
		// most (1-pF(n)) + pF(n)F. FR only decreases beyond (sup).
		base := top
		for n := int32(1); n <= int32(m.dice); n++ {
			lim := m.farkle[n] * (1 - F)
			if n == 6 && m.sdn > 0 {
				lim = 0
			}
			tn := base
			for ; ; tn++ {
				d := a + tn - b
				if int(d) >= len(t.fr.sup) || t.fr.sup[d] <= lim {
					break
				}
			}
			topN[n] = tn
			top = max(top, tn)
		}
	}
	for n := range topN {
		topN[n] = min(topN[n], top)
	}
	return top, topN
}

// turnRows is the length in totals of the in-turn arrays of a turn of the
// given top: the totals a keep (or the six-dice-nothing bonus) reaches.
func (t *Table) turnRows(top int32) int32 { return top + t.m.maxPts + t.m.sdn + 2 }

// bankAt returns the value of banking total tt for the mover at a against
// b (streak sb), who may bank from mEff: -Inf below it.
func (t *Table) bankAt(a, b, sb, tt, mEff int32) float64 {
	switch {
	case tt < mEff:
		return negInf
	case a+tt < t.A && t.banks != nil:
		return 1 - t.banks[(b*t.c+sb)*t.A+a+tt]
	case a+tt < t.A:
		return 1 - t.w[t.idx(b, a+tt, sb, 0)]
	case t.m.immediate:
		return 1
	default:
		return 1 - t.fr.at(a+tt-b)
	}
}

// setup fills the bank values and the tail of the in-turn arrays of the
// mover at a against b (streak sb) with farkle value F.
func (t *Table) setup(arr *turnArrays, a, b, sb int32, F float64, derivs bool) {
	m := t.m
	arr.top, arr.topN = t.turnTop(a, b, F)
	top := arr.top
	rows := t.turnRows(top)
	size := int(rows) * stride
	arr.resize(size, derivs)
	arr.noZ = m.hot
	if cap(arr.bank) < int(rows) {
		arr.bank = make([]float64, rows)
	}
	arr.bank = arr.bank[:rows]
	D := int32(m.dice)
	mEff := t.mEff(a)
	for tt := int32(0); tt < rows; tt++ {
		v := t.bankAt(a, b, sb, tt, mEff)
		arr.bank[tt] = v
		if tt >= top {
			o := tt * stride
			for j := int32(0); j <= D; j++ {
				arr.k[o+j] = v
				arr.q[o+j] = v
				if derivs {
					arr.kF[o+j], arr.qF[o+j], arr.kZ[o+j], arr.qZ[o+j] = 0, 0, 0, 0
				}
			}
		}
	}
}

// startValue solves the turn of the mover at a (streak sa) against b (streak
// sb) and returns the win probability at its start with its derivatives by
// the farkle value F and the nothing value Z.
func (t *Table) startValue(arr *turnArrays, a, b, sa, sb int32, F, Z float64, derivs bool) (v, dF, dZ float64) {
	t.setup(arr, a, b, sb, F, derivs)
	arr.skipBanked = true
	t.m.fill(arr, F, Z)
	D := int32(t.m.dice)
	if derivs {
		return arr.q[D], arr.qF[D], arr.qZ[D]
	}
	return arr.q[D], 0, 0
}

// solveDense solves the n x n system in m (rows of n coefficients and the
// right-hand side) in place by Gaussian elimination with partial pivoting;
// the solution is left in the last column. It reports false if singular.
func solveDense(m []float64, n int) bool {
	w := n + 1
	for col := 0; col < n; col++ {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(m[r*w+col]) > math.Abs(m[p*w+col]) {
				p = r
			}
		}
		if math.Abs(m[p*w+col]) < 1e-300 {
			return false
		}
		if p != col {
			for j := 0; j < w; j++ {
				m[p*w+j], m[col*w+j] = m[col*w+j], m[p*w+j]
			}
		}
		inv := 1 / m[col*w+col]
		for j := col; j < w; j++ {
			m[col*w+j] *= inv
		}
		for r := 0; r < n; r++ {
			if r == col || m[r*w+col] == 0 {
				continue
			}
			f := m[r*w+col]
			for j := col; j < w; j++ {
				m[r*w+j] -= f * m[col*w+j]
			}
		}
	}
	return true
}
