package solved

import (
	"context"
	"errors"
	"fmt"

	"github.com/farkle/farkle/solve"
)

// Reason returns why a solver result is not available, as a short phrase
// for players (no package prefixes): "the solver is busy", "its table
// would need 2.1 GiB, more than the solver memory of 512.0 MiB", and so on;
// "" for nil.
func Reason(err error) string {
	var tl *tooLargeError
	var stl *solve.TooLargeError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &tl):
		return fmt.Sprintf("its table would need %s, more than the %s of %s", solve.ByteSize(tl.need), budgetName(tl.budget), solve.ByteSize(tl.limit))
	case errors.As(err, &stl):
		return stl.Message()
	case errors.Is(err, solve.ErrTooLarge):
		return "its table is too large for the solver"
	case errors.Is(err, ErrNotReady):
		return "its table is being prepared"
	case errors.Is(err, ErrBusy):
		return "the solver is busy"
	case errors.Is(err, solve.ErrRules):
		return "the solver cannot solve these rules"
	case errors.Is(err, ErrSolveFailed):
		return "the solver failed on these rules"
	case errors.Is(err, context.Canceled):
		return "the solver is shutting down"
	}
	return "its table is not available"
}
