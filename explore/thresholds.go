package explore

import (
	"context"
	"fmt"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// NeverBank is the threshold of a number of dice with which banking is
// never best.
const NeverBank = -1

// SoloThresholds are the bank thresholds of the solo optimum (the most
// points per turn): the least turn total from which banking is at least as
// good as throwing n dice, by farkle streak (the farkles in a row before
// the turn; one row without a penalty) and, under an entry minimum, for a
// player still to get on the board.
type SoloThresholds struct {
	Rules        string        `json:"rules"`
	Target       int           `json:"target"`
	ExpectedTurn float64       `json:"expected_turn"` // points per turn (long-run average with a penalty)
	Penalty      rules.Penalty `json:"penalty"`
	EntryMinimum int           `json:"entry_minimum"`
	Dice         []int         `json:"dice"`  // 1..rules.Dice
	BankAt       [][]int       `json:"bank"`  // [streak][n-1]; NeverBank when banking is never best
	Entry        [][]int       `json:"entry"` // [streak][n-1] for a player not on the board; nil without an entry minimum
}

// NewSoloThresholds reads the thresholds of p.
func NewSoloThresholds(p *solve.Policy) (*SoloThresholds, error) {
	r := p.Rules()
	s := &SoloThresholds{Rules: r.Name, Target: r.Game.Target, ExpectedTurn: p.ExpectedTurn(), Penalty: r.Turn.FarklePenalty, EntryMinimum: r.Turn.EntryMinimum}
	for n := 1; n <= r.Dice; n++ {
		s.Dice = append(s.Dice, n)
	}
	for streak := 0; streak < p.Streaks(); streak++ {
		row, err := thresholdRow(r.Dice, func(n int) (int, bool, error) { return p.BankAtStreak(streak, n) })
		if err != nil {
			return nil, err
		}
		s.BankAt = append(s.BankAt, row)
		if r.Turn.EntryMinimum > 0 {
			row, err := thresholdRow(r.Dice, func(n int) (int, bool, error) { return p.EntryBankAt(streak, n) })
			if err != nil {
				return nil, err
			}
			s.Entry = append(s.Entry, row)
		}
	}
	return s, nil
}

func thresholdRow(dice int, at func(n int) (int, bool, error)) ([]int, error) {
	row := make([]int, dice)
	for n := 1; n <= dice; n++ {
		v, ok, err := at(n)
		if err != nil {
			return nil, err
		}
		if !ok {
			v = NeverBank
		}
		row[n-1] = v
	}
	return row, nil
}

// DuelThresholds are the perfect player's bank thresholds in a two-player
// game at one score of the player to move, as a function of the other's
// score: for each number of dice to throw, the least turn total from which
// banking stays best (up to Limit totals above it), beside the solo
// optimum's threshold for the same dice.
type DuelThresholds struct {
	Rules  string `json:"rules"`
	Target int    `json:"target"`
	Me     int    `json:"me"`
	Them   []int  `json:"them"` // the other player's scores
	Dice   []int  `json:"dice"` // 1..rules.Dice
	// BankAt[d][k] is the threshold with Dice[d] dice at Them[k];
	// NeverBank when throwing on stays better up to the limit.
	BankAt [][]int `json:"bank"`
	Solo   []int   `json:"solo"` // the solo threshold of Dice[d] dice (no streak)
}

// Deviation returns the duel threshold minus the solo one for Dice[d] dice
// at Them[k] (how much longer the perfect player goes on; negative: it
// banks sooner), and false when either never banks.
func (d *DuelThresholds) Deviation(dice, k int) (int, bool) {
	a, b := d.BankAt[dice][k], d.Solo[dice]
	if a == NeverBank || b == NeverBank {
		return 0, false
	}
	return a - b, true
}

// NewDuelThresholds returns the duel thresholds of t at my score me for
// the other's scores them, with the solo thresholds of p (for the same
// rules).
func NewDuelThresholds(t *solve.Table, p *solve.Policy, me int, them []int) (*DuelThresholds, error) {
	return NewDuelThresholdsContext(context.Background(), t, p, me, them)
}

// NewDuelThresholdsContext is NewDuelThresholds that stops with ctx's
// error, between two of the other's scores, once ctx is done.
func NewDuelThresholdsContext(ctx context.Context, t *solve.Table, p *solve.Policy, me int, them []int) (*DuelThresholds, error) {
	r := t.Rules()
	if p.Rules().Hash() != t.Rules().Hash() {
		return nil, fmt.Errorf("explore: the solo policy is for other rules than the duel table")
	}
	d := &DuelThresholds{Rules: r.Name, Target: r.Game.Target, Me: me, Them: them}
	limit := duelLimit(r, t.Unit(), me)
	for n := 1; n <= r.Dice; n++ {
		d.Dice = append(d.Dice, n)
		s, ok, err := p.BankAt(n)
		if err != nil {
			return nil, err
		}
		if !ok {
			s = NeverBank
		}
		d.Solo = append(d.Solo, s)
		row := make([]int, len(them))
		for k, o := range them {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if row[k], err = duelThreshold(t, me, o, n, limit); err != nil {
				return nil, err
			}
		}
		d.BankAt = append(d.BankAt, row)
	}
	return d, nil
}

// duelLimit is the highest turn total a duel threshold is looked for at:
// with the immediate ending a bank to the target wins, so banking is best
// from there; with a final round, 2,000 points beyond it.
func duelLimit(r rules.Rules, unit, me int) int {
	l := r.Game.Target - me
	if r.Game.Ending != rules.EndImmediate {
		l += 2000
	}
	return (l + unit - 1) / unit * unit
}

// duelThreshold scans down from limit for the highest total at which
// throwing n dice is better than banking; the threshold is the next total.
func duelThreshold(t *solve.Table, me, them, n, limit int) (int, error) {
	r := t.Rules()
	unit := t.Unit()
	for total := limit; total >= unit; total -= unit {
		c, err := t.Choice(solve.DuelPosition{Me: me, Them: them, Total: total, Dice: n % r.Dice})
		if err != nil {
			return 0, err
		}
		if cellOf(c).Decision == Throw || cellOf(c).Decision == OnlyThrow {
			if total == limit {
				return NeverBank, nil
			}
			return total + unit, nil
		}
	}
	return unit, nil
}
