//go:build js

package solve

import (
	"context"
	"fmt"
	"time"
)

// The module the web page runs (GOOS=js) solves only what a page asks, in
// memory, and never a three-player table: its Tables solve none
// (solved.Limits.ThreeSolve is 0 there). It leaves out the sweeps of a
// farkle penalty (three_streaks.go), their checkpoint and their warm start,
// which would only weigh on the module sent to phones (internal/wasmbuild's
// budget).

func (t *Three) solveStreaks(context.Context, int, *ThreeOptions, time.Time) error {
	return fmt.Errorf("%w: three-player tables with a farkle penalty are not solved in the web page's module", ErrRules)
}
