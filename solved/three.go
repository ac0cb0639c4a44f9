package solved

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// ErrNoThreeTable is returned by Tables.Three when no three-player table
// of the rules is at hand: none was added and the cache directory holds
// none (farkle solve --players 3 makes it; a bot never solves one itself,
// as that takes minutes to hours).
var ErrNoThreeTable = errors.New("solved: no three-player table for these rules")

// threeStore holds the three-player tables of a Tables: added ones, and
// those read from the cache directory (each read once; a failed read is
// tried again by the next bot that asks).
type threeStore struct {
	mu   sync.Mutex
	tabs map[string]*solve.Three
}

// Three returns the three-player table of r (solved with the mixed orbit
// rule): one added with AddThree, else read from the cache directory within
// the solver memory (Limits.Memory, or the solver's default). Errors wrap
// solve.ErrRules (rules the three-player solver cannot solve),
// solve.ErrTooLarge, solve.ErrCache (a bad file) or ErrNoThreeTable.
func (ts *Tables) Three(r rules.Rules) (*solve.Three, error) {
	r = r.ForSolver()
	if err := solve.CheckThreeRules(r); err != nil {
		return nil, err
	}
	h := r.Hash()
	s := &ts.three
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabs[h]; t != nil {
		return t, nil
	}
	if ts.Dir == "" {
		return nil, ErrNoThreeTable
	}
	f, err := os.Open(solve.ThreeCacheFile(ts.Dir, r, solve.OrbitMixed))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoThreeTable
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", solve.ErrCache, err)
	}
	defer f.Close()
	t, err := solve.ReadThree(bufio.NewReaderSize(f, 1<<16), r, solve.OrbitMixed, ts.lim.Memory)
	if err != nil {
		return nil, err
	}
	if s.tabs == nil {
		s.tabs = map[string]*solve.Three{}
	}
	s.tabs[h] = t
	return t, nil
}

// AddThree makes t the three-player table of its rules for the life of ts.
func (ts *Tables) AddThree(t *solve.Three) {
	s := &ts.three
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tabs == nil {
		s.tabs = map[string]*solve.Three{}
	}
	s.tabs[t.Rules().Hash()] = t
}
