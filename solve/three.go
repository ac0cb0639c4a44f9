package solve

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/farkle/farkle/rules"
)

// OrbitRule says how the three-player solver resolves a score triple whose
// best responses cycle (no pure stationary equilibrium was found there).
type OrbitRule int

const (
	// OrbitMixed (the default): the movers that switch between two turn
	// policies along the cycle mix them with the probabilities that make
	// each of them indifferent (a mixed stationary equilibrium, found by
	// nested bisection to the last bit and checked against every other
	// policy with the turn's dynamic programme).
	OrbitMixed OrbitRule = iota
	// OrbitPure: the pure profile, among the policies seen along the
	// cycle, whose largest gain for a mover deviating alone is least (an
	// epsilon-equilibrium; the epsilon is reported as the orbit's regret).
	OrbitPure
)

func (r OrbitRule) String() string {
	if r == OrbitPure {
		return "pure"
	}
	return "mixed"
}

// ThreeOptions tunes SolveThree. The zero value is fine.
type ThreeOptions struct {
	// MaxBytes is the most memory the solve may need; 0 means
	// DefaultMaxBytes. A larger need is refused before any work.
	MaxBytes int64
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Rule resolves the orbits (score triples whose best responses cycle).
	Rule OrbitRule
	// Progress, if set, is called after each score sum with the work done
	// out of the total, in units proportional to the solve's CPU time (the
	// triples weighted by the turn totals their movers' turns cover: the
	// triples of high scores are quick), so that a linear estimate of the
	// time left holds from the start. With a farkle penalty it counts each
	// sweep from 0 again (how many sweeps is known only as they settle:
	// 5 to 12 at targets 300 to 1,000).
	Progress func(done, total int)
	// Context, if set, stops the solve early with its error.
	Context context.Context
	// Checkpoint, if set, is a file where a solve with a farkle penalty
	// keeps its values after each sweep (ThreeCheckpointFile), and from
	// which it resumes when started again with the same rules and orbit
	// rule: an interrupted solve of hours loses at most the sweep it was
	// in. A file of other rules, or damaged, is not used (Resume says why)
	// and is replaced after the first sweep. The caller removes it once
	// the table is saved.
	Checkpoint string
	// Resume, if set, is called once at the start of a solve with a
	// Checkpoint file: sweep > 0 when the solve resumes after that sweep,
	// else err says why the file was not used (nil: there was none).
	Resume func(sweep int, err error)
	// Sweep, if set, is called after each sweep of a solve with a farkle
	// penalty (SweepInfo).
	Sweep func(SweepInfo)

	test threeTest
}

// SweepInfo describes a finished sweep of a three-player solve with a
// farkle penalty.
type SweepInfo struct {
	// N is the sweep's number, from 1 (counted on from a checkpoint); 0
	// for the solve of the table without the penalty the sweeps start
	// from (its Change is 0).
	N int
	// Change is the largest change of a value in it.
	Change float64
	// Left is an estimate of the sweeps still to come, -1 when there is
	// none yet (the changes have not begun to fall geometrically); 0
	// when this sweep was the last.
	Left int
	// Seconds is the solve's time so far (a resumed solve's included);
	// Took, the sweep's own.
	Seconds, Took float64
}

// threeTest is what the package's tests change in one three-player solve
// (ThreeOptions.test), so that tests solving with different settings can
// run in parallel; the zero value is the solver as it runs. None of them
// changes the table (TestThreeLanesSameAsAlone, TestThreePrunedSame).
type threeTest struct {
	// alone solves every triple alone (job), never side by side
	// (jobLanes); the tables are the same to the last bit.
	alone bool
	// noSkip stops the turns skipping the throws a bound shows are no
	// better than banking (banked3); the tables are the same to the last
	// bit.
	noSkip bool
	// allOptions makes fill3 compare every option at every total (the
	// pruned options are then never used).
	allOptions bool
	// noReuse fills every turn of a best-response pass, also where the
	// mover's own farkle value is the one of its last fill (whose policy
	// is then reused: turnMemo3); the tables are the same to the last bit.
	noReuse bool
	// coldStart starts a solve with a farkle penalty from equal chances
	// instead of the table without the penalty (warmStart); the table
	// agrees within the sweeps' error, after more sweeps.
	coldStart bool
	// noPack solves the triples of a sum one job each with a farkle
	// penalty, never several side by side (streakJobRun); the tables are
	// the same to the last bit.
	noPack bool
	// stopAfter, where not 0, stops a solve with a farkle penalty after
	// that sweep (and its checkpoint) with errStopped, as an interruption
	// would.
	stopAfter int
}

// Orbit is a score triple whose movers' best responses cycled: no pure
// stationary equilibrium was found by best-response iteration there.
type Orbit struct {
	// Scores of the seats in turn order from the triple's first mover
	// (points).
	Scores [3]int
	// Mix[i]: the weight the mover of rotation i (Scores rotated left i
	// times) puts on its policy with more farkle risk; NaN for a mover that
	// plays one policy.
	Mix [3]float64
	// Mixed is false where the mixed rule failed (a mover switched between
	// more than two policies, or the mix was not an equilibrium) and the
	// pure rule was used instead.
	Mixed bool
	// Amplitude is the largest swing of a win probability along the
	// best-response cycle.
	Amplitude float64
	// Regret is the most a mover could gain by changing its policy alone
	// under the profile used (0 up to rounding for a mixed equilibrium).
	Regret float64
	// Streaks (with a farkle penalty) are the seats' farkle streaks at the
	// orbit's first state, in the order of Scores.
	Streaks [3]int
	// Movers is the number of states of the farkle cycle (0 for the
	// three rotations of a triple without streaks); CycleMix, with a
	// penalty, the weight of each of its movers on its riskier policy
	// (NaN for a mover playing purely), from the first state on. Mix then
	// holds its first three.
	Movers   int
	CycleMix []float64
}

// Three is the solution of the three-player game for one rule set: for
// every triple of scores below the target (and, with a farkle penalty,
// every triple of the seats' farkle streaks), the probabilities that the
// seat to move, the next seat and the one after win, at the start of the
// mover's turn. It is immutable and safe for concurrent use.
type Three struct {
	m       *model
	A       int32
	c       int32     // streak states per player: the penalty's count, else 1
	w       []float64 // 3 per state (mover, next, next-next), index tsidx
	fin     *final3   // nil with the immediate ending
	rule    OrbitRule
	orbits  []Orbit
	seconds float64
	resid   float64 // largest residual of a converged triple
	regret  float64 // largest regret left at an orbit
	// sweeps, change and errEst: with a farkle penalty, the sweeps run,
	// the largest change of a value in the last one and the error it
	// leaves (estimated as the duel's).
	sweeps         int
	change, errEst float64
	turns          turnMemo[*threeTurn]
	// test is the solve's test settings (ThreeOptions.test), the zero
	// value after it.
	test threeTest
	// fills and reused count the turns of the best-response passes filled
	// and those whose policy was reused (turnMemo3); packed, with a
	// penalty, the jobs of several triples (streakJobRun).
	fills, reused, packed int64
}

// tidx returns the index of the values of the triple (a, b, c) with every
// streak 0.
func (t *Three) tidx(a, b, c int32) int { return t.tsidx(a, b, c, 0) }

// tsidx returns the index of the values of the triple (a, b, c) with the
// streaks of streak index s (sidx).
func (t *Three) tsidx(a, b, c int32, s int) int {
	A, C := int(t.A), int(t.c)
	return (((int(a)*A+int(b))*A+int(c))*C*C*C + s) * 3
}

// sidx returns the streak index of the mover's streak sa, the next seat's
// sb and the one after's sc.
func (t *Three) sidx(sa, sb, sc int32) int { return int((sa*t.c+sb)*t.c + sc) }

// threeStreaks returns the streak states per player of m's three-player
// table: the penalty's count where a farkle penalty takes points, else 1.
func (m *model) threeStreaks() int32 {
	if m.penCount > 0 && m.penPts > 0 {
		return int32(m.penCount)
	}
	return 1
}

// CheckThreeRules returns an error wrapping ErrRules if r is not valid, does
// not allow three players, or is outside what the three-player solver
// handles: a turn that can end with nothing (no hot dice, and a bank or
// entry minimum above one unit) under a farkle penalty that takes points
// (ErrThreeBankMinimum).
func CheckThreeRules(r rules.Rules) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrRules, err)
	}
	if r.Game.MinPlayers > 3 || r.Game.MaxPlayers < 3 {
		return fmt.Errorf("%w: these rules allow %d to %d players (game.min_players, game.max_players); the three-player solver plays three", ErrRules, r.Game.MinPlayers, r.Game.MaxPlayers)
	}
	m := newModel(r)
	if m.threeStreaks() > 1 && !m.hot && max(m.bankMin, m.entryMin) > 1 {
		return ErrThreeBankMinimum
	}
	return m.bounded()
}

// threePlan is the memory of a three-player solve.
func (m *model) threeBytes(workers int) float64 {
	A := float64(m.target)
	lx := float64(m.finalRoundRows())
	C := float64(m.threeStreaks())
	table := 8 * 3 * A * A * A * C * C * C
	fin := 0.0
	if !m.immediate {
		fin = 32*(lx+1)*lx + 16*(lx+1)
	}
	rows := A + lx + float64(m.maxPts+m.sdn) + 2
	if !m.immediate {
		rows += lx
	}
	// k, q, own of a turn alone and of each lane's setup; the lanes' k and
	// q (e3 values an entry), bank and ok
	perWorker := rows*stride*(32+32+8)*(1+lanes3) + rows*stride*e3*8*2 + rows*(4*lanes3*8+lanes3)
	solve := float64(m.bytes()) + modelOverhead + fin + float64(workers)*perWorker
	if C > 1 {
		// the warm start's table without the penalty, solved before the
		// sweeps' workers are made (warmStart)
		solve += table/(C*C*C) + float64(m.bytes()) + modelOverhead + fin
	}
	return solve + table + duelOverhead
}

// ThreeBytes returns the memory a three-player solve of r needs (an upper
// bound), or an error wrapping ErrRules or ErrTooLarge.
func ThreeBytes(r rules.Rules, workers int) (int64, error) {
	if err := CheckThreeRules(r); err != nil {
		return 0, err
	}
	m := newModel(r)
	return toBytes("the three-player solve of these rules", m.threeBytes(duelWorkers(workers)))
}

// ThreeTriples returns the number of states of r's three-player table: the
// score triples (the target in the solver's units, cubed) times, with a
// farkle penalty, the triples of streaks (the penalty's count cubed). Its
// memory grows with it; without a penalty its solve's CPU time grows about
// as its 4/3 power. Errors wrap ErrRules.
func ThreeTriples(r rules.Rules) (int64, error) {
	if err := CheckThreeRules(r); err != nil {
		return 0, err
	}
	m := newModel(r)
	A, C := int64(m.target), int64(m.threeStreaks())
	return A * A * A * C * C * C, nil
}

func checkThree(m *model, workers int, limit int64) error {
	need := m.threeBytes(workers)
	A, C := int64(m.target), int64(m.threeStreaks())
	dims := fmt.Sprintf("%d scores per player in units of %d: %d triples", m.target, m.unit, A*A*A)
	if C > 1 {
		dims += fmt.Sprintf(", times %d triples of farkle streaks", C*C*C)
	}
	if need > float64(limit) {
		return sizeError("the three-player solve of these rules", need, limit, dims)
	}
	return nil
}

// SolveThree solves the three-player game of r. Errors wrap ErrRules,
// ErrTooLarge, ErrNoConvergence or the context's error.
func SolveThree(r rules.Rules, opt ThreeOptions) (*Three, error) {
	if err := CheckThreeRules(r); err != nil {
		return nil, err
	}
	m := newModel(r)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := checkThree(m, workers, limitOr(opt.MaxBytes)); err != nil {
		return nil, err
	}
	start := time.Now()
	t := &Three{m: m, A: m.target, c: m.threeStreaks(), rule: opt.Rule, test: opt.test}
	if !m.immediate {
		t.fin = m.newFinal3(opt.test.allOptions)
	}
	C := int(t.c)
	t.w = make([]float64, 3*int(t.A)*int(t.A)*int(t.A)*C*C*C)
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := t.solve(ctx, workers, &opt, start); err != nil {
		return nil, err
	}
	t.seconds += time.Since(start).Seconds()
	return t, nil
}

// readyState is a state of a round (streakRound): its job among the
// round's and its index there.
type readyState struct{ job, k int }

// threeWork is one worker's scratch space and findings.
type threeWork struct {
	d      dp3
	la     lane3Arrays
	jobs   [lanes3]tripleJob
	orbits []Orbit
	resid  float64
	regret float64
	// fills and reused: the turns of best-response passes filled and
	// reused (Three.fills, Three.reused)
	fills, reused int64
	// memo is the memo of a farkle cycle with streaks (solveCycle)
	memo turnMemo3
	// ready holds the states of a round side by side (streakRound)
	ready []readyState
}

// sumWork is the work of the triples of score sum s, in the units of
// ThreeOptions.Progress: each triple's three turns cover the totals from its
// movers' scores to the target and the throws above it (k rows each).
func sumWork(A, s, k int32) int {
	n := 0
	for a := max(0, s-2*(A-1)); a <= min(s, A-1); a++ {
		n += int(min(s-a, A-1)-max(0, s-a-(A-1))) + 1
	}
	return n * int(3*A-s+3*k)
}

func (t *Three) solve(ctx context.Context, workers int, opt *ThreeOptions, start time.Time) error {
	if t.c > 1 {
		return t.solveStreaks(ctx, workers, opt, start)
	}
	progress := opt.Progress
	A := t.A
	k := t.m.maxPts + t.m.sdn + 2
	total := 0
	for s := 3 * (A - 1); s >= 0; s-- {
		total += sumWork(A, s, k)
	}
	var done int
	defer func() { t.test = threeTest{} }()
	ws := make([]*threeWork, workers)
	for i := range ws {
		ws[i] = &threeWork{la: lane3Arrays{skipBanked: !t.test.noSkip, allOptions: t.test.allOptions}}
	}
	if progress != nil {
		progress(0, total)
	}
	for s := 3 * (A - 1); s >= 0; s-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		jobs := canonicalTriples(A, s)
		batches := tripleBatches(len(jobs), workers, !t.test.alone)
		err := eachJob(workers, len(batches), func(wi, i int) error {
			b := jobs[batches[i][0]:batches[i][1]]
			if len(b) == 1 {
				return t.job(ws[wi], b[0])
			}
			return t.jobLanes(ws[wi], b)
		})
		if err != nil {
			return err
		}
		done += sumWork(A, s, k)
		if progress != nil {
			progress(done, total)
		}
	}
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

// canonicalTriples returns the score triples of sum s (scores below A)
// that are the least of their rotations, in order.
func canonicalTriples(A, s int32) [][3]int32 {
	var jobs [][3]int32
	for a := max(0, s-2*(A-1)); a <= min(s, A-1); a++ {
		for b := max(0, s-a-(A-1)); b <= min(s-a, A-1); b++ {
			c := s - a - b
			if canonical(a, b, c) {
				jobs = append(jobs, [3]int32{a, b, c})
			}
		}
	}
	return jobs
}

// eachJob runs do(wi, i) for every i < n on up to workers goroutines (wi
// numbers the goroutine, for its scratch space), taking the jobs in order;
// it returns an error of do (the others' jobs may have run), or a panic of
// one as an error wrapping ErrInternal.
func eachJob(workers, n int, do func(wi, i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	for wi := 0; wi < min(workers, n); wi++ {
		wg.Add(1)
		go func(wi int) {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					firstErr = fmt.Errorf("%w: a three-player worker panicked: %v", ErrInternal, p)
					mu.Unlock()
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := do(wi, i); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
			}
		}(wi)
	}
	wg.Wait()
	return firstErr
}

// tripleBatches splits n triples into the index ranges of the jobs of a
// sum: lanes3 triples side by side (side), at least one batch a worker
// where there are triples enough; one at a time without side (in tests).
func tripleBatches(n, workers int, side bool) [][2]int {
	size := 1
	if side {
		size = min(lanes3, max(1, (n+workers-1)/workers))
	}
	var out [][2]int
	for i := 0; i < n; i += size {
		out = append(out, [2]int{i, min(i+size, n)})
	}
	return out
}

func sortOrbits(o []Orbit) {
	less := func(x, y Orbit) bool {
		for i := range x.Scores {
			if x.Scores[i] != y.Scores[i] {
				return x.Scores[i] < y.Scores[i]
			}
		}
		return false
	}
	for i := 1; i < len(o); i++ {
		for j := i; j > 0 && less(o[j], o[j-1]); j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
}

// canonical reports whether (a, b, c) is the least of its rotations.
func canonical(a, b, c int32) bool {
	x := [3]int32{a, b, c}
	for _, y := range [][3]int32{{b, c, a}, {c, a, b}} {
		if y[0] < x[0] || y[0] == x[0] && (y[1] < x[1] || y[1] == x[1] && y[2] < x[2]) {
			return false
		}
	}
	return true
}

// rot turns a value of the next state (its mover, next, next-next) into the
// order of the state before it (whose mover is the next state's
// next-next): (v2, v0, v1).
func rot(v vec4) vec4 { return vec4{v[2], v[0], v[1], 0} }

// policy is the affine value of a turn under one policy: alpha + beta*F.
type policy struct {
	alpha [3]float64
	beta  float64
}

func (p policy) own(x float64) float64 { return p.alpha[0] + p.beta*x }

// turn solves the turn of the mover at a against b (next) and c (next
// after) with own farkle value x and returns the best policy's affine form.
func (t *Three) turn(d *dp3, a, b, c int32, x float64) policy {
	return t.turnS(d, a, b, c, 0, x)
}

// turnS is turn with the streaks of the bank target, (b's, c's, 0), at
// streak index bs.
func (t *Three) turnS(d *dp3, a, b, c int32, bs int, x float64) policy {
	t.setup(d, a, b, c, bs, x)
	d.skipBanked, d.allOptions = !t.test.noSkip, t.test.allOptions
	t.m.fill3(d, x, 0)
	q := d.q[t.m.dice]
	return policy{alpha: [3]float64{q[0], q[1], q[2]}, beta: q[3]}
}

// mEff is the least total the mover at a may bank (at least one unit).
func (t *Three) mEff(a int32) int32 {
	m := max(t.m.bankMin, 1)
	if a == 0 {
		m = max(m, t.m.entryMin)
	}
	return m
}

// bankVec is the value of banking total tt for the mover at a, the others'
// streaks (b's, c's, and the mover's 0 after its bank) at streak index bs.
func (t *Three) bankVec(a, b, c int32, bs int, tt int32) vec4 {
	switch {
	case a+tt < t.A:
		return t.moverFirst(t.tsidx(b, c, a+tt, bs))
	case t.fin == nil:
		return vec4{1, 0, 0, 0}
	default:
		return t.fin.at(a+tt, b, c)
	}
}

// moverFirst returns the values at table index i, of the state after a
// bank (its mover the next seat, the banker last), in the banker's order:
// the banker's, the next seat's, the one after's.
func (t *Three) moverFirst(i int) vec4 { return vec4{t.w[i+2], t.w[i], t.w[i+1], 0} }

// setup fills the bank values of the mover at a (others b, c; the bank
// target's streak index bs) and the top.
func (t *Three) setup(d *dp3, a, b, c int32, bs int, x float64) {
	mEff := t.mEff(a)
	top := t.turnTop(a, b, c, bs, x)
	d.top = top
	d.resize(t.turnRows(top))
	for tt := int32(0); tt < d.rows; tt++ {
		d.ok[tt] = tt >= mEff
		if d.ok[tt] {
			d.bank[tt] = t.bankVec(a, b, c, bs, tt)
		}
	}
}

// turnTop returns the top of the turn of the mover at a (others b, c; the
// bank target's streak index bs) with own farkle value x: the first total
// from which banking is best at every total above.
func (t *Three) turnTop(a, b, c int32, bs int, x float64) int32 {
	top := max(t.A-a, t.mEff(a))
	if t.fin != nil {
		// Above the target banking is best wherever its value is at least
		// what any throw can be worth, 1 - pF(1-x); the trigger's chance
		// grows with its lead, and from max(b, c)+lx on it is taken as 1.
		lim := 1 - t.m.pFmin()*(1-x)
		for ; a+top < max(b, c)+t.fin.lx; top++ {
			if t.bankVec(a, b, c, bs, top)[0] >= lim {
				break
			}
		}
	}
	return top
}

// turnRows is the length in totals of the in-turn arrays of a turn of the
// given top: the totals a keep (or the six-dice-nothing bonus) reaches.
func (t *Three) turnRows(top int32) int32 { return top + t.m.maxPts + t.m.sdn + 2 }

// threeMaxPass bounds the best-response passes of a triple before its
// policies are declared cycling.
const threeMaxPass = 60

// tripleJob is the best-response iteration of the (up to) three states of
// the rotations of a score triple: the mover of each farkles to the next
// rotation. The first pass answers the guesses; later passes update one
// mover at a time, each reading the values solved with the others' latest
// policies (simultaneous updates cycle where sequential ones settle).
type tripleJob struct {
	st      [3][3]int32
	V       [3]vec4
	P, prev [3]policy
	same    bool // equal scores: the three rotations are one state
	hist    [][3]policy
	vals    [][3]vec4
	pass    int
	memo    turnMemo3
}

// turnMemo3 holds the last turn filled for each mover of a best-response
// iteration: its own farkle value and the policy found. A turn is a
// function of the mover's state, the table values it reads (solved before
// the iteration starts, unchanged during it) and its own farkle value x
// alone, so a mover whose x is the same to the last bit as at its last
// fill gets the same policy to the last bit without a fill. That is the
// case for every mover after the last one whose policy changed in a pass
// (the confirming pass then fills only the movers up to that one).
type turnMemo3 struct {
	x   []float64
	p   []policy
	has []bool
}

// reset empties the memo for n movers.
func (m *turnMemo3) reset(n int) {
	if cap(m.x) < n {
		m.x, m.p, m.has = make([]float64, n), make([]policy, n), make([]bool, n)
	}
	m.x, m.p, m.has = m.x[:n], m.p[:n], m.has[:n]
	clear(m.has)
}

// get returns mover k's policy at own farkle value x if its last fill was
// at x (to the last bit) and reuse is on.
func (m *turnMemo3) get(k int, x float64, on bool) (policy, bool) {
	if !on || !m.has[k] || math.Float64bits(m.x[k]) != math.Float64bits(x) {
		return policy{}, false
	}
	return m.p[k], true
}

// put records mover k's fill at x.
func (m *turnMemo3) put(k int, x float64, p policy) {
	m.x[k], m.p[k], m.has[k] = x, p, true
}

func (t *Three) startJob(j *tripleJob, s [3]int32) {
	memo := j.memo
	*j = tripleJob{st: [3][3]int32{{s[0], s[1], s[2]}, {s[1], s[2], s[0]}, {s[2], s[0], s[1]}}, memo: memo}
	j.memo.reset(3)
	for k := range j.st {
		j.V[k] = t.guess(j.st[k])
	}
	j.same = s[0] == s[1] && s[1] == s[2]
}

// needs reports whether step k of a pass solves a turn (else it copies the
// first mover's policy: equal scores).
func (j *tripleJob) needs(k int) bool { return !j.same || k == 0 }

// x is the own farkle value of the mover of step k.
func (j *tripleJob) x(k int) float64 { return j.V[(k+1)%3][2] }

// set records the policy of step k (the first mover's where !needs(k)).
func (j *tripleJob) set(k int, p policy) {
	if !j.needs(k) {
		j.P[k] = j.P[0]
		return
	}
	j.P[k] = p
	if j.pass > 0 && !j.same {
		j.V = cycleSolve(j.P)
	}
}

// endPass ends a pass: it reports whether the triple is solved (its values
// stored, or its orbit resolved), else prepares the next pass.
func (t *Three) endPass(w *threeWork, j *tripleJob) (bool, error) {
	if j.pass > 0 && j.P == j.prev {
		w.resid = max(w.resid, cycleResid(j.P, j.V))
		t.store(j.st, j.V)
		return true, nil
	}
	cyc := -1
	for i := range j.hist {
		if j.hist[i] == j.P {
			cyc = i
		}
	}
	j.hist = append(j.hist, j.P)
	if cyc >= 0 || j.pass >= threeMaxPass {
		if cyc < 0 {
			cyc = len(j.hist) - 20
		}
		return true, t.orbit(w, j.st, j.hist[cyc:], j.vals[cyc:])
	}
	j.V = cycleSolve(j.P)
	j.vals = append(j.vals, j.V)
	j.pass++
	j.prev = j.P
	return false, nil
}

// job solves the triple s alone.
func (t *Three) job(w *threeWork, s [3]int32) error {
	j := &w.jobs[0]
	t.startJob(j, s)
	for {
		for k := range j.st {
			var p policy
			if j.needs(k) {
				x := j.x(k)
				var ok bool
				if p, ok = j.memo.get(k, x, !t.test.noReuse); ok {
					w.reused++
				} else {
					p = t.turn(&w.d, j.st[k][0], j.st[k][1], j.st[k][2], x)
					j.memo.put(k, x, p)
					w.fills++
				}
			}
			j.set(k, p)
		}
		if done, err := t.endPass(w, j); done || err != nil {
			return err
		}
	}
}

// jobLanes solves the triples ss (at most lanes3, of one score sum: they
// read none of each other) as job does each alone, the turns of a step of
// their passes filled side by side; a triple solved leaves the lanes.
func (t *Three) jobLanes(w *threeWork, ss [][3]int32) error {
	active := uint8(0)
	for l, s := range ss {
		t.startJob(&w.jobs[l], s)
		active |= 1 << l
	}
	var sc [lanes3][3]int32
	var bs [lanes3]int // no streaks: every bank target at streak index 0
	var xs [lanes3]float64
	var ps [lanes3]policy
	for active != 0 {
		for k := range 3 {
			live := uint8(0)
			for l := range ss {
				j := &w.jobs[l]
				if active>>l&1 == 0 || !j.needs(k) {
					continue
				}
				x := j.x(k)
				if p, ok := j.memo.get(k, x, !t.test.noReuse); ok {
					ps[l] = p
					w.reused++
					continue
				}
				sc[l], xs[l] = j.st[k], x
				live |= 1 << l
			}
			if live != 0 {
				t.setupLanes3(&w.la, &sc, &bs, &xs, live)
				t.m.fill3Lanes(&w.la)
				for l := range ss {
					if live>>l&1 != 0 {
						ps[l] = w.la.policyLane(l, t.m.dice)
						w.jobs[l].memo.put(k, xs[l], ps[l])
						w.fills++
					}
				}
			}
			for l := range ss {
				if active>>l&1 != 0 {
					w.jobs[l].set(k, ps[l])
				}
			}
		}
		for l := range ss {
			if active>>l&1 == 0 {
				continue
			}
			done, err := t.endPass(w, &w.jobs[l])
			if err != nil {
				return err
			}
			if done {
				active &^= 1 << l
			}
		}
	}
	return nil
}

// guess returns a starting value of a state: a solved neighbour of higher
// sum, or equal chances.
func (t *Three) guess(s [3]int32) vec4 {
	for _, d := range [][3]int32{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}} {
		a, b, c := s[0]+d[0], s[1]+d[1], s[2]+d[2]
		if a < t.A && b < t.A && c < t.A {
			i := t.tidx(a, b, c)
			return vec4{t.w[i], t.w[i+1], t.w[i+2], 0}
		}
	}
	return vec4{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}
}

func (t *Three) store(st [3][3]int32, V [3]vec4) {
	for k := range st {
		i := t.tidx(st[k][0], st[k][1], st[k][2])
		t.w[i], t.w[i+1], t.w[i+2] = V[k][0], V[k][1], V[k][2]
	}
}

// cycleSolve returns the values of the three rotations under policies P:
// V_k = alpha_k + beta_k * rot(V_{k+1}); as rot^3 is the identity,
// V_0 = (alpha_0 + beta_0 rot(alpha_1) + beta_0 beta_1 rot^2(alpha_2)) /
// (1 - beta_0 beta_1 beta_2).
func cycleSolve(P [3]policy) [3]vec4 {
	a := func(k int) vec4 { return vec4{P[k].alpha[0], P[k].alpha[1], P[k].alpha[2], 0} }
	var V [3]vec4
	den := 1 - P[0].beta*P[1].beta*P[2].beta
	r1, r2 := rot(a(1)), rot(rot(a(2)))
	for i := 0; i < 3; i++ {
		V[0][i] = (a(0)[i] + P[0].beta*r1[i] + P[0].beta*P[1].beta*r2[i]) / den
	}
	for k := 2; k >= 1; k-- {
		n := rot(V[(k+1)%3])
		for i := 0; i < 3; i++ {
			V[k][i] = P[k].alpha[i] + P[k].beta*n[i]
		}
	}
	return V
}

// cycleResid is the largest residual of V_k = alpha_k + beta_k rot(V_{k+1}).
func cycleResid(P [3]policy, V [3]vec4) float64 {
	r := 0.0
	for k := range P {
		n := rot(V[(k+1)%3])
		for i := 0; i < 3; i++ {
			r = max(r, math.Abs(V[k][i]-P[k].alpha[i]-P[k].beta*n[i]))
		}
	}
	return r
}

// policy mixes: weight p on hi, 1-p on lo.
func mixPolicy(lo, hi policy, p float64) policy {
	var r policy
	for i := range r.alpha {
		r.alpha[i] = (1-p)*lo.alpha[i] + p*hi.alpha[i]
	}
	r.beta = (1-p)*lo.beta + p*hi.beta
	return r
}

// orbit resolves a triple whose best responses cycled through the profiles
// in cyc (vals: the values solved for each) by the table's rule.
func (t *Three) orbit(w *threeWork, st [3][3]int32, cyc [][3]policy, vals [][3]vec4) error {
	o := Orbit{Mix: [3]float64{math.NaN(), math.NaN(), math.NaN()}}
	for k := range o.Scores {
		o.Scores[k] = int(st[0][k]) * t.m.unit
	}
	hist := make([][]policy, len(cyc))
	for i := range cyc {
		hist[i] = cyc[i][:]
	}
	vs := make([][]vec4, len(vals))
	for i := range vals {
		vs[i] = vals[i][:]
	}
	same := st[0][0] == st[0][1] && st[0][1] == st[0][2]
	V, mix := t.resolveOrbit(w, &o, hist, vs, same, func(k int, x float64) policy {
		return t.turn(&w.d, st[k][0], st[k][1], st[k][2], x)
	})
	copy(o.Mix[:], mix)
	w.orbits = append(w.orbits, o)
	t.store(st, [3]vec4(V))
	return nil
}

// resolveOrbit resolves a farkle cycle of movers (the three rotations of a
// triple, or with streaks a cycle at (0, 0, 0)) whose best responses cycled
// through the profiles in hist (vals: the values solved for each) by the
// table's rule, turn solving mover k's turn at own farkle value x; same:
// the movers are one state (equal scores without streaks) and play alike.
// It sets o's amplitude, Mixed and Regret, and returns the values of the
// profile used and, where mixed, each mover's weight (NaN: pure).
//
// OrbitMixed: a mixed equilibrium of the policies the movers played
// (mixedEquilibriumN), checked against every other policy with the turn's
// programme (a better one found joins the candidates, up to 8 tries);
// else, or with OrbitPure, the pure profile of least regret.
func (t *Three) resolveOrbit(w *threeWork, o *Orbit, hist [][]policy, vals [][]vec4, same bool, turn func(k int, x float64) policy) ([]vec4, []float64) {
	n := len(hist[0])
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range vals {
				lo, hi = min(lo, v[i][c]), max(hi, v[i][c])
			}
			o.Amplitude = max(o.Amplitude, hi-lo)
		}
	}
	// the policies each mover played along the cycle
	sets := make([][]policy, n)
	for _, P := range hist {
		for k := range P {
			if !containsPolicy(sets[k], P[k]) {
				sets[k] = append(sets[k], P[k])
			}
		}
	}
	V := make([]vec4, n)
	// regrets solves V for P and returns the largest gain of a mover
	// deviating alone, and each mover's best response
	regrets := func(P []policy) (float64, []policy) {
		cycleSolveN(P, V)
		reg := 0.0
		br := make([]policy, n)
		for k := range P {
			x := V[(k+1)%n][2]
			br[k] = turn(k, x)
			reg = max(reg, br[k].own(x)-P[k].own(x))
		}
		return reg, br
	}
	var mix []float64
	resolved := false
	if t.rule == OrbitMixed {
		for try := 0; try < 8 && !resolved; try++ {
			P, m, ok := mixedEquilibriumN(sets, same)
			if !ok {
				break
			}
			reg, found := regrets(P)
			if reg <= 1e-12 {
				o.Regret, resolved, mix = reg, true, m
				break
			}
			// a policy outside the cycle does better: add it and retry
			grew := false
			for k := range found {
				if !containsPolicy(sets[k], found[k]) {
					sets[k] = append(sets[k], found[k])
					grew = true
				}
			}
			if !grew {
				break
			}
		}
	}
	o.Mixed = resolved
	if !resolved {
		best, bestP := math.Inf(1), []policy(nil)
		eachProfile(sets, 1<<16, func(P []policy) {
			for k := range P {
				if same && P[k] != P[0] {
					return // one state, one policy
				}
			}
			if r, _ := regrets(P); r < best {
				best, bestP = r, append([]policy(nil), P...)
			}
		})
		o.Regret = best
		cycleSolveN(bestP, V)
	}
	w.regret = max(w.regret, o.Regret)
	return V, mix
}

func containsPolicy(s []policy, p policy) bool {
	for _, q := range s {
		if q == p {
			return true
		}
	}
	return false
}

// envelope returns the policies of s that are best for their mover at some
// own farkle value x in [0, 1], by increasing beta (the order in which they
// become best as x grows).
func envelope(s []policy) []policy {
	ps := append([]policy(nil), s...)
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && (ps[j].beta < ps[j-1].beta || ps[j].beta == ps[j-1].beta && ps[j].alpha[0] > ps[j-1].alpha[0]); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	// best at x = 0 first, then follow the upper envelope upwards
	cur := 0
	for i := range ps {
		if ps[i].own(0) > ps[cur].own(0) || ps[i].own(0) == ps[cur].own(0) && ps[i].beta > ps[cur].beta {
			cur = i
		}
	}
	env := []policy{ps[cur]}
	x := 0.0
	for {
		next, nx := -1, math.Inf(1)
		for i := range ps {
			if ps[i].beta <= ps[cur].beta {
				continue
			}
			// where ps[i] overtakes ps[cur]
			c := (ps[cur].alpha[0] - ps[i].alpha[0]) / (ps[i].beta - ps[cur].beta)
			c = max(c, x)
			if c < nx || c == nx && next >= 0 && ps[i].beta > ps[next].beta {
				next, nx = i, c
			}
		}
		if next < 0 || nx > 1 {
			return env
		}
		cur, x = next, nx
		env = append(env, ps[cur])
	}
}

// solveIndifference sets lam[k] for k in S so that every resid is 0: by
// bisection on [0, 1] for one unknown, by Newton's method from 1/2 for
// more. It reports whether it got there within [0, 1].
func solveIndifference(lam []float64, S []int, resid func() []float64) bool {
	switch len(S) {
	case 0:
		return true
	case 1:
		k := S[0]
		f := func(v float64) float64 { lam[k] = v; return resid()[0] }
		fa, fb := f(0), f(1)
		if fa == 0 {
			return f(0) == 0
		}
		if fb == 0 {
			return true
		}
		if (fa > 0) == (fb > 0) {
			return false
		}
		a, b := 0.0, 1.0
		for {
			c := (a + b) / 2
			if c == a || c == b {
				break
			}
			if fc := f(c); fc == 0 {
				return true
			} else if (fc > 0) == (fa > 0) {
				a = c
			} else {
				b = c
			}
		}
		f((a + b) / 2)
		return true
	}
	n := len(S)
	for _, k := range S {
		lam[k] = 0.5
	}
	mat := make([]float64, n*(n+1))
	for it := 0; it < 60; it++ {
		r := resid()
		worst := 0.0
		for _, v := range r {
			worst = max(worst, math.Abs(v))
		}
		if worst < 1e-15 {
			break
		}
		const h = 1e-7
		for j, k := range S {
			old := lam[k]
			lam[k] = old + h
			rh := resid()
			lam[k] = old
			for i := range r {
				mat[i*(n+1)+j] = (rh[i] - r[i]) / h
			}
		}
		for i := range r {
			mat[i*(n+1)+n] = -r[i]
		}
		if !solveDense(mat, n) {
			return false
		}
		for j, k := range S {
			lam[k] += mat[j*(n+1)+n]
			if lam[k] < -0.5 || lam[k] > 1.5 {
				return false
			}
		}
	}
	for _, k := range S {
		if lam[k] < 0 || lam[k] > 1 {
			return false
		}
	}
	return true
}

// Rules returns the rules the table was solved for.
func (t *Three) Rules() rules.Rules { return t.m.r.Clone() }

// Unit returns the point unit of the table's scores.
func (t *Three) Unit() int { return t.m.unit }

// Triples returns the number of score triples in the table (A^3 for scores
// 0..A-1 in units).
func (t *Three) Triples() int { return len(t.w) / 3 / int(t.c*t.c*t.c) }

// Sweeps returns the sweeps a solve with farkle streaks ran (0 without
// them, or for a table read from a file).
func (t *Three) Sweeps() int { return t.sweeps }

// SweepError returns the error the sweeps left, as estimated from their
// last changes (0 without streaks, or for a table read from a file).
func (t *Three) SweepError() float64 { return t.errEst }

// Streaks returns the farkle streak states per player of the table: the
// penalty's count where a farkle penalty takes points, else 1.
func (t *Three) Streaks() int { return int(t.c) }

// Seconds returns how long the solve took (as solved, also when loaded).
func (t *Three) Seconds() float64 { return t.seconds }

// Rule returns the orbit rule the table was solved with.
func (t *Three) Rule() OrbitRule { return t.rule }

// Orbits returns the score triples whose best responses cycled, in order
// of scores.
func (t *Three) Orbits() []Orbit { return append([]Orbit(nil), t.orbits...) }

// Residual returns the largest residual of a triple solved by best-response
// iteration (its policies unchanged by a further pass, the values solved
// exactly for them): the linear system's rounding, below 1e-15.
func (t *Three) Residual() float64 { return t.resid }

// Regret returns the largest gain a mover could get at an orbit by changing
// its policy alone under the rule's profile (0 without orbits).
func (t *Three) Regret() float64 { return t.regret }

// Start returns the probabilities that the first, second and third seat
// win from the start of the game (the first seat to move).
func (t *Three) Start() [3]float64 {
	return [3]float64{t.w[0], t.w[1], t.w[2]}
}

// ThreeCompensation is a start of a three-player game with points given
// to some seats, and each seat's chance to win from it.
type ThreeCompensation struct {
	Points [3]int     // given to each seat at the start (the first still moves first)
	Wins   [3]float64 // each seat's chance to win from there
}

// FairCompensation returns the points given to the seats at the start
// (multiples of 50 and of the unit, below the target, at least one seat
// given none) that bring every seat's chance closest to 1/3: the largest
// distance from 1/3 least, ties going to fewer points in all, then to
// points given to later seats. Without points the start is Start().
func (t *Three) FairCompensation() ThreeCompensation {
	step := lcm(50, t.m.unit) / t.m.unit
	best := ThreeCompensation{Wins: t.Start()}
	dist := func(w [3]float64) float64 {
		return max(math.Abs(w[0]-1.0/3), math.Abs(w[1]-1.0/3), math.Abs(w[2]-1.0/3))
	}
	bestD, bestSum := dist(best.Wins), int32(0)
	for a := int32(0); a < t.A; a += int32(step) {
		for b := int32(0); b < t.A; b += int32(step) {
			for c := int32(0); c < t.A; c += int32(step) {
				if min(a, b, c) != 0 || a+b+c == 0 {
					continue
				}
				i := t.tidx(a, b, c)
				w := [3]float64{t.w[i], t.w[i+1], t.w[i+2]}
				d, sum := dist(w), a+b+c
				if d < bestD-1e-15 || (math.Abs(d-bestD) <= 1e-15 && sum < bestSum) {
					u := t.m.unit
					best = ThreeCompensation{Points: [3]int{int(a) * u, int(b) * u, int(c) * u}, Wins: w}
					bestD, bestSum = d, sum
				}
			}
		}
	}
	return best
}

// WinProbabilities returns, at the start of a turn of seat mover with the
// seats' scores (points, all below the target), each seat's probability to
// win. Errors wrap ErrPosition.
func (t *Three) WinProbabilities(scores [3]int, mover int) ([3]float64, error) {
	if mover < 0 || mover > 2 {
		return [3]float64{}, fmt.Errorf("%w: seat %d (seats 0, 1, 2)", ErrPosition, mover)
	}
	var u [3]int32
	for i, s := range scores {
		v, err := t.m.checkTotal(fmt.Sprintf("score of seat %d", i), s)
		if err != nil {
			return [3]float64{}, err
		}
		if v >= t.A {
			return [3]float64{}, fmt.Errorf("%w: score %d of seat %d is at or above the target", ErrPosition, s, i)
		}
		u[i] = v
	}
	i := t.tidx(u[mover], u[(mover+1)%3], u[(mover+2)%3])
	var out [3]float64
	for k := 0; k < 3; k++ {
		out[(mover+k)%3] = t.w[i+k]
	}
	return out, nil
}
