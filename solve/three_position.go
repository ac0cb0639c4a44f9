package solve

import (
	"fmt"

	"github.com/farkle/farkle/dice"
)

// ThreePosition is a position of a three-player game seen by the player to
// move. Scores are in turn order from the mover (the mover, the next seat,
// the one after), in points.
//
// Trigger is -1 before anyone reached the target, else the index in Scores
// of the player who reached it first with the final-round ending: 2 when
// the mover plays the first turn of the final round (the next seat plays
// the last), 1 when the mover plays the last turn of the game (then the
// seat after it has played its final turn: its score may be anything).
type ThreePosition struct {
	Scores  [3]int
	Trigger int
	Total   int // turn total so far
	// Dice is the number of dice to throw (1..rules.Dice) for Options, or
	// the dice left after a keep (0..rules.Dice-1) for BankBest.
	Dice int
	// Streaks are the seats' farkles in a row, in the order of Scores
	// (0..count-1 under a farkle penalty that takes points); they matter
	// before the final round only, and are not read without such a
	// penalty.
	Streaks [3]int
}

// threeTurn answers the mover's own win probability in one turn, by total in
// units: after a keep leaving left dice, before a throw of n dice, and on a
// bank (ok false where banking is not allowed).
type threeTurn struct {
	after func(t, left int32) float64
	throw func(t, n int32) float64
	bank  func(t int32) (float64, bool)
}

func (t *Three) turnOf(p ThreePosition) (*threeTurn, error) {
	if p.Trigger != -1 && p.Trigger != 1 && p.Trigger != 2 {
		return nil, fmt.Errorf("%w: trigger %d (-1, 1 or 2)", ErrPosition, p.Trigger)
	}
	if p.Trigger >= 0 && t.fin == nil {
		return nil, fmt.Errorf("%w: a final round under the immediate ending", ErrPosition)
	}
	var u [3]int32
	for i, s := range p.Scores {
		v, err := t.m.checkTotal("score", s)
		if err != nil {
			return nil, err
		}
		above := v >= t.A
		if p.Trigger == 1 && i == 2 {
			above = false // the first of the final round may have passed the target
		}
		if above != (i == p.Trigger) {
			if above {
				return nil, fmt.Errorf("%w: score %d is at or above the target but not the final round's trigger", ErrPosition, s)
			}
			return nil, fmt.Errorf("%w: the final round's trigger has %d, below the target", ErrPosition, s)
		}
		u[i] = v
	}
	var st [3]int32
	for i, s := range p.Streaks {
		if t.c == 1 {
			break
		}
		if s < 0 || s >= int(t.c) {
			return nil, fmt.Errorf("%w: farkle streak %d (allowed: 0..%d)", ErrPosition, s, t.c-1)
		}
		if p.Trigger == -1 {
			st[i] = int32(s)
		}
	}
	key := [4]int32{u[0], u[1], u[2], int32(p.Trigger)*int32(t.c*t.c*t.c) + int32(t.sidx(st[0], st[1], st[2]))}
	if tt, ok := t.turns.get(key); ok {
		return tt, nil
	}
	var tt *threeTurn
	switch p.Trigger {
	case -1:
		tt = t.normalTurn(u, st)
	case 2:
		tt = t.midTurnOf(u[0], u[1], u[2])
	default:
		tt = t.lastTurnOf(u[0], u[1], u[2])
	}
	t.turns.put(key, tt)
	return tt, nil
}

// normalTurn is a turn before the final round: the mover at a (streak
// st[0]) against b and c (streaks st[1], st[2]).
func (t *Three) normalTurn(sc, st [3]int32) *threeTurn {
	a, b, c := sc[0], sc[1], sc[2]
	fsc, fst := t.farkleOf(sc, st)
	i := t.tsidx(fsc[0], fsc[1], fsc[2], t.sidx(fst[0], fst[1], fst[2]))
	x := t.w[i+2]
	bs := t.sidx(st[1], st[2], 0)
	d := new(dp3)
	t.setup(d, a, b, c, bs, x)
	t.m.fill3(d, x, 0)
	bank := func(tt int32) (float64, bool) {
		if tt < t.mEff(a) {
			return 0, false
		}
		return t.bankVec(a, b, c, bs, tt)[0], true
	}
	return &threeTurn{
		after: func(tt, left int32) float64 {
			if tt >= d.rows {
				v, _ := bank(tt)
				return v
			}
			return d.own[tt*stride+left]
		},
		throw: func(tt, n int32) float64 {
			if tt >= d.rows {
				v, _ := bank(tt)
				return v
			}
			q := d.q[tt*stride+n]
			return q[0] + q[3]*x
		},
		bank: bank,
	}
}

// midTurnOf is the first turn of a final round: the mover at b, the next
// (the last to play) at c, the trigger at L.
func (t *Three) midTurnOf(b, c, L int32) *threeTurn {
	f := t.fin
	d := new(dp3)
	d2 := min(L-c, f.lx)
	t.m.midTurn(f, d, d2)
	off := f.lx - 1
	row := func(tt int32) int32 { return b + tt - L + off }
	t.m.midBelowMin(f, d, L-b)
	bank := func(tt int32) (float64, bool) {
		r := row(tt)
		switch {
		case tt < t.mEff(b):
			return 0, false
		case r < 0:
			return 0, true
		case r >= d.rows:
			top, _ := f.endVec(d2+r-off, 1)
			return top, true
		}
		return d.bank[r][1], true
	}
	return &threeTurn{
		after: func(tt, left int32) float64 {
			if r := row(tt); r >= 0 && r < d.rows {
				return d.own[r*stride+left]
			}
			v, _ := bank(tt)
			return v
		},
		throw: func(tt, n int32) float64 {
			if r := row(tt); r >= 0 && r < d.rows {
				return d.q[r*stride+n][1]
			}
			v, _ := bank(tt)
			return v
		},
		bank: bank,
	}
}

// lastTurnOf is the last turn of the game: the mover at c against the
// trigger and the other player (the higher of b and L is to beat). Less
// than the bank minimum behind, it must bank the minimum and cannot tie.
func (t *Three) lastTurnOf(c, L, b int32) *threeTurn {
	M := max(L, b)
	k := 1
	if L == b {
		k = 2
	}
	tau := 1 / float64(k+1)
	f := t.fin
	bm := t.mEff(c)
	tie := M-c >= bm
	pass := max(M-c+1, bm) // the total that passes
	kk, qq := t.m.lastTurn3Arrays(max(f.lx, bm), tau, tie)
	R := int32(len(kk) / stride)
	need := func(tt int32) int32 { return pass - tt }
	val := func(s [][2]float64, tt, j int32) float64 {
		r := need(tt)
		switch {
		case r <= 0:
			return 1
		case r >= R:
			return 0
		}
		v := s[r*stride+j]
		return v[0] + tau*v[1]
	}
	return &threeTurn{
		after: func(tt, left int32) float64 { return val(kk, tt, left) },
		throw: func(tt, n int32) float64 {
			if need(tt) <= 0 {
				return 1 - t.m.farkle[n]
			}
			return val(qq, tt, n)
		},
		bank: func(tt int32) (float64, bool) {
			switch r := need(tt); {
			case tt < bm:
				return 0, false
			case r <= 0:
				return 1, true
			case r == 1 && tie:
				return tau, true
			}
			return 0, true
		},
	}
}

// ThreeOption is one keep of a throw with the mover's probability of
// winning after it (playing on as well as possible).
type ThreeOption struct {
	Keep dice.Keep
	Win  float64
	Best bool // the first keep of most Win
}

// Options returns every keep of throw (in the order of the rules' keep
// table) at p (p.Dice: the dice thrown) with the mover's chance to win
// after it. Errors wrap ErrPosition.
func (t *Three) Options(p ThreePosition, throw dice.Hand) ([]ThreeOption, error) {
	if p.Dice < 1 || p.Dice > t.m.dice || throw.N() != p.Dice {
		return nil, fmt.Errorf("%w: a throw of %d dice with %d to throw", ErrPosition, throw.N(), p.Dice)
	}
	tot, err := t.m.checkTotal("turn total", p.Total)
	if err != nil {
		return nil, err
	}
	tt, err := t.turnOf(p)
	if err != nil {
		return nil, err
	}
	keeps := t.m.tab.Keeps(throw)
	out := make([]ThreeOption, len(keeps))
	best := -1
	for i, k := range keeps {
		left := int32(p.Dice - int(k.N))
		out[i] = ThreeOption{Keep: k, Win: tt.after(tot+k.Points/int32(t.m.unit), left)}
		if best < 0 || out[i].Win > out[best].Win {
			best = i
		}
	}
	if best >= 0 {
		out[best].Best = true
	}
	return out, nil
}

// BankBest reports whether banking at p (after a keep: p.Dice the dice
// left, 0 for none) is at least as good for the mover as throwing on, with
// both chances to win. Errors wrap ErrPosition (also when banking is not
// allowed there).
func (t *Three) BankBest(p ThreePosition) (best bool, bank, throw float64, err error) {
	if p.Dice < 0 || p.Dice >= t.m.dice {
		return false, 0, 0, fmt.Errorf("%w: %d dice left after a keep", ErrPosition, p.Dice)
	}
	tot, err := t.m.checkTotal("turn total", p.Total)
	if err != nil {
		return false, 0, 0, err
	}
	tt, err := t.turnOf(p)
	if err != nil {
		return false, 0, 0, err
	}
	bank, ok := tt.bank(tot)
	if !ok {
		return false, 0, 0, fmt.Errorf("%w: banking %d is not allowed", ErrPosition, p.Total)
	}
	n := int32(p.Dice)
	if n == 0 {
		if !t.m.hot {
			return true, bank, bank, nil
		}
		n = int32(t.m.dice)
	}
	throw = tt.throw(tot, n)
	return bank >= throw, bank, throw, nil
}

// Throw returns the mover's chance to win throwing p.Dice dice (1 to
// rules.Dice) at p: at the start of a turn, or with dice to throw after a
// keep. Errors wrap ErrPosition.
func (t *Three) Throw(p ThreePosition) (float64, error) {
	if p.Dice < 1 || p.Dice > t.m.dice {
		return 0, fmt.Errorf("%w: %d dice to throw", ErrPosition, p.Dice)
	}
	tot, err := t.m.checkTotal("turn total", p.Total)
	if err != nil {
		return 0, err
	}
	tt, err := t.turnOf(p)
	if err != nil {
		return 0, err
	}
	return tt.throw(tot, int32(p.Dice)), nil
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
