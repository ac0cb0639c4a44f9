package main

import (
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
)

// barFigures is the most columns a progress bar's line takes besides its
// description, bar, count and rate: " 100% |", "| ", " [1h10m0s:10h0m0s]"
// and a column to spare (a line as wide as the terminal wraps in some).
const barFigures = 7 + 2 + 18 + 1

// barLine is what a progress bar shows besides its description, bar,
// percentage and times, in a terminal of 80 columns or more (narrower, the
// description has the room).
type barLine struct {
	count bool // "(done/total)"
	rate  bool // "(n it/s)"
}

// newBar returns a progress bar of total steps on e's stderr, described by
// desc, with an estimate of the time left, cleared when it finishes. It
// keeps to one line of the terminal: the library narrows the bar to make
// room, down to nothing, but a line wider still (a long description in a
// terminal of 60 columns) wrapped, and every redraw then began on the
// wrapped line, leaving a screen of leftovers. Under 80 columns the count
// and rate give way, and the description is shortened where it must be
// (barText).
func newBar(e *env, total int64, desc string, l barLine) *progressbar.ProgressBar {
	if w := terminalWidth(e.stderr); w > 0 && w < 80 {
		l = barLine{}
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(barText(e, total, desc, l)),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	if l.count {
		opts = append(opts, progressbar.OptionShowCount())
	}
	if l.rate {
		opts = append(opts, progressbar.OptionShowIts())
	}
	return progressbar.NewOptions64(total, opts...)
}

// barText returns desc shortened to barRoom, ending in "…".
func barText(e *env, total int64, desc string, l barLine) string {
	return shorten(desc, barRoom(e, total, l))
}

// barRoom is the most columns a bar's description may take on e's
// stderr's terminal besides l's figures for total steps; -1 where the
// width is unknown (no terminal: no limit).
func barRoom(e *env, total int64, l barLine) int {
	width := terminalWidth(e.stderr)
	if width <= 0 {
		return -1
	}
	if width < 80 {
		l = barLine{} // as newBar
	}
	room := width - barFigures
	if l.count {
		room -= 2*len(strconv.FormatInt(total, 10)) + 4 // " (done/total)"
	}
	if l.rate {
		room -= 14 // " (12345 it/s)"
	}
	return max(room, 0)
}

// shorten returns s in at most n columns (runes), its end replaced by "…"
// where it is longer; s itself for n < 0 (no limit), "" where n leaves no
// room for a letter.
func shorten(s string, n int) string {
	r := []rune(s)
	switch {
	case n < 0 || len(r) <= n:
		return s
	case n < 2:
		return ""
	}
	return string(r[:n-1]) + "…"
}
