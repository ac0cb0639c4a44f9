package solve

import (
	"errors"
	"fmt"
)

var (
	// ErrPosition is wrapped by every error about a position that cannot
	// occur under the rules: a negative or off-unit total or score, a dice
	// count outside 1..rules.Dice, a streak at or above the penalty count, a
	// throw with the wrong number of dice, a keep that is not legal.
	ErrPosition = errors.New("solve: impossible position")
	// ErrRules is wrapped when a rule set cannot be solved: invalid rules,
	// a dice count that can never farkle (unbounded turns), or rules that do
	// not allow two players for the duel solver.
	ErrRules = errors.New("solve: rules not solvable")
	// ErrTooLarge is wrapped when a solo or duel solve (or loading a duel
	// table) would need more memory than allowed, or more than the solvers
	// can index; the message gives the memory it would need. It is returned
	// before anything large is allocated (see SoloBytes and DuelBytes).
	ErrTooLarge = errors.New("solve: too large")
	// ErrCache is wrapped by every error reading a cache file: missing,
	// truncated, corrupt (checksum), another format version or other rules.
	ErrCache = errors.New("solve: bad cache file")
	// ErrInternal is wrapped when the solver itself fails (a panic in one
	// of its workers): a bug, reported as an error instead of ending the
	// process.
	ErrInternal = errors.New("solve: internal error")
	// ErrNoConvergence is wrapped when an iteration fails to reach its
	// tolerance (it should not happen; it guards against loops).
	ErrNoConvergence = errors.New("solve: no convergence")
	// ErrThreeBankMinimum (wrapping ErrRules) is the rules the
	// three-player solver refuses: a bank or entry minimum above one unit
	// without hot dice, where a farkle penalty takes points. A turn can
	// then end with nothing, which (unlike a farkle) leaves the mover's
	// streak as it was: a second way out of a turn that the solver's
	// turns, affine in the one farkle value, do not hold.
	ErrThreeBankMinimum = fmt.Errorf("%w: the three-player solver needs hot dice (turn.hot_dice) where a bank minimum (turn.bank_minimum, turn.entry_minimum) meets a farkle penalty (turn.farkle_penalty)", ErrRules)
)
