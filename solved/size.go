package solved

import (
	"fmt"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// The memory figures the scheduler admits jobs by come from the solver's
// own arithmetic (solve.SoloBytes, solve.DuelSizes), computed from the
// rules before anything is allocated; once a result is there, the caches
// count what it holds (Table.Bytes, Policy.Bytes). A panic in that
// arithmetic is a refusal, not a crash.

// duelSizes returns the memory of r's duel table: solving it with
// workers goroutines (0: GOMAXPROCS), reading it from its cache file (the
// file is streamed: the table and final round, bounded by a one-worker
// solve), and what it holds in use (Table.Bytes once it is there).
func duelSizes(r rules.Rules, workers int) (s solve.DuelSize, err error) {
	defer recoverSize(&err)
	return solve.DuelSizes(r, workers)
}

// duelFileBytes returns the size of the cache file of t: a header, the
// values and a checksum.
func duelFileBytes(t *solve.Table) int64 { return 256 + 8*int64(t.States()) }

// soloBytes returns the peak memory of the solo solve of r.
func soloBytes(r rules.Rules) (n int64, err error) {
	defer recoverSize(&err)
	return solve.SoloBytes(r)
}

func recoverSize(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%w: the size of these rules' solve cannot be computed (%v)", solve.ErrTooLarge, p)
	}
}
