package explore

import (
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// Source gives the solver results of a rule set: *solved.Tables is one (its
// Duel waits for a solve; the server passes one that does not wait).
type Source interface {
	Solo(r rules.Rules) (*solve.Policy, error)
	Duel(r rules.Rules) (*solve.Table, error)
}

// lcm is the least common multiple of two positive numbers.
func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// axis returns 0, step, 2*step, ... below limit.
func axis(step, limit int) []int {
	var out []int
	for v := 0; v < limit; v += step {
		out = append(out, v)
	}
	return out
}

// roundStep returns the multiple of unit nearest to span/cells (at least
// unit): the step of an axis of about cells values over span.
func roundStep(span, cells, unit int) int {
	s := (span/cells + unit/2) / unit * unit
	if s < unit {
		s = unit
	}
	return s
}

// FitCells returns the most cells at or below most for which a map of
// span in steps of unit (roundStep) has at most most scores per axis: the
// number of cells that fits a width.
func FitCells(span, unit, most int) int {
	for c := most; c > 1; c-- {
		if len(axis(roundStep(span, c, unit), span)) <= most {
			return c
		}
	}
	return 1
}
