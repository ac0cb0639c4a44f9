package main

import (
	"flag"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/farkle/farkle/solved"
)

// The serve defaults of the solver's limits: ten distinct-rules perfect
// bots and hints at once stay under 1.5 GiB (one solve at a time within
// 512 MiB, 256 MiB of duel tables, 256 MiB of three-player tables and
// 64 MiB of solo policies kept).
const (
	serveSolveMemory = 512 << 20
	serveSolves      = 1
	serveSolveQueue  = 8
	serveDuelCache   = 256 << 20
	serveSoloCache   = 64 << 20
	serveCacheDirMax = 1 << 30
	// serveThreeSolve is the largest three-player table (score triples)
	// the server solves itself: 64,000, pocket-farkel or cardgames to
	// 2,000 (9 s of CPU for pocket-farkel, 2.4 s for cardgames, on a
	// 2-core machine); the presets' tables at their own target (8 million
	// triples, an hour or more) come from farkle solve --players 3 in the
	// cache directory.
	serveThreeSolve = 64000
	// serveThreeCache holds one three-player table of a preset at its own
	// target (about 200 MiB) or many small ones.
	serveThreeCache = 256 << 20
	// serveHeadroom is the memory beyond the solver's limits the rest of
	// the server is given under the Go runtime's soft memory limit.
	serveHeadroom = 256 << 20
)

// solveFlags registers the flags of the solver's work on the serve
// command's flags. The function it returns checks the parsed values and
// builds the server's Tables (shared by its bots and its advisor), and
// sets the Go runtime's soft memory limit to the sum of the limits plus
// headroom unless GOMEMLIMIT is set. A size takes a unit (512MiB, 1GiB,
// 100MB, or bytes); 0 turns that limit off. getenv is the environment the
// default cache directory (solved.CacheDir) and GOMEMLIMIT are read from.
func solveFlags(fs *flag.FlagSet, getenv func(string) string) func() (*solved.Tables, error) {
	mem := sizeFlag(fs, "solve-memory", serveSolveMemory, "memory the running solves may need together, a `size` like 512MiB or 1GiB; a rule set needing more gets the expert bot and hints from the solo policy (0: no limit)")
	solves := fs.Int("solves", serveSolves, "duel solves running at once (0: no limit)")
	queue := fs.Int("solve-queue", serveSolveQueue, "solves waiting for their turn; more are answered at once (the expert bot, solo hints) (0: no limit)")
	duelCache := sizeFlag(fs, "duel-cache-memory", serveDuelCache, "memory the duel tables kept may take, a `size`; the least recently used are dropped and read back from the cache directory (0: no limit)")
	soloCache := sizeFlag(fs, "solo-cache-memory", serveSoloCache, "memory the solo policies kept may take, a `size`; least recently used dropped (0: no limit)")
	dirMax := sizeFlag(fs, "cache-dir-max", serveCacheDirMax, "room the duel-table files in the cache directory may take, a `size`; least recently used removed (0: no limit)")
	threeSolve := fs.Int64("three-solve-triples", serveThreeSolve, "the largest three-player table the server solves itself in the background, in score triples (the target in the solver's units, cubed; CPU grows as its 4/3 power); a larger one is used when farkle solve --players 3 left it in the cache directory (0: none solved here)")
	threeCache := sizeFlag(fs, "three-cache-memory", serveThreeCache, "memory the three-player tables kept may take, a `size`; least recently used dropped and read back (0: no limit)")
	dir := fs.String("cache", "", "directory of the duel table cache (default $FARKLE_CACHE_DIR, else $XDG_CACHE_HOME/farkle, else ~/.cache/farkle)")
	return func() (*solved.Tables, error) {
		for name, v := range map[string]int{"solves": *solves, "solve-queue": *queue} {
			if v < 0 {
				return nil, usagef("--%s %d: must be 0 or more", name, v)
			}
		}
		if *threeSolve < 0 {
			return nil, usagef("--three-solve-triples %d: must be 0 or more", *threeSolve)
		}
		cacheDir := *dir
		if cacheDir == "" {
			cacheDir = solved.CacheDir(getenv)
		}
		lim := solved.Limits{Solves: *solves, Queue: *queue, Memory: *mem, DuelCache: *duelCache, SoloCache: *soloCache,
			CacheDirMax: *dirMax, NoWait: true, ThreeSolve: *threeSolve, ThreeCache: *threeCache}
		if getenv("GOMEMLIMIT") == "" && *mem > 0 && *duelCache > 0 && *soloCache > 0 && *threeCache > 0 {
			debug.SetMemoryLimit(*mem + *duelCache + *soloCache + *threeCache + serveHeadroom)
		}
		return solved.NewLimitedTables(cacheDir, lim), nil
	}
}

// sizeFlag defines a flag holding a size in bytes.
func sizeFlag(fs *flag.FlagSet, name string, def int64, usage string) *int64 {
	v := byteSizeFlag(def)
	fs.Var(&v, name, usage)
	return (*int64)(&v)
}

// byteSizeFlag is a size in bytes, written with an optional unit: B, KB,
// MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024); K, M,
// G and T alone are powers of 1024.
type byteSizeFlag int64

var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
	"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
}

func (s *byteSizeFlag) String() string {
	n := int64(*s)
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return strconv.FormatInt(n, 10)
}

func (s *byteSizeFlag) Set(text string) error {
	t := strings.TrimSpace(text)
	i := strings.IndexFunc(t, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult, ok := sizeUnits[unit]
	x, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || num == "" {
		return fmt.Errorf("%q is not a size: want bytes or a number with a unit, like 512MiB or 1GiB", text)
	}
	v := x * mult
	if v > math.MaxInt64/2 {
		return fmt.Errorf("%q is too large: at most 4 EiB", text)
	}
	*s = byteSizeFlag(math.Round(v))
	return nil
}

// solverMetrics are the scheduler's figures for the metrics listener: the
// solves running and waiting, the memory they hold and the caches keep,
// and the requests refused.
func solverMetrics(ts *solved.Tables) []prometheus.Collector {
	gauge := func(name, help string, f func(solved.Stats) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(ts.Stats()) })
	}
	counter := func(name, help string, f func(solved.Stats) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return f(ts.Stats()) })
	}
	return []prometheus.Collector{
		gauge("farkle_solves_running", "Duel and three-player solves running now.", func(s solved.Stats) float64 { return float64(s.Running) }),
		gauge("farkle_solves_queued", "Solves waiting for their turn.", func(s solved.Stats) float64 { return float64(s.Queued) }),
		gauge("farkle_solve_memory_bytes", "Memory the running solves may need (their admitted estimate).", func(s solved.Stats) float64 { return float64(s.Held) }),
		gauge("farkle_solve_memory_peak_bytes", "The most memory running solves ever held at once.", func(s solved.Stats) float64 { return float64(s.PeakHeld) }),
		gauge("farkle_solver_cache_bytes", "Memory of the duel tables, three-player tables and solo policies kept.", func(s solved.Stats) float64 { return float64(s.CachedDuel + s.CachedSolo + s.CachedThree) }),
		counter("farkle_duel_solves_total", "Duel solves started.", func(s solved.Stats) float64 { return float64(s.DuelSolves) }),
		counter("farkle_duel_loads_total", "Duel tables read from the cache directory.", func(s solved.Stats) float64 { return float64(s.Loads) }),
		counter("farkle_three_solves_total", "Three-player solves started.", func(s solved.Stats) float64 { return float64(s.ThreeSolves) }),
		counter("farkle_three_loads_total", "Three-player tables read from the cache directory.", func(s solved.Stats) float64 { return float64(s.ThreeLoads) }),
		counter("farkle_solves_refused_total", "Solves refused: too large for the memory budget, or the queue full.", func(s solved.Stats) float64 { return float64(s.TooLarge + s.Busy) }),
		counter("farkle_solves_failed_total", "Solves that failed (a panic in the solver).", func(s solved.Stats) float64 { return float64(s.Failed) }),
	}
}
