package solved

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/farkle/farkle/solve"
)

// ErrBusy is returned at once when a solve cannot even wait for its turn:
// the queue of solves waiting is full (Limits.Queue).
var ErrBusy = errors.New("solved: the solver is busy")

// Limits bound the solver work of a Tables. A zero field means no limit
// (beyond the solver's own defaults), which is what the command line uses;
// the server sets them from the flags of farkle serve.
type Limits struct {
	// Solves is the number of duel and three-player solves running at
	// once (seconds each for rules like the presets, much longer for large
	// targets).
	// Solo solves (milliseconds) and loads from the cache directory take
	// no such slot, only memory.
	Solves int
	// Queue is the number of solves and loads that may wait for their turn;
	// one more is refused at once with ErrBusy.
	Queue int
	// Memory is the budget of the running solves and loads together, in
	// bytes: a job starts when its need (the solver's own figure) fits the
	// budget minus what the running ones hold; a need larger than the whole
	// budget is refused at once with an error wrapping solve.ErrTooLarge
	// that gives the figure.
	Memory int64
	// DuelCache is the memory of the duel tables kept for reuse, in bytes;
	// the least recently used are dropped (and read back from the cache
	// directory when asked again). A table larger than this is refused
	// (solve.ErrTooLarge).
	DuelCache int64
	// SoloCache is the memory of the solo policies kept, in bytes (least
	// recently used dropped).
	SoloCache int64
	// CacheDirMax is the size of the duel and three-player table files
	// kept in the cache directory, in bytes; the least recently used files are removed. A
	// table whose file alone is larger is not written.
	CacheDirMax int64
	// NoWait makes bots never wait for a duel table: a perfect bot plays as
	// expert while its table is queued, solved or read back (see
	// bot.Perfect.Fallback). Without it a perfect bot waits, as on the
	// command line.
	NoWait bool
	// Workers is the number of goroutines of a duel or three-player
	// solve; 0: GOMAXPROCS.
	Workers int
	// ThreeSolve is the most score triples (solve.ThreeTriples) of a
	// three-player table this Tables solves itself, in the background,
	// taking a solve slot and its memory like a duel solve (its CPU time
	// grows about as the triples' 4/3 power: about 9 s for 64,000,
	// pocket-farkel to 2,000, an hour or more for the presets' 8 million). A larger table is used only when
	// read from the cache directory, where farkle solve --players 3 wrote
	// it. 0: none is solved here (the command line's Tables).
	ThreeSolve int64
	// ThreeCache is the memory of the three-player tables kept, in bytes
	// (each counted as what reading it may need, solve.ThreeBytes with one
	// worker); the least recently used are dropped and read back from the
	// cache directory, or solved again, when asked. A table larger than
	// this is refused.
	ThreeCache int64
}

// Stats counts what a Tables' scheduler did and holds now.
type Stats struct {
	Running     int   // duel solves running now
	PeakRunning int   // most duel solves ever running at once
	Queued      int   // jobs waiting for their turn now
	Held        int64 // bytes held by running jobs now
	PeakHeld    int64 // most bytes ever held at once
	DuelSolves  int   // duel solves started
	SoloSolves  int   // solo solves started
	Loads       int   // duel tables read from the cache directory
	Busy        int   // requests refused with ErrBusy
	TooLarge    int   // requests refused as too large
	Failed      int   // solves that failed (a panic, a write error of none)
	Evictions   int   // tables and policies dropped from memory
	CachedDuel  int64 // bytes of duel tables kept in memory
	CachedSolo  int64 // bytes of solo policies kept in memory
	DirRemoved  int   // cache files removed to keep the directory under its cap
	ThreeSolves int   // three-player solves started
	ThreeLoads  int   // three-player tables read from the cache directory
	CachedThree int64 // bytes of three-player tables kept in memory
}

// scheduler admits jobs under Limits: a FIFO queue; the first job that
// does not fit the memory left stops everyone behind it (so a large job is
// never starved by small ones), while a duel solve waiting only for a
// slot lets the jobs behind it that need no slot pass.
type scheduler struct {
	lim   *Limits
	mu    sync.Mutex
	queue []*ticket
	st    Stats
}

type ticket struct {
	need     int64
	slot     bool // takes one of Limits.Solves
	admitted chan struct{}
	done     bool // admitted (under mu)
}

// tooLargeError is a need refused by the budget; it wraps solve.ErrTooLarge.
type tooLargeError struct {
	what        string
	need, limit int64
	budget      string
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("solved: %s needs %s, more than the %s of %s", e.what, solve.ByteSize(e.need), budgetName(e.budget), solve.ByteSize(e.limit))
}

// budgetName is the English name of a budget ("" is the solver memory).
func budgetName(b string) string {
	switch b {
	case "duelCache":
		return "memory kept for duel tables"
	case "threeCache":
		return "memory kept for three-player tables"
	}
	return "solver memory"
}

func (e *tooLargeError) Unwrap() error { return solve.ErrTooLarge }

// enter puts a job needing need bytes in line and returns its ticket
// (admitted already, or waiting). It fails at once with an error wrapping
// solve.ErrTooLarge when need exceeds the whole budget, and with ErrBusy
// when the queue is full.
func (s *scheduler) enter(what string, need int64, slot bool) (*ticket, error) {
	if s.lim.Memory > 0 && need > s.lim.Memory {
		s.count(func(st *Stats) { st.TooLarge++ })
		return nil, &tooLargeError{what: what, need: need, limit: s.lim.Memory}
	}
	t := &ticket{need: need, slot: slot, admitted: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, t)
	s.dispatch()
	if !t.done && s.lim.Queue > 0 && len(s.queue) > s.lim.Queue {
		s.remove(t)
		s.st.Queued = len(s.queue)
		s.st.Busy++
		return nil, fmt.Errorf("%w: %d solves are waiting already; try again later", ErrBusy, s.lim.Queue)
	}
	return t, nil
}

// wait waits for t's turn and returns the function that ends the job, or
// ctx's error when ctx ends first (t then leaves the line).
func (s *scheduler) wait(ctx context.Context, t *ticket) (func(), error) {
	release := func() { s.release(t) }
	if ctx.Err() == nil {
		select {
		case <-t.admitted:
			return release, nil
		case <-ctx.Done():
		}
	}
	s.mu.Lock()
	admitted := t.done
	if !admitted {
		s.remove(t)
		s.st.Queued = len(s.queue)
		s.dispatch()
	}
	s.mu.Unlock()
	if admitted {
		release()
	}
	return nil, ctx.Err()
}

// dispatch admits the jobs that can start now, in order. s.mu is held.
func (s *scheduler) dispatch() {
	for i := 0; i < len(s.queue); {
		t := s.queue[i]
		if s.lim.Memory > 0 && s.st.Held+t.need > s.lim.Memory {
			break
		}
		if t.slot && s.lim.Solves > 0 && s.st.Running >= s.lim.Solves {
			i++
			continue
		}
		s.queue = append(s.queue[:i], s.queue[i+1:]...)
		t.done = true
		s.st.Held += t.need
		s.st.PeakHeld = max(s.st.PeakHeld, s.st.Held)
		if t.slot {
			s.st.Running++
			s.st.PeakRunning = max(s.st.PeakRunning, s.st.Running)
		}
		close(t.admitted)
	}
	s.st.Queued = len(s.queue)
}

func (s *scheduler) remove(t *ticket) {
	for i, q := range s.queue {
		if q == t {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			return
		}
	}
}

func (s *scheduler) release(t *ticket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Held -= t.need
	if t.slot {
		s.st.Running--
	}
	s.dispatch()
}

// count adds to a counter of the stats.
func (s *scheduler) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.st)
	s.mu.Unlock()
}

func (s *scheduler) stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}
