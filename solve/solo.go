package solve

import (
	"fmt"
	"math"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// Policy is the solution of the solo problem for one rule set: the turn
// strategy that maximises the long-run average points per turn (without a
// farkle penalty this is simply the expected points of one turn). It is
// immutable and safe for concurrent use.
//
// Values are relative values in points: the expected points banked during
// the rest of the turn plus the relative value of the state the turn ends in
// (0 for a player on the board with no farkle streak; negative for a streak
// that brings a penalty nearer, or for a player still to enter). Without a
// penalty or entry minimum, a value is just the expected points of the rest
// of the turn.
//
// The long-run average assumes a score large enough that a penalty never
// stops at 0; a player knocked back to 0 is treated as on the board.
type Policy struct {
	m      *model
	lambda float64 // long-run average per turn, units
	// turns[board][streak]: board 0 = on the board, 1 = off (entry minimum).
	turns    [2][]*soloTurn
	hOn      []float64 // relative values on the board by streak (h[0] = 0), units
	hOff     []float64 // relative values off the board, units
	residual float64
	limit    int64   // most bytes the solve may need
	bytes    float64 // bytes counted so far: the model and the turn arrays
}

type soloTurn struct {
	F, Z   float64 // farkle value and nothing value, units
	mEff   int32   // least total that may be banked
	arr    turnArrays
	tailEB [7]float64 // tail: Q(t,n) = (1-pF)t + tailEB[n] + pF*F for t >= top
	g6     float64    // tail gain of six dice when they cannot farkle
	bytes  float64    // heap of arr counted by Policy.reserve
}

// SolveSolo solves the solo problem for r (which must be valid) within
// DefaultMaxBytes. It returns an error wrapping ErrRules for rules it cannot
// solve or ErrTooLarge for rules that need more memory (see SoloBytes).
func SolveSolo(r rules.Rules) (*Policy, error) {
	return SolveSoloWith(r, SoloOptions{})
}

// SolveSoloWith is SolveSolo with options: a need above opt.MaxBytes is
// refused with ErrTooLarge (giving the need) before the turn arrays are
// allocated.
func SolveSoloWith(r rules.Rules, opt SoloOptions) (*Policy, error) {
	m, err := soloModel(r)
	if err != nil {
		return nil, err
	}
	limit := limitOr(opt.MaxBytes)
	if err := checkSolo(m.soloPlan(), limit); err != nil {
		return nil, err
	}
	p := &Policy{m: m, limit: limit, bytes: m.soloFixedBytes()}
	c := m.streaks()
	for b := 0; b < 2; b++ {
		p.turns[b] = make([]*soloTurn, c)
		for s := range p.turns[b] {
			p.turns[b][s] = &soloTurn{mEff: m.soloMEff(b)}
		}
	}
	p.hOn = make([]float64, c)
	p.hOff = make([]float64, c)
	if err := p.solveOn(); err != nil {
		return nil, err
	}
	if m.entryMin > 0 {
		if err := p.solveOff(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// streaks returns the number of farkle-streak states: the penalty count, or
// 1 without a penalty.
func (m *model) streaks() int { return max(m.penCount, 1) }

// bounded checks that every dice count that can be thrown can farkle (else a
// turn can grow without end): six dice are exempt under six_dice_nothing.
func (m *model) bounded() error {
	for n := 1; n <= m.dice; n++ {
		if m.farkle[n] == 0 && !(n == 6 && m.sdn > 0) {
			return fmt.Errorf("%w: a throw of %d dice can never farkle, so a turn can score without bound", ErrRules, n)
		}
	}
	return nil
}

// solve computes the arrays of one turn with farkle value F and nothing value
// Z (units). Bank at t gives t.
//
// The bound on totals: let G(t,n) = E(t,n) - t be the gain of playing on at
// total t with n dice. For t >= mEff a player at t+d can follow the strategy
// of a player at t and end with d more whenever that one banks and the same
// F or Z otherwise, so G is nonincreasing in t there. Suppose banking is
// optimal with every dice count that can farkle at every total >= t+1 (six
// dice that cannot farkle are always thrown: they only add points). Then
// throwing n dice at t is worth (1-pF(n))t + EB(n) + pF(n)F, where EB(n) is
// the expected best keep plus the tail gain of hot dice, and banking is at
// least as good exactly when t >= (EB(n)+pF(n)F)/pF(n). G is bounded (a turn
// farkles with a positive probability every throw), so banking is optimal at
// every large enough total; induction downwards from there shows it is
// optimal at every total >= top = max over n of that ratio (and mEff). Above
// top the values are therefore exact formulas and only totals below top are
// computed.
func (m *model) soloTurn(st *soloTurn, top float64) {
	D := m.dice
	g6 := m.g6
	st.g6 = g6
	st.tailEB = m.tailEB
	a := &st.arr
	a.top = int32(top)
	for n := range a.topN {
		a.topN[n] = a.top
	}
	size := int(a.top+m.maxPts+m.sdn+2) * stride
	a.resize(size, true)
	if cap(a.bank) < size/stride {
		a.bank = make([]float64, size/stride)
	}
	a.bank = a.bank[:size/stride]
	for t := int32(0); t < int32(len(a.bank)); t++ {
		if t >= st.mEff {
			a.bank[t] = float64(t)
		} else {
			a.bank[t] = negInf
		}
	}
	for t := a.top; t < int32(len(a.bank)); t++ {
		base := t * stride
		for n := 1; n <= D; n++ {
			pf := m.farkle[n]
			a.q[base+int32(n)] = (1-pf)*float64(t) + st.tailEB[n] + pf*st.F
			a.qF[base+int32(n)], a.qZ[base+int32(n)] = pf, 0
		}
		for left := 0; left < D; left++ {
			v := float64(t)
			if left == 0 && m.hot && m.sdn > 0 && D == 6 {
				v += g6
			}
			a.k[base+int32(left)] = v
			a.kF[base+int32(left)], a.kZ[base+int32(left)] = 0, 0
		}
	}
	m.fill(a, st.F, st.Z)
}

// soloTop returns the top of a solo turn (see soloTurn): the least total
// from which banking is optimal with every dice count, for its farkle value.
func (m *model) soloTop(st *soloTurn) float64 {
	top := float64(st.mEff)
	for n := 1; n <= m.dice; n++ {
		if pf := m.farkle[n]; pf > 0 {
			top = max(top, math.Ceil((m.tailEB[n]+pf*st.F)/pf))
		}
	}
	return top
}

// reserve counts the turn arrays of st for a turn of the given top against
// the limit, before they are allocated: ErrTooLarge if the solve would then
// need more than the limit (soloPlan's figure assumes a farkle value of at
// most the penalty; this holds the limit whatever it is).
func (p *Policy) reserve(st *soloTurn, top float64) error {
	m := p.m
	const what = "the solo solve of these rules"
	rows := top + float64(m.maxPts) + float64(m.sdn) + 2
	if rows > maxIndexRows {
		return sizeError(what, p.bytes+turnBytes(rows, true), 0, fmt.Sprintf("turns of %.0f totals", rows))
	}
	need := turnBytes(rows, true)
	if need <= st.bytes {
		return nil
	}
	total := p.bytes - st.bytes + need
	if total > float64(p.limit) {
		return sizeError(what, total, p.limit, "")
	}
	p.bytes, st.bytes = total, need
	return nil
}

// soloTail computes the tail of the solo turns (the same for every
// turn): the gain g6 of throwing six dice in the tail when they cannot
// farkle, and EB(n), the expected best keep of n dice plus the tail gain of
// hot dice.
func (m *model) soloTail() {
	D := m.dice
	g6 := 0.0
	if m.sdn > 0 {
		for range 10000 {
			v := 0.0
			for _, g := range m.groups[6] {
				best := negInf
				for _, o := range g.opts {
					x := float64(o.pts)
					if o.left == 0 && m.hot {
						x += g6
					}
					best = max(best, x)
				}
				v += g.prob * best
			}
			v += m.nothing * (float64(m.sdn) + g6)
			if math.Abs(v-g6) < 1e-13 {
				g6 = v
				break
			}
			g6 = v
		}
	}
	m.g6 = g6
	for n := 1; n <= D; n++ {
		eb := 0.0
		for _, g := range m.groups[n] {
			best := negInf
			for _, o := range g.opts {
				x := float64(o.pts)
				if o.left == 0 && m.hot && m.sdn > 0 && D == 6 {
					x += g6
				}
				best = max(best, x)
			}
			eb += g.prob * best
		}
		if n == 6 && m.sdn > 0 {
			eb += m.nothing * (float64(m.sdn) + g6)
		}
		m.tailEB[n] = eb
	}
}

// startValue returns the value of a turn's first throw and its derivatives.
func (st *soloTurn) startValue(D int) (v, dF, dZ float64) {
	i := D
	return st.arr.q[i], st.arr.qF[i], st.arr.qZ[i]
}

const (
	soloTol   = 1e-11
	maxRounds = 200
)

// solveOn finds the average per turn and the relative values by streak on
// the board by policy iteration: with the policies of the current values the
// turn values are linear in F and Z, the linear system is solved exactly,
// and the turns are solved again until nothing changes.
func (p *Policy) solveOn() error {
	m := p.m
	c := m.streaks()
	P := float64(m.penPts)
	alpha, beta, zeta := make([]float64, c), make([]float64, c), make([]float64, c)
	x, y := make([]float64, c+1), make([]float64, c+1)
	for round := 0; ; round++ {
		if round == maxRounds {
			return fmt.Errorf("%w: solo policy after %d rounds", ErrNoConvergence, round)
		}
		for s := 0; s < c; s++ {
			st := p.turns[0][s]
			if s+1 < c {
				st.F = p.hOn[s+1]
			} else {
				st.F = p.hOn[0] - P
			}
			st.Z = p.hOn[s]
			top := m.soloTop(st)
			if err := p.reserve(st, top); err != nil {
				return err
			}
			m.soloTurn(st, top)
			v, dF, dZ := st.startValue(m.dice)
			alpha[s], beta[s], zeta[s] = v-dF*st.F-dZ*st.Z, dF, dZ
		}
		// residual of the current values
		res := 0.0
		for s := 0; s < c; s++ {
			v, _, _ := p.turns[0][s].startValue(m.dice)
			res = max(res, math.Abs(p.hOn[s]+p.lambda-v))
		}
		p.residual = res
		if round > 0 && res < soloTol {
			return nil
		}
		// h_s = x_s + y_s*lambda, from the top streak down; F_{c-1} = -P.
		for s := c - 1; s >= 0; s-- {
			var fx, fy float64
			if s+1 < c {
				fx, fy = x[s+1], y[s+1]
			} else {
				fx, fy = -P, 0
			}
			x[s] = (alpha[s] + beta[s]*fx) / (1 - zeta[s])
			y[s] = (beta[s]*fy - 1) / (1 - zeta[s])
		}
		lambda := -x[0] / y[0]
		for s := 0; s < c; s++ {
			p.hOn[s] = x[s] + y[s]*lambda
		}
		p.hOn[0] = 0
		p.lambda = lambda
	}
}

// solveOff finds the relative values of a player still to get on the board.
// A farkle at the penalty count costs nothing there (the score is 0).
func (p *Policy) solveOff() error {
	m := p.m
	c := m.streaks()
	alpha, beta, zeta := make([]float64, c), make([]float64, c), make([]float64, c)
	x, y := make([]float64, c+1), make([]float64, c+1)
	for round := 0; ; round++ {
		if round == maxRounds {
			return fmt.Errorf("%w: entry policy after %d rounds", ErrNoConvergence, round)
		}
		res := 0.0
		for s := 0; s < c; s++ {
			st := p.turns[1][s]
			st.F = p.hOff[(s+1)%c]
			st.Z = p.hOff[s]
			top := m.soloTop(st)
			if err := p.reserve(st, top); err != nil {
				return err
			}
			m.soloTurn(st, top)
			v, dF, dZ := st.startValue(m.dice)
			alpha[s], beta[s], zeta[s] = v-dF*st.F-dZ*st.Z, dF, dZ
			res = max(res, math.Abs(p.hOff[s]+p.lambda-v))
		}
		if round > 0 && res < soloTol {
			p.residual = max(p.residual, res)
			return nil
		}
		// h_s = x_s + y_s*h_0 with h_s(1-zeta) = alpha + beta*h_{s+1} - lambda
		for s := c - 1; s >= 0; s-- {
			var fx, fy float64
			if s+1 < c {
				fx, fy = x[s+1], y[s+1]
			} else {
				fx, fy = 0, 1
			}
			x[s] = (alpha[s] + beta[s]*fx - p.lambda) / (1 - zeta[s])
			y[s] = beta[s] * fy / (1 - zeta[s])
		}
		h0 := x[0] / (1 - y[0])
		for s := 0; s < c; s++ {
			p.hOff[s] = x[s] + y[s]*h0
		}
	}
}

// Rules returns the rules the policy was solved for.
func (p *Policy) Rules() rules.Rules { return p.m.r.Clone() }

// Unit returns the point unit: every total and score is a multiple of it.
func (p *Policy) Unit() int { return p.m.unit }

// Streaks returns the number of farkle-streak states (the penalty count, or
// 1 without a penalty).
func (p *Policy) Streaks() int { return p.m.streaks() }

// ExpectedTurn returns the expected points per turn of a player on the
// board with optimal play: with a farkle penalty, the long-run average per
// turn (penalties included).
func (p *Policy) ExpectedTurn() float64 { return p.lambda * float64(p.m.unit) }

// Residual returns the largest residual of the average-reward equations at
// the solution, in units (below 1e-11 units).
func (p *Policy) Residual() float64 { return p.residual }

// EntryCost returns, for a player still to get on the board (score 0 under
// an entry minimum) with no farkle streak, the relative value of that state
// in points: the expected points lost compared with a player on the board.
// It is 0 without an entry minimum.
func (p *Policy) EntryCost() float64 {
	if p.m.entryMin == 0 {
		return 0
	}
	return -p.hOff[0] * float64(p.m.unit)
}

// BankAt returns the bank threshold with n dice to throw (1..rules.Dice) for
// a player on the board with no farkle streak; see BankAtStreak.
func (p *Policy) BankAt(n int) (int, bool, error) { return p.BankAtStreak(0, n) }

// BankAtStreak returns, for a player on the board with the given farkle
// streak, the least multiple of the unit, whether or not a turn can reach it,
// from which on banking is at least as good as throwing n dice (n = rules.Dice
// also for hot dice). It returns 0 when banking is best at every total and
// ok = false when it never is (six dice that cannot farkle).
func (p *Policy) BankAtStreak(streak, n int) (points int, ok bool, err error) {
	return p.bankAt(0, streak, n)
}

// EntryBankAt is BankAtStreak for a player who is not yet on the board
// (score 0 under an entry minimum): the strategy for getting on the board.
// Without an entry minimum it equals BankAtStreak.
func (p *Policy) EntryBankAt(streak, n int) (int, bool, error) {
	if p.m.entryMin == 0 {
		return p.bankAt(0, streak, n)
	}
	return p.bankAt(1, streak, n)
}

func (p *Policy) bankAt(board, streak, n int) (int, bool, error) {
	if err := p.checkStreak(streak); err != nil {
		return 0, false, err
	}
	if n < 1 || n > p.m.dice {
		return 0, false, fmt.Errorf("%w: %d dice to throw (allowed: 1..%d)", ErrPosition, n, p.m.dice)
	}
	st := p.turns[board][streak]
	if p.m.farkle[n] == 0 {
		return 0, false, nil
	}
	t := st.arr.top
	for t > 0 {
		tt := t - 1
		if tt < st.mEff || float64(tt) < st.arr.q[tt*stride+int32(n)] {
			break
		}
		t = tt
	}
	return int(t) * p.m.unit, true, nil
}

func (p *Policy) checkStreak(s int) error {
	if s < 0 || s >= p.m.streaks() {
		if p.m.penCount == 0 {
			return fmt.Errorf("%w: farkle streak %d (no penalty: only 0)", ErrPosition, s)
		}
		return fmt.Errorf("%w: farkle streak %d (allowed: 0..%d)", ErrPosition, s, p.m.penCount-1)
	}
	return nil
}

// SoloPosition is a position inside a solo turn.
type SoloPosition struct {
	Total    int  // turn total so far, points (a multiple of the unit, >= 0)
	Dice     int  // dice to throw (1..rules.Dice; rules.Dice also for hot dice), or dice left after a keep (0..rules.Dice-1) for Choice
	Streak   int  // farkle streak before this turn (0..penalty count-1)
	OffBoard bool // the player's score is 0 under an entry minimum
}

func (m *model) checkTotal(what string, pts int) (int32, error) {
	if pts < 0 {
		return 0, fmt.Errorf("%w: %s %d is negative", ErrPosition, what, pts)
	}
	if pts%m.unit != 0 {
		return 0, fmt.Errorf("%w: %s %d is not a multiple of %d (every score of these rules is)", ErrPosition, what, pts, m.unit)
	}
	if pts/m.unit > 1<<24 {
		return 0, fmt.Errorf("%w: %s %d is too large", ErrPosition, what, pts)
	}
	return int32(pts / m.unit), nil
}

func (p *Policy) turn(pos SoloPosition) (*soloTurn, int32, error) {
	if err := p.checkStreak(pos.Streak); err != nil {
		return nil, 0, err
	}
	t, err := p.m.checkTotal("turn total", pos.Total)
	if err != nil {
		return nil, 0, err
	}
	b := 0
	if pos.OffBoard && p.m.entryMin > 0 {
		b = 1
	}
	return p.turns[b][pos.Streak], t, nil
}

// q returns the value of throwing n dice at total t (any t >= 0).
func (st *soloTurn) qAt(m *model, t int32, n int) float64 {
	if t >= st.arr.top {
		pf := m.farkle[n]
		return (1-pf)*float64(t) + st.tailEB[n] + pf*st.F
	}
	return st.arr.q[t*stride+int32(n)]
}

// kAt returns the value after a keep at total t with left dice (0..D-1).
func (st *soloTurn) kAt(m *model, t int32, left int) float64 {
	if t >= st.arr.top {
		v := float64(t)
		if left == 0 && m.hot && m.sdn > 0 && m.dice == 6 {
			v += st.g6
		}
		return v
	}
	return st.arr.k[t*stride+int32(left)]
}

// Value returns the value (points, see Policy) of throwing pos.Dice dice at
// turn total pos.Total. Errors wrap ErrPosition.
func (p *Policy) Value(pos SoloPosition) (float64, error) {
	st, t, err := p.turn(pos)
	if err != nil {
		return 0, err
	}
	if pos.Dice < 1 || pos.Dice > p.m.dice {
		return 0, fmt.Errorf("%w: %d dice to throw (allowed: 1..%d)", ErrPosition, pos.Dice, p.m.dice)
	}
	return st.qAt(p.m, t, pos.Dice) * float64(p.m.unit), nil
}

// Choice is the value of each action after a keep.
type Choice struct {
	Bank      float64 // value of banking now; NaN when banking is not allowed
	Throw     float64 // value of throwing on; NaN when no dice can be thrown
	BankBest  bool    // banking is at least as good as throwing (ties bank)
	TurnEnds  bool    // neither is possible: the turn ends scoring nothing
	NoneValue float64 // value of the turn ending with nothing (when TurnEnds)
}

// Choice returns the values of banking and of throwing on after a keep that
// left pos.Dice dice (0..rules.Dice-1; 0 means none, hot dice if the rules
// have it) at turn total pos.Total. Errors wrap ErrPosition.
func (p *Policy) Choice(pos SoloPosition) (Choice, error) {
	st, t, err := p.turn(pos)
	if err != nil {
		return Choice{}, err
	}
	if pos.Dice < 0 || pos.Dice >= p.m.dice {
		return Choice{}, fmt.Errorf("%w: %d dice left after a keep (allowed: 0..%d)", ErrPosition, pos.Dice, p.m.dice-1)
	}
	u := float64(p.m.unit)
	c := Choice{Bank: math.NaN(), Throw: math.NaN()}
	if t >= st.mEff {
		c.Bank = float64(t) * u
	}
	switch n := pos.Dice; {
	case n > 0:
		c.Throw = st.qAt(p.m, t, n) * u
	case p.m.hot:
		c.Throw = st.qAt(p.m, t, p.m.dice) * u
	}
	c.TurnEnds = math.IsNaN(c.Bank) && math.IsNaN(c.Throw)
	c.NoneValue = st.Z * u
	c.BankBest = !math.IsNaN(c.Bank) && (math.IsNaN(c.Throw) || c.Bank >= c.Throw)
	return c, nil
}

// KeepValue is one keep of a throw with the value of the position it leads
// to (the better of banking and throwing on).
type KeepValue struct {
	Keep   dice.Keep
	Value  float64 // points, see Policy
	Choice Choice
	Best   bool // a keep of the highest value (the first such in Keeps order)
}

// Options returns every legal keep of throw (which must have pos.Dice dice)
// at turn total pos.Total before the keep, with its value. A farkle returns
// no keeps and the farkle value in points. Errors wrap ErrPosition.
func (p *Policy) Options(pos SoloPosition, throw dice.Hand) ([]KeepValue, float64, error) {
	st, t, err := p.turn(pos)
	if err != nil {
		return nil, 0, err
	}
	if throw.N() != pos.Dice || pos.Dice < 1 || pos.Dice > p.m.dice {
		return nil, 0, fmt.Errorf("%w: a throw of %d dice with %d dice to throw (allowed: 1..%d)", ErrPosition, throw.N(), pos.Dice, p.m.dice)
	}
	u := float64(p.m.unit)
	keeps := p.m.tab.Keeps(throw)
	if len(keeps) == 0 {
		if pos.Dice == 6 && p.m.sdn > 0 {
			return nil, st.qAt(p.m, t+p.m.sdn, 6) * u, nil
		}
		return nil, st.F * u, nil
	}
	out := make([]KeepValue, len(keeps))
	best := -1
	for i, k := range keeps {
		nt := t + k.Points/int32(p.m.unit)
		left := pos.Dice - int(k.N)
		c, _ := p.Choice(SoloPosition{Total: int(nt) * p.m.unit, Dice: left, Streak: pos.Streak, OffBoard: pos.OffBoard})
		v := st.kAt(p.m, nt, left) * u
		out[i] = KeepValue{Keep: k, Value: v, Choice: c}
		if best < 0 || v > out[best].Value {
			best = i
		}
	}
	out[best].Best = true
	return out, 0, nil
}
