package solved

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/farkle/farkle/internal/lru"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// ErrNotReady is returned by DuelNow when the duel table is not in memory:
// it is being solved or read back (DuelNow started that if needed).
var ErrNotReady = errors.New("solved: the duel table is not ready yet")

// ErrSolveFailed is wrapped when a solve failed where it should not: a
// panic in the solver, recovered. The rule set is not tried again.
var ErrSolveFailed = errors.New("solved: the solver failed")

// Tables solves, loads and shares the solvers' results per rule set (by
// rules hash): solo policies (solved in milliseconds) and duel tables (read
// from the cache directory Dir when a sound file is there, else solved and
// written there; Dir "" means no cache file). It is safe for concurrent
// use; concurrent requests for the same rules share one solve.
//
// Every solve and load goes through one scheduler bounded by Limits (see
// NewLimitedTables): so many duel solves at once, a bounded queue, a memory
// budget checked before anything is allocated, and bounded memory and
// directory caches. NewTables has no limits beyond the solver's defaults
// and keeps every result for the life of the process. A panic in a solve
// is recovered and returned as an error wrapping ErrSolveFailed.
//
// The cache files are the only files it touches.
type Tables struct {
	Dir string
	// Progress, if set, is passed to the duel solver (see solve.DuelOptions).
	Progress func(sweep, done, total int)
	// OnJob, if set, is called at the start of each job, once admitted,
	// with its kind ("solo", "duel" or "load") and rules; tests block or
	// panic in it.
	OnJob func(kind string, r rules.Rules)

	lim   Limits
	sched scheduler

	mu     sync.Mutex
	ready  bool
	solo   *lru.Cache[string, *solve.Policy]
	duel   *lru.Cache[string, *solve.Table]
	added  map[string]*solve.Table
	soloFl map[string]*flight[*solve.Policy]
	duelFl map[string]*flight[*solve.Table]
	failed map[string]error // refusals that do not change: "solo:"/"duel:"/"three:" + hash
	ctx    context.Context
	cancel context.CancelFunc

	three threeState // three-player tables (three.go)
}

// maxFailed bounds the refusals remembered (rule sets are the clients'
// choice); past it they are forgotten and computed again.
const maxFailed = 1024

type flight[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// NewTables returns an empty Tables using the cache directory dir, with no
// limits (the command line's Tables).
func NewTables(dir string) *Tables { return &Tables{Dir: dir} }

// NewLimitedTables returns an empty Tables using the cache directory dir
// whose solver work is bounded by lim (the server's Tables).
func NewLimitedTables(dir string, lim Limits) *Tables {
	return &Tables{Dir: dir, lim: lim}
}

// The memory caches of DefaultTables: duel tables and solo policies kept
// up to these many bytes each, the least recently used dropped first. A
// duel table of a preset at its own target takes about 12 MiB, a solo
// policy about 2 MiB.
const (
	DefaultDuelCache = 1 << 30
	DefaultSoloCache = 64 << 20
)

// DefaultLimits are the limits of DefaultTables: its memory caches bounded
// by DefaultDuelCache and DefaultSoloCache, and nothing else.
func DefaultLimits() Limits {
	return Limits{DuelCache: DefaultDuelCache, SoloCache: DefaultSoloCache}
}

// DefaultTables returns the Tables of the process for those given none
// (bot.New, advise.Cast): made at the first call, with DefaultLimits and
// no cache directory. It reads no environment: a program that wants the
// cache directory of its environment makes its Tables with CacheDir and
// passes them to its bots (bot.WithTables) and front ends.
var DefaultTables = sync.OnceValue(func() *Tables { return NewLimitedTables("", DefaultLimits()) })

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

// Limits returns the limits of ts.
func (ts *Tables) Limits() Limits { return ts.lim }

// init makes the maps. ts.mu is held.
func (ts *Tables) init() {
	if ts.ready {
		return
	}
	ts.ready = true
	ts.sched.lim = &ts.lim
	ts.solo = lru.New[string, *solve.Policy](ts.lim.SoloCache)
	ts.duel = lru.New[string, *solve.Table](ts.lim.DuelCache)
	ts.added = map[string]*solve.Table{}
	ts.soloFl = map[string]*flight[*solve.Policy]{}
	ts.duelFl = map[string]*flight[*solve.Table]{}
	ts.failed = map[string]error{}
	ts.initThree()
	ts.ctx, ts.cancel = context.WithCancel(context.Background())
}

// Close stops the solves running and waiting (their requests get an
// error) and refuses new ones. Results already in memory stay usable.
func (ts *Tables) Close() {
	ts.mu.Lock()
	ts.init()
	ts.mu.Unlock()
	ts.cancel()
}

// Stats returns what the scheduler did and holds.
func (ts *Tables) Stats() Stats {
	ts.mu.Lock()
	ts.init()
	st := ts.sched.stats()
	st.CachedDuel, st.CachedSolo, st.CachedThree = ts.duel.Size(), ts.solo.Size(), ts.three.kept.Size()
	ts.mu.Unlock()
	return st
}

// Permanent reports whether a refusal stays true for these rules under
// these limits (so it is remembered rather than tried again, and a bot
// plays a simpler level for good).
func Permanent(err error) bool {
	return err != nil && !errors.Is(err, ErrBusy) && !errors.Is(err, ErrNotReady) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// remember keeps a permanent refusal. ts.mu is held.
func (ts *Tables) remember(key string, err error) {
	if !Permanent(err) {
		return
	}
	if len(ts.failed) >= maxFailed {
		clear(ts.failed)
	}
	ts.failed[key] = err
}

// protect runs f, turning a panic into an error wrapping ErrSolveFailed.
func protect[T any](f func() (T, error)) (val T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			val, err = zero, fmt.Errorf("%w on these rules: %v", ErrSolveFailed, p)
		}
	}()
	return f()
}

func (ts *Tables) callHook(kind string, r rules.Rules) {
	if ts.OnJob != nil {
		ts.OnJob(kind, r)
	}
}

// Key is the key of a rule set's results: the rules as the solvers see
// them (rules.Rules.ForSolver: rules differing only in max_turns share
// results) and their hash, computed once, for those who ask at every
// decision (the bots).
type Key struct {
	r rules.Rules
	h string
}

// KeyOf returns the key of r's results.
func KeyOf(r rules.Rules) Key {
	r = r.ForSolver()
	return Key{r: r, h: r.Hash()}
}

// Solo returns the solo policy of r, solving it the first time (and again
// after it was dropped from memory). Errors wrap solve.ErrRules, or
// solve.ErrTooLarge, ErrBusy or ErrSolveFailed.
func (ts *Tables) Solo(r rules.Rules) (*solve.Policy, error) { return ts.SoloOf(KeyOf(r)) }

// SoloOf is Solo by key.
func (ts *Tables) SoloOf(k Key) (*solve.Policy, error) {
	r, h := k.r, k.h
	ts.mu.Lock()
	ts.init()
	if p, ok := ts.solo.Get(h); ok {
		ts.mu.Unlock()
		return p, nil
	}
	if err := ts.failed["solo:"+h]; err != nil {
		ts.mu.Unlock()
		return nil, err
	}
	f := ts.soloFl[h]
	if f == nil {
		need, err := soloBytes(r)
		var t *ticket
		if err == nil {
			t, err = ts.sched.enter("the solo policy of these rules", need, false)
		}
		if err != nil {
			ts.remember("solo:"+h, err)
			ts.mu.Unlock()
			return nil, err
		}
		f = &flight[*solve.Policy]{done: make(chan struct{})}
		ts.soloFl[h] = f
		go ts.runSolo(r, h, f, t)
	}
	ts.mu.Unlock()
	<-f.done
	return f.val, f.err
}

func (ts *Tables) runSolo(r rules.Rules, h string, f *flight[*solve.Policy], t *ticket) {
	defer func() {
		ts.mu.Lock()
		delete(ts.soloFl, h)
		if f.err == nil {
			n := ts.solo.Add(h, f.val, f.val.Bytes())
			ts.sched.count(func(s *Stats) { s.Evictions += n })
		} else {
			ts.remember("solo:"+h, f.err)
		}
		ts.mu.Unlock()
		close(f.done)
	}()
	release, err := ts.sched.wait(ts.ctx, t)
	if err != nil {
		f.err = err
		return
	}
	defer release()
	ts.sched.count(func(s *Stats) { s.SoloSolves++ })
	f.val, f.err = protect(func() (*solve.Policy, error) {
		ts.callHook("solo", r)
		return solve.SolveSoloWith(r, solve.SoloOptions{MaxBytes: ts.lim.Memory})
	})
	if errors.Is(f.err, ErrSolveFailed) {
		ts.sched.count(func(s *Stats) { s.Failed++ })
	}
}

// Duel returns the duel table of r: the one added with AddDuel, or kept in
// memory, or read from the cache file, or solved (and written to the cache
// directory); it waits for a solve under way. Errors wrap solve.ErrRules
// for rules without a two-player game, solve.ErrTooLarge (the table would
// exceed Limits.Memory or Limits.DuelCache, or the solver's own bound),
// ErrBusy, or ErrSolveFailed.
func (ts *Tables) Duel(r rules.Rules) (*solve.Table, error) { return ts.DuelOf(KeyOf(r), true) }

// DuelNow is Duel without waiting: the table if it is in memory now, else
// ErrNotReady after starting to get it (unless that is under way already),
// or the refusal that Duel would return at once (too large, busy, rules
// without a duel).
func (ts *Tables) DuelNow(r rules.Rules) (*solve.Table, error) { return ts.DuelOf(KeyOf(r), false) }

// duelJob is how a duel table is got: read from its cache file, or solved.
type duelJob int

const (
	jobLoad duelJob = iota
	jobSolve
)

// DuelOf is Duel by key, or DuelNow without wait.
func (ts *Tables) DuelOf(k Key, wait bool) (*solve.Table, error) {
	r, h := k.r, k.h
	ts.mu.Lock()
	ts.init()
	if t := ts.added[h]; t != nil {
		ts.mu.Unlock()
		return t, nil
	}
	if t, ok := ts.duel.Get(h); ok {
		ts.mu.Unlock()
		return t, nil
	}
	if err := ts.failed["duel:"+h]; err != nil {
		ts.mu.Unlock()
		return nil, err
	}
	f := ts.duelFl[h]
	if f == nil {
		job, t, err := ts.planDuel(r)
		if err != nil {
			ts.remember("duel:"+h, err)
			ts.mu.Unlock()
			return nil, err
		}
		f = &flight[*solve.Table]{done: make(chan struct{})}
		ts.duelFl[h] = f
		go ts.runDuel(r, h, f, job, t)
	}
	ts.mu.Unlock()
	if !wait {
		select {
		case <-f.done:
			return f.val, f.err
		default:
			return nil, ErrNotReady
		}
	}
	<-f.done
	return f.val, f.err
}

// planDuel checks r and the limits and puts the job that gets r's table in
// line. ts.mu is held.
func (ts *Tables) planDuel(r rules.Rules) (duelJob, *ticket, error) {
	size, err := duelSizes(r, ts.lim.Workers) // checks the rules first
	if err != nil {
		return 0, nil, err
	}
	if ts.lim.DuelCache > 0 && size.Resident > ts.lim.DuelCache {
		ts.sched.count(func(s *Stats) { s.TooLarge++ })
		return 0, nil, &tooLargeError{what: "the duel table of these rules", need: size.Resident, limit: ts.lim.DuelCache, budget: "duelCache"}
	}
	if ts.Dir != "" {
		if info, err := os.Stat(solve.CacheFile(ts.Dir, r)); err == nil && info.Mode().IsRegular() {
			t, err := ts.sched.enter("reading the duel table of these rules", size.Load, false)
			return jobLoad, t, err
		}
	}
	t, err := ts.enterSolve(size.Solve)
	return jobSolve, t, err
}

// enterSolve puts a duel solve needing need bytes in line.
func (ts *Tables) enterSolve(need int64) (*ticket, error) {
	return ts.sched.enter("solving the duel table of these rules", need, true)
}

func (ts *Tables) runDuel(r rules.Rules, h string, f *flight[*solve.Table], job duelJob, t *ticket) {
	defer func() {
		ts.mu.Lock()
		delete(ts.duelFl, h)
		if f.err == nil {
			n := ts.duel.Add(h, f.val, f.val.Bytes())
			ts.sched.count(func(s *Stats) { s.Evictions += n })
		} else {
			ts.remember("duel:"+h, f.err)
		}
		ts.mu.Unlock()
		close(f.done)
	}()
	if job == jobLoad {
		tab, err := ts.load(r, t)
		if err == nil || !errors.Is(err, solve.ErrCache) {
			f.val, f.err = tab, err
			return
		}
		// An unsound file: solve again, in line like any solve.
		size, err := duelSizes(r, ts.lim.Workers)
		if err == nil {
			t, err = ts.enterSolve(size.Solve)
		}
		if err != nil {
			f.err = err
			return
		}
	}
	f.val, f.err = ts.solveDuel(r, t)
}

// duelFile is how duel tables are kept in the cache directory.
func (ts *Tables) duelFile(r rules.Rules) cacheFile[*solve.Table] {
	return cacheFile[*solve.Table]{kind: "duel", load: "load",
		name:  func(r rules.Rules) string { return solve.CacheFile(ts.Dir, r) },
		read:  func(rd io.Reader) (*solve.Table, error) { return solve.ReadTableLimit(rd, r, ts.lim.Memory) },
		bytes: duelFileBytes,
		save:  func(t *solve.Table) error { return solve.SaveTable(ts.Dir, t) }}
}

// load reads r's table from its cache file once t's turn comes (loadJob).
func (ts *Tables) load(r rules.Rules, t *ticket) (*solve.Table, error) {
	return loadJob(ts, r, t, ts.duelFile(r), func(s *Stats) { s.Loads++ })
}

// solveDuel solves r's table once t's turn comes and writes it to the cache
// directory (solveJob).
func (ts *Tables) solveDuel(r rules.Rules, t *ticket) (*solve.Table, error) {
	opt := solve.DuelOptions{MaxBytes: ts.lim.Memory, Workers: ts.lim.Workers, Progress: ts.Progress, Context: ts.ctx}
	return solveJob(ts, r, t, ts.duelFile(r), func(s *Stats) { s.DuelSolves++ }, func() (*solve.Table, error) { return solve.SolveDuel(r, opt) })
}

// AddDuel makes t the duel table of its rules (replacing nothing already
// loaded: the first table of a rule set wins). It is kept for the life of
// ts, outside the limits.
func (ts *Tables) AddDuel(t *solve.Table) {
	h := t.Rules().Hash()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.init()
	if _, ok := ts.duel.Get(h); ok || ts.added[h] != nil {
		return
	}
	ts.added[h] = t
}
