package tui

import (
	"strings"
	"sync"
	"time"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// SolveMeter follows the duel solves of the bots' tables for the screen:
// set a solved.Tables' Progress to the meter's Progress method. It tells how
// far a solve is and estimates the time left from the pace so far. A solve
// sweeps every pair of scores: once without a farkle penalty; with one,
// until the values settle (six sweeps for classic), so the number of
// sweeps is itself an estimate. It is safe for concurrent use.
type SolveMeter struct {
	mu      sync.Mutex
	now     func() time.Time
	sweeps  int // the sweeps expected, from the rules (Expect)
	start   time.Time
	last    time.Time // the last report
	sweep   int
	done    int
	total   int
	reports int
}

// NewSolveMeter returns a meter reading the clock now (nil: time.Now).
func NewSolveMeter(now func() time.Time) *SolveMeter {
	if now == nil {
		now = time.Now
	}
	return &SolveMeter{now: now, sweeps: 1}
}

// expectedSweeps is the number of sweeps a duel solve of rules with a
// farkle penalty takes in the common presets (see the solve package).
const expectedSweeps = 6

// Expect readies the meter for the solve of r's duel table; a solve
// reporting now (within the last idle span) goes on being followed.
func (s *SolveMeter) Expect(r rules.Rules) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweeps = 1
	if p := r.Turn.FarklePenalty; p.Count > 0 && p.Points > 0 {
		s.sweeps = expectedSweeps
	}
	if s.now().Sub(s.last) > idle {
		s.start, s.sweep, s.done, s.total, s.reports = time.Time{}, 0, 0, 0, 0
	}
}

// idle is how long without a report before the meter takes a solve to
// have ended.
const idle = 3 * time.Second

// Progress records that sweep (from 1) has done of total score pairs; it
// is a solved.Tables Progress function.
func (s *SolveMeter) Progress(sweep, done, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reports == 0 || sweep < s.sweep {
		s.start = s.now() // a new solve
	}
	s.sweep, s.done, s.total, s.last = sweep, done, total, s.now()
	s.reports++
}

// solveStatus is how far a solve is.
type solveStatus struct {
	part          float64       // the part done, 0 to 1
	left          time.Duration // the time left, 0 when not known yet
	sweep, sweeps int           // the sweep under way and the sweeps expected
}

// Status returns how far the solve under way is; ok is false before its
// first report (the table may be read from the cache instead).
func (s *SolveMeter) Status() (st solveStatus, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reports == 0 || s.total == 0 {
		return st, false
	}
	sweeps := max(s.sweeps, s.sweep)
	if s.sweep == sweeps && s.done == s.total && s.sweeps > 1 {
		sweeps++ // the values have not settled: one more at least
	}
	st = solveStatus{sweep: s.sweep, sweeps: sweeps}
	st.part = (float64(s.sweep-1) + float64(s.done)/float64(s.total)) / float64(sweeps)
	if elapsed := s.now().Sub(s.start); st.part > 0.02 && elapsed > time.Second {
		st.left = time.Duration(float64(elapsed) * (1 - st.part) / st.part)
	}
	return st, true
}

// String writes the status: "31% · sweep 2 of about 6 · about 1 min 10 s
// left" (the time once it can be estimated).
func (st solveStatus) String() string { return st.stringIn(nil) }

// stringIn is String in the language of c.
func (st solveStatus) stringIn(c *lang.Catalogue) string {
	c = orEnglish(c)
	line := c.Pct(float64(int(100*st.part))/100, 0) + " · "
	if st.sweeps > 1 {
		line += c.Msg("tui.meter.sweepOf", "sweep", st.sweep, "sweeps", st.sweeps)
	} else {
		line += c.Msg("tui.meter.sweep", "sweep", st.sweep)
	}
	if st.left > 0 {
		line += " · " + c.Msg("tui.meter.left", "time", roughlyIn(c, st.left))
	}
	return line
}

// roughlyIn writes an estimate of d for a person in the language of c: "about 40 s", "about 1
// min 10 s", "about 12 min", "a few seconds".
func roughlyIn(c *lang.Catalogue, d time.Duration) string {
	c = orEnglish(c)
	s := int(d.Round(5*time.Second) / time.Second)
	switch {
	case s < 5:
		return c.Msg("tui.meter.fewSeconds")
	case s < 60:
		return c.Msg("tui.meter.seconds", "s", s)
	case s < 600 && s%60 != 0:
		return c.Msg("tui.meter.minSec", "min", s/60, "s", s%60)
	}
	return c.Msg("tui.meter.minutes", "min", (s+30)/60)
}

// bar draws part (0 to 1) as a bar width cells wide.
func bar(part float64, width int) string {
	n := int(part*float64(width) + 0.5)
	n = min(max(n, 0), width)
	return strings.Repeat("█", n) + strings.Repeat("░", width-n)
}

// short writes the part done and the time left: "31%, about 1 min left".
func (st solveStatus) short() string { return st.shortIn(nil) }

// shortIn is short in the language of c.
func (st solveStatus) shortIn(c *lang.Catalogue) string {
	c = orEnglish(c)
	pct := c.Pct(float64(int(100*st.part))/100, 0)
	if st.left > 0 {
		return pct + ", " + c.Msg("tui.meter.left", "time", roughlyIn(c, st.left))
	}
	return pct
}
