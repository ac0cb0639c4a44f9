package solve

import (
	"fmt"
	"math"
	"runtime"

	"github.com/farkle/farkle/rules"
)

// Memory estimates of the solvers, computed from the rules before anything
// large is allocated. Every figure is computed in float64 (no product can
// wrap) and turned into an int64 only when it fits; a figure beyond int64 is
// ErrTooLarge. The estimates are upper bounds of the peak heap of a solve:
// the model (dice table and throw groups), the solo turn arrays or the duel
// table, the final round and each worker's in-turn arrays.
//
// Index range: the solvers index their arrays with int32. A solve is refused
// (ErrTooLarge) unless every array it would allocate has fewer than
// math.MaxInt32 elements, whatever the byte limit; with the default limits
// that refusal is never the binding one.

// modelOverhead is a bound of the heap of a model beyond its option lists:
// the dice table (keeps of every hand), the maps and slices of newModel, and
// the garbage they leave (measured: under 1 MiB for every preset).
const modelOverhead = 512 << 10

// duelOverhead is a bound of the heap a duel solve holds beyond its arrays:
// the job lists and goroutines of each sum and the garbage of the workers'
// arrays as they grow, which the collector has not reclaimed yet (measured:
// under 0.5 MiB).
const duelOverhead = 1 << 20

// arrBytes is the heap of one in-turn array of rows totals (turnArrays.resize
// adds winArr elements of room).
func arrBytes(rows float64) float64 { return 8 * (rows*stride + winArr) }

// turnBytes is the heap of a turnArrays of rows totals: K and Q, with
// derivs their four derivative arrays, and the bank values.
func turnBytes(rows float64, derivs bool) float64 {
	n := 2.0
	if derivs {
		n = 6
	}
	return n*arrBytes(rows) + 8*rows
}

// maxIndexRows is the most totals an in-turn array may hold so that every
// index t*stride+j (and the room of blockSumArr) stays below math.MaxInt32.
const maxIndexRows = (math.MaxInt32 - 2*winArr) / stride

// TooLargeError is the error of a solve (or table load) refused for its
// memory: errors.Is(err, ErrTooLarge) holds, and errors.As gives the need.
type TooLargeError struct {
	What   string // what was refused, e.g. "the solo solve of these rules"
	Need   int64  // bytes it would need (math.MaxInt64 when beyond int64)
	Limit  int64  // bytes allowed (0: the refusal is the solvers' index range)
	Detail string // e.g. the table's dimensions; may be empty
}

// Error is the message with the package prefix.
func (e *TooLargeError) Error() string { return "solve: too large: " + e.Message() }

// Message is the message without a prefix, e.g. "the solo solve of these
// rules needs 157.5 GiB, more than the 2.0 GiB allowed", for front ends.
func (e *TooLargeError) Message() string {
	need := ByteSize(e.Need)
	if e.Need == math.MaxInt64 {
		need = "more than 8 EiB"
	}
	detail := ""
	if e.Detail != "" {
		detail = " (" + e.Detail + ")"
	}
	switch e.Limit {
	case 0:
		return fmt.Sprintf("%s needs %s%s, more than the solvers can index", e.What, need, detail)
	case math.MaxInt64:
		return fmt.Sprintf("%s needs %s%s, more than any machine has", e.What, need, detail)
	}
	return fmt.Sprintf("%s needs %s%s, more than the %s allowed", e.What, need, detail, ByteSize(e.Limit))
}

// Unwrap makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// satBytes is a float figure as an int64, math.MaxInt64 beyond it.
func satBytes(need float64) int64 {
	if !(need < math.MaxInt64/2) {
		return math.MaxInt64
	}
	return int64(math.Ceil(need))
}

// sizeError is the ErrTooLarge of a need beyond the limit (0: beyond the
// index range).
func sizeError(what string, need float64, limit int64, detail string) error {
	return &TooLargeError{What: what, Need: satBytes(need), Limit: limit, Detail: detail}
}

// toBytes turns a float figure into an int64, or ErrTooLarge if it does not
// fit.
func toBytes(what string, need float64) (int64, error) {
	if n := satBytes(need); n < math.MaxInt64 {
		return n, nil
	}
	return 0, sizeError(what, need, math.MaxInt64, "")
}

// soloPlan is the size of a solo solve: rows of the turn arrays of each
// board (on, off) and the number of turns of each.
type soloPlan struct {
	rows  [2]float64
	turns [2]float64
	bytes float64
}

// soloPlan computes the sizes of the solo solve of m. The top of a turn is
// at most max(mEff, max over n of ceil(EB(n)/pF(n) + F)) for its farkle
// value F (soloTop), a relative value: 0 or less without a penalty (a
// streak or a player still to enter is no better than a player on the board
// with no streak), and with a penalty taken here as at most the penalty
// (the value of being spared one; a player still to enter loses nothing to
// a penalty). Policy.reserve holds the limit should a turn need more.
func (m *model) soloPlan() soloPlan {
	var p soloPlan
	c := float64(m.streaks())
	for b := 0; b < 2; b++ {
		if b == 1 && m.entryMin == 0 {
			continue
		}
		top := m.soloTopBound(m.soloMEff(b))
		p.rows[b] = top + float64(m.maxPts) + float64(m.sdn) + 2
		p.turns[b] = c
		p.bytes += c * turnBytes(p.rows[b], true)
	}
	p.bytes += m.soloFixedBytes()
	return p
}

// soloFixedBytes is the heap of a solo solve besides its turn arrays.
func (m *model) soloFixedBytes() float64 {
	return float64(m.bytes()) + 8*7*float64(m.streaks())
}

// soloTopBound is the top of a solo turn whose farkle value is the largest
// soloPlan expects.
func (m *model) soloTopBound(mEff int32) float64 {
	fMax := 0.0
	if m.penCount > 0 {
		fMax = float64(m.penPts)
	}
	top := float64(mEff)
	for n := 1; n <= m.dice; n++ {
		if pf := m.farkle[n]; pf > 0 {
			top = max(top, math.Ceil((m.tailEB[n]+pf*fMax)/pf))
		}
	}
	return top
}

// soloMEff is the least total a solo player may bank on board b (0 on the
// board, 1 still to enter).
func (m *model) soloMEff(b int) int32 {
	mEff := max(m.bankMin, 1)
	if b == 1 {
		mEff = max(mEff, m.entryMin)
	}
	return mEff
}

// bytes is a bound of the heap of the model.
func (m *model) bytes() int64 {
	opts := int64(len(m.optSet.oOff) + len(m.pruned.oOff))
	groups := int64(len(m.optSet.gProb) + len(m.pruned.gProb))
	// each option: offset, points, left (int32) in the set, its block
	// and lane copies, and an option struct in a group; each group: its
	// probability in the set, block and lane set, start, and a group header.
	return modelOverhead + opts*(5*4+8) + groups*(8*3+4+32)
}

// SoloBytes returns the peak memory the solo solve of r would need: the
// model and the turn arrays of every farkle streak (and, with an entry
// minimum, of a player still to enter). Errors wrap ErrRules (invalid or
// unbounded rules) or ErrTooLarge (a figure beyond int64).
func SoloBytes(r rules.Rules) (int64, error) {
	m, err := soloModel(r)
	if err != nil {
		return 0, err
	}
	return toBytes("the solo solve of these rules", m.soloPlan().bytes)
}

func soloModel(r rules.Rules) (*model, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRules, err)
	}
	m := newModel(r)
	if err := m.bounded(); err != nil {
		return nil, err
	}
	return m, nil
}

// SoloOptions tunes SolveSoloWith. The zero value is fine.
type SoloOptions struct {
	// MaxBytes is the most memory the solve may need (SoloBytes); 0 means
	// DefaultMaxBytes. A larger need is refused (ErrTooLarge) before the
	// turn arrays are allocated.
	MaxBytes int64
}

// checkSolo refuses a solo plan beyond limit or beyond the index range.
func checkSolo(p soloPlan, limit int64) error {
	const what = "the solo solve of these rules"
	if p.bytes > float64(limit) {
		return sizeError(what, p.bytes, limit, "")
	}
	for _, rows := range p.rows {
		if rows > maxIndexRows {
			return sizeError(what, p.bytes, 0, fmt.Sprintf("turns of %.0f totals", rows))
		}
	}
	return nil
}

// duelPlan is the size of a duel solve.
type duelPlan struct {
	A, c     float64 // scores in units, streak states
	frRows   float64 // rows of the final round (bound)
	rows     float64 // rows of a worker's turn arrays (bound)
	table    float64 // bytes of the table
	perWork  float64 // bytes of one worker's scratch space
	fixed    float64 // bytes of the model and final round
	banks    float64 // bytes of the solve's copy of the values banks read
	workers  float64
	bytesAll float64
}

// duelPlan computes the sizes of the duel solve of m with workers workers.
func (m *model) duelPlan(workers int) duelPlan {
	var p duelPlan
	p.A, p.c = float64(m.target), float64(m.streaks())
	p.table = p.A * p.A * p.c * p.c * 8
	p.frRows = m.finalRoundRows()
	// A turn's top is at most max(A, mEff) (mEff <= the target) or, above
	// the target in a final round, the total where the final round ends:
	// its bound, or where that is small (its arrays at most frExactBytes)
	// its length, computed.
	// (Only for tables of at most frExactTable: a solve refused for its
	// table is refused without computing anything.)
	reach := p.frRows
	if finalRoundBytes(p.frRows) <= frExactBytes && p.table <= frExactTable {
		reach = float64(len(m.finalRound().fr))
	}
	p.rows = p.A + reach + float64(m.maxPts) + float64(m.sdn) + 2
	n := 2 * p.c * p.c // states of a job
	// A worker's turns: lanes side by side (pairs of a sum, or the states
	// of a streak sum of a pair alone), with derivatives for cycles (pairs
	// without a penalty, a score of 0 under one), and without streaks a
	// pair alone (the diagonal) in turnArrays.
	p.perWork = 8*n*(n+1) + 64*n*(lanes+1) + laneBytes(p.rows)
	if p.c == 1 {
		p.perWork += turnBytes(p.rows, true)
	}
	p.fixed = float64(m.bytes()) + finalRoundBytes(p.frRows) + duelOverhead
	// the solve's copy of the values banks read (Table.banks)
	p.banks = p.table / p.c
	p.workers = float64(workers)
	p.bytesAll = p.peak(p.workers)
	return p
}

// peak is the peak memory of the solve of p with the given workers.
func (p *duelPlan) peak(workers float64) float64 {
	return p.table + p.banks + p.fixed + workers*p.perWork
}

// finalRoundBytes is the heap of a final round of rows needs: q and k for
// both tie cases, fr and sup.
func finalRoundBytes(rows float64) float64 {
	return 4*8*(rows+1)*stride + 2*8*rows
}

// checkDuel refuses a duel plan beyond limit or beyond the index range.
func checkDuel(p duelPlan, limit int64, unit int) error {
	dims := fmt.Sprintf("%.0f scores per player in units of %d, %.0f streak states", p.A, unit, p.c)
	if p.table > float64(limit) {
		return sizeError("the table of these rules", p.table, limit, dims)
	}
	if p.bytesAll > float64(limit) {
		return sizeError("solving these rules", p.bytesAll, limit, "")
	}
	if p.A*p.A*p.c*p.c >= math.MaxInt32 {
		return sizeError("the table of these rules", p.table, 0, dims)
	}
	if p.rows > maxIndexRows {
		return sizeError("solving these rules", p.bytesAll, 0, fmt.Sprintf("turns of %.0f totals", p.rows))
	}
	return nil
}

// DuelBytes returns the peak memory the duel solve of r with the given
// number of workers (0: GOMAXPROCS, as SolveDuel) would need: the table, the
// model and final round, and each worker's scratch space. Errors wrap
// ErrRules (rules the duel solver refuses) or ErrTooLarge (a figure beyond
// int64).
func DuelBytes(r rules.Rules, workers int) (int64, error) {
	s, err := DuelSizes(r, workers)
	return s.Solve, err
}

// DuelSize is the memory of the duel table of some rules, in bytes.
type DuelSize struct {
	Solve    int64 // the peak of solving it (DuelBytes)
	Load     int64 // the peak of reading it from its cache file: a one-worker solve bounds it
	Resident int64 // a bound of what it holds in use once there (Table.Bytes): the table, the model and final round, the turns it keeps of recent questions
}

// DuelSizes returns the three figures of DuelSize for r, a solve having
// the given number of workers, from one model and plan (which computes the
// final round where it is small). Errors as DuelBytes.
func DuelSizes(r rules.Rules, workers int) (DuelSize, error) {
	m, err := duelModel(r)
	if err != nil {
		return DuelSize{}, err
	}
	p := m.duelPlan(duelWorkers(workers))
	var s DuelSize
	if s.Solve, err = toBytes("the duel solve of these rules", p.bytesAll); err != nil {
		return DuelSize{}, err
	}
	if s.Load, err = toBytes("the duel solve of these rules", p.peak(1)); err != nil {
		return DuelSize{}, err
	}
	if s.Resident, err = toBytes("a duel table of these rules", p.table+p.fixed+turnCacheSize*turnBytes(p.rows, false)); err != nil {
		return DuelSize{}, err
	}
	return s, nil
}

func duelModel(r rules.Rules) (*model, error) {
	if err := CheckDuelRules(r); err != nil {
		return nil, err
	}
	m := newModel(r)
	if err := m.bounded(); err != nil {
		return nil, err
	}
	return m, nil
}

// duelWorkers is the number of workers SolveDuel uses for DuelOptions.Workers.
func duelWorkers(w int) int {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, 64)
}

// limitOr is limit, or DefaultMaxBytes for 0 or less.
func limitOr(limit int64) int64 {
	if limit <= 0 {
		return DefaultMaxBytes
	}
	return limit
}

// finalRoundRows returns a bound of the number of needs r the final round
// computes (newFinalRound stops at the first r > bankMin+maxPts where the
// chance of a turn reaching r is below frCap/10).
//
// The bound is a Chernoff bound that holds for every strategy: for theta > 0
// let w(n) >= 1 be weights with, for every n dice to throw,
//
//	sum over throws of p * max over keeps of e^(theta*pts) * w'(left) <= w(n)
//
// (w'(left) = w(left) for left > 0, w(D) for hot dice, else 1; the
// six-dice-nothing throw adds e^(theta*sdn) w(6)). Then e^(theta*total) w(n)
// is a supermartingale of any turn (a farkle ends it at 0, a bank keeps
// e^(theta*total) at most), so the chance of reaching r is at most
// w(D) e^(-theta r). The weights are the least fixed point, found by value
// iteration and checked; theta is scanned for the smallest bound. It is
// computed once (a plan and the final round both ask).
func (m *model) finalRoundRows() float64 {
	if m.frRows == 0 {
		m.frRows = m.chernoffRows()
	}
	return m.frRows
}

// chernoffRows computes finalRoundRows.
func (m *model) chernoffRows() float64 {
	floor := float64(m.bankMin) + float64(m.maxPts) + 2
	step := float64(max(m.maxPts, m.sdn, 1))
	best := math.Inf(1)
	for x := 1e-3; x < 100; x *= 1.1 {
		theta := x / step
		w, ok := m.chernoffWeights(theta)
		if !ok {
			break
		}
		// chance < frCap/20 from here on: the loop has stopped by then
		r := (math.Log(w) + math.Log(20/frCap)) / theta
		best = min(best, math.Floor(r)+2)
	}
	return min(max(best, floor), maxFinalRows)
}

// frExactBytes is the most memory duelPlan spends on computing the final
// round to size the turns by its length rather than its bound, and
// frExactTable the largest table it does that for.
const (
	frExactBytes = 16 << 20
	frExactTable = 8 << 30
)

// laneBytes is the heap of a laneArrays of rows totals with derivatives:
// six arrays of stride values a total for each lane, bank and kmax.
func laneBytes(rows float64) float64 {
	return 8 * lanes * rows * (6*stride + 2)
}

// maxFinalRows is newFinalRound's own cap on needs.
const maxFinalRows = 1 << 22

// chernoffWeights returns w(D) of the least weights of theta (see
// finalRoundRows) and whether they exist (checked: w >= T w holds).
func (m *model) chernoffWeights(theta float64) (float64, bool) {
	s := &m.pruned
	D := m.dice
	ex := make([]float64, len(s.oPts))
	for i, p := range s.oPts {
		ex[i] = math.Exp(theta * float64(p))
	}
	exSdn := math.Exp(theta * float64(m.sdn))
	var w, nw [7]float64
	for n := range w {
		w[n] = 1
	}
	apply := func(w *[7]float64, out *[7]float64) {
		cont := func(left int32) float64 {
			switch {
			case left > 0:
				return w[left]
			case m.hot:
				return w[D]
			}
			return 1
		}
		for n := 1; n <= D; n++ {
			v := 0.0
			for g := s.gStart[n]; g < s.gStart[n+1]; g++ {
				best := 0.0
				for o := s.oStart[g]; o < s.oStart[g+1]; o++ {
					best = max(best, ex[o]*cont(s.oLeft[o]))
				}
				v += s.gProb[g] * best
			}
			if n == 6 && m.sdn > 0 {
				v += m.nothing * exSdn * w[6]
			}
			out[n] = max(1, v)
		}
	}
	for range 5000 {
		apply(&w, &nw)
		done := true
		for n := 1; n <= D; n++ {
			if math.IsInf(nw[n], 0) || math.IsNaN(nw[n]) || nw[n] > 1e100 {
				return 0, false
			}
			if nw[n] > w[n]*(1+1e-13) {
				done = false
			}
		}
		w = nw
		if done {
			break
		}
	}
	// check w is a fixed point (to rounding: relative 1e-9; the loop of
	// newFinalRound stops at half the chance the bound allows, room for
	// far more throws than a turn reaching the bound can take)
	apply(&w, &nw)
	for n := 1; n <= D; n++ {
		if nw[n] > w[n]*(1+1e-9) {
			return 0, false
		}
	}
	return w[D], true
}

// Bytes returns a bound of the memory the table holds: the values, the
// model and final round, and its cache of recently asked turns when full
// (turnCacheSize turns, filled by Value, Choice and Options). A server
// keeping tables in memory can count them with it.
func (t *Table) Bytes() int64 {
	m := t.m
	frRows := float64(len(t.fr.q[0]) / stride)
	rows := float64(t.A) + float64(len(t.fr.fr)) + float64(m.maxPts) + float64(m.sdn) + 2
	b := 8*float64(len(t.w)) + float64(m.bytes()) + finalRoundBytes(frRows) + turnCacheSize*turnBytes(rows, false)
	return satBytes(b)
}

// Bytes returns a bound of the memory the policy holds (the model and the
// turn arrays as solved; at most SoloBytes of its rules unless a relative
// value went beyond soloPlan's bound).
func (p *Policy) Bytes() int64 { return satBytes(p.bytes) }
