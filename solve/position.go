package solve

import (
	"fmt"
	"math"
	"sync"

	"github.com/farkle/farkle/dice"
)

// DuelPosition is a position of a two-player game seen by the player to
// move ("me"). Scores and the turn total are in points.
//
// Two kinds of position exist: the normal phase (both scores below the
// target) and, with the final-round ending, the last turn of the game (Them
// at or above the target, Me below it): there I win by banking more than
// Them, and a tie counts 1/2.
type DuelPosition struct {
	Me, Them    int // banked scores
	MyStreak    int // my farkles in a row before this turn (0..penalty count-1)
	TheirStreak int
	Total       int // turn total so far
	// Dice is the number of dice to throw (1..rules.Dice; rules.Dice also
	// for hot dice) for Value and Options, or the dice left after a keep
	// (0..rules.Dice-1) for Choice.
	Dice int
}

// pos is a checked position in units.
type pos struct {
	a, b, sa, sb, t int32
	last            bool // last turn of a final round
}

func (t *Table) check(p DuelPosition) (pos, error) {
	m := t.m
	var q pos
	var err error
	if q.a, err = m.checkTotal("my score", p.Me); err != nil {
		return q, err
	}
	if q.b, err = m.checkTotal("their score", p.Them); err != nil {
		return q, err
	}
	if q.t, err = m.checkTotal("turn total", p.Total); err != nil {
		return q, err
	}
	target := m.r.Game.Target
	if p.Me >= target {
		return q, fmt.Errorf("%w: my score %d is at or above the target %d: my turn cannot start there", ErrPosition, p.Me, target)
	}
	if p.Them >= target {
		if m.immediate {
			return q, fmt.Errorf("%w: their score %d reached the target %d: with the immediate ending the game is over", ErrPosition, p.Them, target)
		}
		q.last = true
	}
	for _, s := range []struct {
		v    int
		name string
	}{{p.MyStreak, "my streak"}, {p.TheirStreak, "their streak"}} {
		if s.v < 0 || s.v >= m.streaks() {
			if m.penCount == 0 {
				return q, fmt.Errorf("%w: %s %d (no farkle penalty: only 0)", ErrPosition, s.name, s.v)
			}
			return q, fmt.Errorf("%w: %s %d (allowed: 0..%d)", ErrPosition, s.name, s.v, m.penCount-1)
		}
	}
	q.sa, q.sb = int32(p.MyStreak), int32(p.TheirStreak)
	return q, nil
}

// WinProbability returns the probability that the player to move wins at the
// start of their turn with scores me and them (points) and the given farkle
// streaks. Errors wrap ErrPosition.
func (t *Table) WinProbability(me, them, myStreak, theirStreak int) (float64, error) {
	q, err := t.check(DuelPosition{Me: me, Them: them, MyStreak: myStreak, TheirStreak: theirStreak, Dice: t.m.dice})
	if err != nil {
		return 0, err
	}
	if q.last {
		return t.lastValue(q, t.m.dice, true), nil
	}
	return t.w[t.idx(q.a, q.b, q.sa, q.sb)], nil
}

// lastValue is the value of the last turn of a final round at q.
func (t *Table) lastValue(q pos, dice int, throw bool) float64 {
	d := q.b - q.a
	need := max(d+1, t.m.bankMin)
	tie := d >= t.m.bankMin
	return t.fr.lastTurn(t.m, need-q.t, tie, dice, throw)
}

// turnMemo keeps the solved turns recently asked for (by scores and
// streaks or trigger), so that the decisions of one turn (a bot asks after
// every throw) solve it once; it starts over once it holds turnCacheSize.
// The duel keeps in-turn arrays, the three-player table its turns.
type turnMemo[V any] struct {
	mu sync.Mutex
	m  map[[4]int32]V
}

// get returns the turn kept under key, if any.
func (c *turnMemo[V]) get(key [4]int32) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// put keeps v under key.
func (c *turnMemo[V]) put(key [4]int32, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= turnCacheSize {
		c.m = map[[4]int32]V{}
	}
	c.m[key] = v
}

const turnCacheSize = 64

// solved returns the solved arrays of the normal-phase turn of q (shared:
// read only) and its farkle value.
func (t *Table) solved(q pos) (*turnArrays, float64) {
	key := [4]int32{q.a, q.b, q.sa, q.sb}
	fb, fa, fsb, fsa := t.farkleTarget(q.a, q.b, q.sa, q.sb)
	F := 1 - t.w[t.idx(fb, fa, fsb, fsa)]
	if arr, ok := t.cache.get(key); ok {
		return arr, F
	}
	arr := new(turnArrays)
	Z := 1 - t.w[t.idx(q.b, q.a, q.sb, q.sa)]
	t.setup(arr, q.a, q.b, q.sb, F, false)
	t.m.fill(arr, F, Z)
	t.cache.put(key, arr)
	return arr, F
}

// throwVal returns the value of throwing n dice at total q.t of a solved
// normal-phase turn; beyond the solved totals (where banking is proven best
// after any keep) it takes one throw's expectation over banked keeps.
func (t *Table) throwVal(arr *turnArrays, q pos, n int, F float64) float64 {
	if q.t < arr.topN[n] {
		return arr.q[q.t*stride+int32(n)]
	}
	m := t.m
	rows := int32(len(arr.k) / stride)
	kAt := func(tt int32, left int32) float64 {
		if tt < rows {
			return arr.k[tt*stride+left]
		}
		nq := q
		nq.t = tt
		return t.bankVal(nq)
	}
	os := &m.optSet
	v := 0.0
	for g := os.gStart[n]; g < os.gStart[n+1]; g++ {
		best := negInf
		for o := os.oStart[g]; o < os.oStart[g+1]; o++ {
			best = max(best, kAt(q.t+os.oPts[o], os.oLeft[o]))
		}
		v += os.gProb[g] * best
	}
	v += m.farkle[n] * F
	if n == 6 && m.sdn > 0 {
		// more points and six dice again: at least the bank value there
		// (exact within frCap above the solved totals)
		if tt := q.t + m.sdn; tt < rows {
			v += m.nothing * arr.q[tt*stride+6]
		} else {
			nq := q
			nq.t = tt
			v += m.nothing * t.bankVal(nq)
		}
	}
	return v
}

// Value returns the probability of winning when the player to move throws
// p.Dice dice at turn total p.Total. Errors wrap ErrPosition.
func (t *Table) Value(p DuelPosition) (float64, error) {
	q, err := t.check(p)
	if err != nil {
		return 0, err
	}
	if p.Dice < 1 || p.Dice > t.m.dice {
		return 0, fmt.Errorf("%w: %d dice to throw (allowed: 1..%d)", ErrPosition, p.Dice, t.m.dice)
	}
	if q.last {
		return t.lastValue(q, p.Dice, true), nil
	}
	arr, F := t.solved(q)
	return t.throwVal(arr, q, p.Dice, F), nil
}

// Choice returns the values of banking and of throwing on after a keep that
// left p.Dice dice (0..rules.Dice-1; 0 means none, hot dice if the rules have
// it) at turn total p.Total. Errors wrap ErrPosition.
func (t *Table) Choice(p DuelPosition) (Choice, error) {
	q, err := t.check(p)
	if err != nil {
		return Choice{}, err
	}
	if p.Dice < 0 || p.Dice >= t.m.dice {
		return Choice{}, fmt.Errorf("%w: %d dice left after a keep (allowed: 0..%d)", ErrPosition, p.Dice, t.m.dice-1)
	}
	var arr *turnArrays
	if !q.last {
		arr, _ = t.solved(q)
	}
	return t.choice(arr, q, p.Dice), nil
}

// choice computes a Choice from the solved arrays of the turn.
func (t *Table) choice(arr *turnArrays, q pos, left int) Choice {
	m := t.m
	c := Choice{Bank: math.NaN(), Throw: math.NaN()}
	n := left
	if n == 0 {
		n = -1
		if m.hot {
			n = m.dice
		}
	}
	if q.last {
		d := q.b - q.a
		need := max(d+1, m.bankMin)
		if q.t >= m.bankMin {
			switch {
			case q.t >= need:
				c.Bank = 1
			case q.t == d:
				c.Bank = tieValue
			default:
				c.Bank = 0
			}
		}
		if n > 0 {
			c.Throw = t.lastValue(q, n, true)
		}
		c.NoneValue = 0
	} else {
		F := 1 - t.w[t.idx(t.farkleTarget(q.a, q.b, q.sa, q.sb))]
		if q.t >= t.mEff(q.a) {
			c.Bank = t.bankVal(q)
		}
		if n > 0 {
			c.Throw = t.throwVal(arr, q, n, F)
		}
		c.NoneValue = 1 - t.w[t.idx(q.b, q.a, q.sb, q.sa)]
	}
	c.TurnEnds = math.IsNaN(c.Bank) && math.IsNaN(c.Throw)
	c.BankBest = !math.IsNaN(c.Bank) && (math.IsNaN(c.Throw) || c.Bank >= c.Throw)
	return c
}

// bankVal returns the value of banking at q (banking must be allowed).
func (t *Table) bankVal(q pos) float64 {
	switch {
	case q.a+q.t < t.A:
		return 1 - t.w[t.idx(q.b, q.a+q.t, q.sb, 0)]
	case t.m.immediate:
		return 1
	}
	return 1 - t.fr.at(q.a+q.t-q.b)
}

// Options returns every legal keep of throw (which must have p.Dice dice) at
// turn total p.Total before the keep, with the win probability of the
// position it leads to (the better of banking and throwing on). A farkle
// returns no keeps and the value of the farkle (or of the six-dice-nothing
// bonus throw). Errors wrap ErrPosition.
func (t *Table) Options(p DuelPosition, throw dice.Hand) ([]KeepValue, float64, error) {
	q, err := t.check(p)
	if err != nil {
		return nil, 0, err
	}
	m := t.m
	if throw.N() != p.Dice || p.Dice < 1 || p.Dice > m.dice {
		return nil, 0, fmt.Errorf("%w: a throw of %d dice with %d dice to throw (allowed: 1..%d)", ErrPosition, throw.N(), p.Dice, m.dice)
	}
	keeps := m.tab.Keeps(throw)
	if len(keeps) == 0 {
		if p.Dice == 6 && m.sdn > 0 {
			np := p
			np.Total += int(m.sdn) * m.unit
			v, err := t.Value(np)
			return nil, v, err
		}
		if q.last {
			return nil, 0, nil
		}
		return nil, 1 - t.w[t.idx(t.farkleTarget(q.a, q.b, q.sa, q.sb))], nil
	}
	var arr *turnArrays
	if !q.last {
		arr, _ = t.solved(q)
	}
	out := make([]KeepValue, len(keeps))
	best := -1
	for i, k := range keeps {
		nq := q
		nq.t += k.Points / int32(m.unit)
		c := t.choice(arr, nq, p.Dice-int(k.N))
		v := c.Bank
		if math.IsNaN(v) || (!math.IsNaN(c.Throw) && c.Throw > v) {
			v = c.Throw
		}
		if math.IsNaN(v) {
			v = c.NoneValue
		}
		out[i] = KeepValue{Keep: k, Value: v, Choice: c}
		if best < 0 || v > out[best].Value {
			best = i
		}
	}
	out[best].Best = true
	return out, 0, nil
}
