//go:build js

package solve

import (
	"context"
	"errors"
)

// The module the web page runs (GOOS=js) solves only what a page asks, in
// memory, and never a three-player table with a farkle penalty (its
// Tables solve none: solved.Limits.ThreeSolve): it leaves out what only
// such long solves use, which would only weigh on the module sent to
// phones (internal/wasmbuild's budget): the checkpoint
// (three_checkpoint.go) and the warm start (three_warm.go; a solve here
// starts from equal chances, to the same values within the sweeps'
// error).

var errNoCheckpoints = errors.New("solve: no checkpoints in the web page's module")

func (t *Three) writeCheckpoint(string, sweepState) error { return errNoCheckpoints }

func (t *Three) readCheckpoint(string) (sweepState, error) { return sweepState{}, errNoCheckpoints }

func (t *Three) warmStart(context.Context, int, func(done, total int)) error { return nil }
