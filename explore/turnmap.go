package explore

import (
	"context"
	"fmt"
	"math"

	"github.com/farkle/farkle/solve"
)

// The decisions of a TurnCell.
const (
	Bank  = "bank"  // banking is at least as good as throwing on
	Throw = "throw" // throwing on is better
	// OnlyBank and OnlyThrow: the rules allow one of them only (no dice
	// to throw without hot dice; a bank below the entry or bank minimum).
	OnlyBank  = "bank only"
	OnlyThrow = "throw only"
	None      = "none" // neither: the turn ends scoring nothing
)

// TurnCell is the perfect decision after a keep at one turn total with
// some dice to throw, and its margin: how much better it is than the other
// choice (a probability for the duel), 0 when there is no other choice.
type TurnCell struct {
	Decision string  `json:"decision"`
	Margin   float64 `json:"margin"`
	Bank     float64 `json:"bank"`  // the value of banking; -1 when not allowed
	Throw    float64 `json:"throw"` // the value of throwing on; -1 when not allowed
}

// TurnMap is the turn in progress at fixed scores: the perfect decision
// over turn totals and the dice there are to throw.
type TurnMap struct {
	Rules  string `json:"rules"`
	Me     int    `json:"me"`
	Them   int    `json:"them"`
	Totals []int  `json:"totals"`
	Dice   []int  `json:"dice"` // 1..rules.Dice (rules.Dice: hot dice)
	// Cells[d][k] is the cell of Dice[d] dice to throw at Totals[k].
	Cells [][]TurnCell `json:"cells"`
}

// NewTurnMap returns the turn map of t at scores me (to move) and them,
// for totals from step to maxTotal in steps of step (multiples of the unit).
func NewTurnMap(t *solve.Table, me, them, maxTotal, step int) (*TurnMap, error) {
	return NewTurnMapContext(context.Background(), t, me, them, maxTotal, step)
}

// NewTurnMapContext is NewTurnMap that stops with ctx's error, between
// two rows of the map, once ctx is done.
func NewTurnMapContext(ctx context.Context, t *solve.Table, me, them, maxTotal, step int) (*TurnMap, error) {
	r := t.Rules()
	if step <= 0 || step%t.Unit() != 0 {
		return nil, fmt.Errorf("%w: step %d: want a positive multiple of %d", solve.ErrPosition, step, t.Unit())
	}
	m := &TurnMap{Rules: r.Name, Me: me, Them: them, Totals: make([]int, turnColumns(maxTotal, step))}
	for k := range m.Totals {
		m.Totals[k] = (k + 1) * step
	}
	for n := 1; n <= r.Dice; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m.Dice = append(m.Dice, n)
		row := make([]TurnCell, len(m.Totals))
		for k, total := range m.Totals {
			c, err := t.Choice(solve.DuelPosition{Me: me, Them: them, Total: total, Dice: n % r.Dice})
			if err != nil {
				return nil, err
			}
			row[k] = cellOf(c)
		}
		m.Cells = append(m.Cells, row)
	}
	return m, nil
}

// turnColumns is how many columns a turn map has: the totals step,
// 2·step, … up to maxTotal (none for a step that is not positive).
func turnColumns(maxTotal, step int) int {
	if step <= 0 || maxTotal < step {
		return 0
	}
	return maxTotal / step
}

// cellOf reads a solver choice.
func cellOf(c solve.Choice) TurnCell {
	val := func(v float64) float64 {
		if math.IsNaN(v) {
			return -1
		}
		return v
	}
	cell := TurnCell{Bank: val(c.Bank), Throw: val(c.Throw)}
	canBank, canThrow := !math.IsNaN(c.Bank), !math.IsNaN(c.Throw)
	switch {
	case c.TurnEnds || !canBank && !canThrow:
		cell.Decision = None
	case !canThrow:
		cell.Decision = OnlyBank
	case !canBank:
		cell.Decision = OnlyThrow
	case c.BankBest:
		cell.Decision, cell.Margin = Bank, c.Bank-c.Throw
	default:
		cell.Decision, cell.Margin = Throw, c.Throw-c.Bank
	}
	return cell
}
