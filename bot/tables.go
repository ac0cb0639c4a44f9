package bot

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// Tables solves, loads and shares the solvers' results, once per rule set
// (by rules hash) for the life of the process: solo policies (solved in
// milliseconds) and duel tables (read from the cache directory Dir when a
// sound file is there, else solved and written there; Dir "" means no
// cache file). It is safe for concurrent use; concurrent requests for the
// same rules wait for one solve.
//
// The cache file is the only file a bot touches (through solve.Cached).
type Tables struct {
	Dir string
	// Progress, if set, is passed to the duel solver (see solve.DuelOptions).
	Progress func(sweep, done, total int)

	mu   sync.Mutex
	solo map[string]*result[*solve.Policy]
	duel map[string]*result[*solve.Table]
}

type result[T any] struct {
	once sync.Once
	val  T
	err  error
}

// NewTables returns an empty Tables using the cache directory dir.
func NewTables(dir string) *Tables { return &Tables{Dir: dir} }

// DefaultTables is what New uses unless told otherwise: its Dir is
// DefaultCacheDir().
var DefaultTables = NewTables(DefaultCacheDir())

// DefaultCacheDir returns the duel-table cache directory farkle uses:
// CacheDir of the process environment.
func DefaultCacheDir() string { return CacheDir(os.Getenv) }

// CacheDir returns the duel-table cache directory for an environment:
// $FARKLE_CACHE_DIR, else $XDG_CACHE_HOME/farkle, else $HOME/.cache/farkle,
// else "" (no cache).
func CacheDir(getenv func(string) string) string {
	switch {
	case getenv("FARKLE_CACHE_DIR") != "":
		return getenv("FARKLE_CACHE_DIR")
	case getenv("XDG_CACHE_HOME") != "":
		return filepath.Join(getenv("XDG_CACHE_HOME"), "farkle")
	case getenv("HOME") != "":
		return filepath.Join(getenv("HOME"), ".cache", "farkle")
	}
	return ""
}

func entry[T any](ts *Tables, m *map[string]*result[T], key string) *result[T] {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if *m == nil {
		*m = map[string]*result[T]{}
	}
	e, ok := (*m)[key]
	if !ok {
		e = &result[T]{}
		(*m)[key] = e
	}
	return e
}

// Solo returns the solo policy of r, solving it the first time.
func (ts *Tables) Solo(r rules.Rules) (*solve.Policy, error) {
	r = r.Uncapped() // the solvers assume no cap: shared by max_turns
	e := entry(ts, &ts.solo, r.Hash())
	e.once.Do(func() { e.val, e.err = solve.SolveSolo(r) })
	return e.val, e.err
}

// Duel returns the duel table of r: the one added with AddDuel, or from the
// cache file, or solved (and written to the cache) the first time. Errors
// wrap solve.ErrRules for rules without a two-player game, or
// solve.ErrTooLarge.
func (ts *Tables) Duel(r rules.Rules) (*solve.Table, error) {
	r = r.Uncapped() // the solvers assume no cap: shared by max_turns
	e := entry(ts, &ts.duel, r.Hash())
	e.once.Do(func() {
		if err := solve.CheckDuelRules(r); err != nil {
			e.err = err
			return
		}
		opt := solve.DuelOptions{Progress: ts.Progress}
		if ts.Dir == "" {
			e.val, e.err = solve.SolveDuel(r, opt)
			return
		}
		t, _, _, err := solve.Cached(r, ts.Dir, opt)
		if t != nil {
			err = nil // a cache write failure still gives the solved table
		}
		e.val, e.err = t, err
	})
	return e.val, e.err
}

// AddDuel makes t the duel table of its rules (replacing nothing already
// loaded: the first table of a rule set wins).
func (ts *Tables) AddDuel(t *solve.Table) {
	e := entry(ts, &ts.duel, t.Rules().Hash())
	e.once.Do(func() { e.val = t })
}
