package bot

import (
	"fmt"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// The memory figures the scheduler admits jobs by come from the solver's
// own arithmetic (solve.SoloBytes, solve.DuelBytes), computed from the
// rules before anything is allocated; once a result is there, the caches
// count what it holds (Table.Bytes, Policy.Bytes). A panic in that
// arithmetic is a refusal, not a crash.

// duelSolveBytes returns the peak memory of the duel solve of r with
// workers goroutines (0: GOMAXPROCS).
func duelSolveBytes(r rules.Rules, workers int) (n int64, err error) {
	defer recoverSize(&err)
	return solve.DuelBytes(r, workers)
}

// duelLoadBytes returns the memory reading r's table from its cache file
// takes (the file is streamed): the table and final round, bounded by a
// one-worker solve.
func duelLoadBytes(r rules.Rules) (n int64, err error) {
	defer recoverSize(&err)
	return solve.DuelBytes(r, 1)
}

// duelResidentBytes returns a bound of the memory r's duel table holds in
// use: the table and final round, and the turns it keeps (Table.Bytes once
// it is there).
func duelResidentBytes(r rules.Rules) (n int64, err error) {
	defer recoverSize(&err)
	return solve.DuelResidentBytes(r)
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
