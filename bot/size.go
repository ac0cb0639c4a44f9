package bot

import (
	"fmt"
	"math"
	"runtime"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// The memory figures the scheduler admits jobs by. They come from the
// solver's own arithmetic (solve.TableBytes), computed before anything is
// allocated; a panic in that arithmetic (rules beyond the solver's types)
// is a refusal, not a crash.

// turnCacheFactor approximates the in-turn arrays a duel table keeps of
// recent turns (solve's turn cache: 64 turns of two arrays a total) as a
// share of the table itself, for the in-memory cache's accounting.
const turnCacheFactor = 4 // table bytes / turnCacheFactor

// duelSolveBytes returns the memory a duel solve of r needs, and with save
// the copies a write to the cache file makes on top of the table.
func duelSolveBytes(r rules.Rules, workers int, save bool) (need int64, err error) {
	defer recoverSize(&err)
	table := solve.TableBytes(r)
	if table <= 0 {
		return 0, fmt.Errorf("%w: the duel table of these rules has no size the solver can hold", solve.ErrTooLarge)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Each worker's in-turn arrays: seven arrays of 8 values for each
	// total up to the target and a little beyond.
	c := int64(max(r.Turn.FarklePenalty.Count, 1))
	scores := int64(math.Sqrt(float64(table/8))) / c
	need = table + int64(workers)*(scores+1024)*8*8*7
	if save {
		need = max(need, 3*table) // the table, the file's body and its buffer while writing
	}
	return need, nil
}

// duelFileBytes returns the size of the cache file of r's duel table: the
// table and a header.
func duelFileBytes(r rules.Rules) (n int64, err error) {
	defer recoverSize(&err)
	return solve.TableBytes(r) + 256, nil
}

// duelLoadBytes returns the memory reading a cache file of size bytes
// takes: the file read whole, then the table.
func duelLoadBytes(size int64) int64 { return 2 * size }

// duelResidentBytes returns the memory a duel table of r holds once solved:
// the table and the turns it keeps.
func duelResidentBytes(r rules.Rules) (n int64, err error) {
	defer recoverSize(&err)
	t := solve.TableBytes(r)
	return t + t/turnCacheFactor, nil
}

// soloBytes returns the memory of a solo solve of r (and of the policy it
// leaves).
func soloBytes(r rules.Rules) (n int64, err error) {
	defer recoverSize(&err)
	return 1 << 20, nil
}

func recoverSize(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%w: the size of these rules' solve cannot be computed (%v)", solve.ErrTooLarge, p)
	}
}
