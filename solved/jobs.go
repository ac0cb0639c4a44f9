package solved

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// A job reads a table from its cache file or solves it, once the
// scheduler admits it: the same steps for a duel and a three-player table.

// cacheFile is how a kind of table is kept in the cache directory.
type cacheFile[T any] struct {
	kind  string                     // the OnJob kind of its solve ("duel", "three"); a read is "load" or "load3"
	load  string                     // the OnJob kind of its read
	name  func(rules.Rules) string   // its file in the cache directory
	read  func(io.Reader) (T, error) // reads it, within the solver memory
	bytes func(T) int64              // the size of its file
	save  func(T) error              // writes it to the cache directory
}

// loadJob reads r's table from its file once t's turn comes; an unsound
// file is removed and the error wraps solve.ErrCache.
func loadJob[T any](ts *Tables, r rules.Rules, t *ticket, f cacheFile[T], counted func(*Stats)) (T, error) {
	name := f.name(r)
	tab, err := admitted(ts, r, t, f.load, counted, func() (T, error) {
		fh, err := os.Open(name)
		if err != nil {
			var zero T
			return zero, fmt.Errorf("%w: %w", solve.ErrCache, err)
		}
		defer fh.Close()
		return f.read(fh)
	})
	switch {
	case err == nil:
		touchCacheFile(name)
	case errors.Is(err, solve.ErrCache):
		os.Remove(name)
	}
	return tab, err
}

// solveJob solves r's table with solveIt once t's turn comes and writes it
// to the cache directory unless its file alone is over Limits.CacheDirMax
// (a write failure still gives the table), trimming the directory.
func solveJob[T any](ts *Tables, r rules.Rules, t *ticket, f cacheFile[T], counted func(*Stats), solveIt func() (T, error)) (T, error) {
	tab, err := admitted(ts, r, t, f.kind, counted, solveIt)
	if errors.Is(err, ErrSolveFailed) {
		ts.sched.count(func(s *Stats) { s.Failed++ })
	}
	if err != nil || ts.Dir == "" {
		return tab, err
	}
	if ts.lim.CacheDirMax > 0 && f.bytes(tab) > ts.lim.CacheDirMax {
		return tab, nil // its file alone would be over the cap
	}
	if f.save(tab) == nil {
		if n := trimCacheDir(ts.Dir, ts.lim.CacheDirMax); n > 0 {
			ts.sched.count(func(s *Stats) { s.DirRemoved += n })
		}
	}
	return tab, nil
}

// admitted runs job once t's turn comes, holding its memory (and slot)
// while it runs: it counts the job, calls the OnJob hook with kind, and
// turns a panic into an error wrapping ErrSolveFailed.
func admitted[T any](ts *Tables, r rules.Rules, t *ticket, kind string, counted func(*Stats), job func() (T, error)) (T, error) {
	release, err := ts.sched.wait(ts.ctx, t)
	if err != nil {
		var zero T
		return zero, err
	}
	defer release()
	ts.sched.count(counted)
	return protect(func() (T, error) {
		ts.callHook(kind, r)
		return job()
	})
}
