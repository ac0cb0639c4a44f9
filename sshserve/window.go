package sshserve

import (
	"fmt"
	"strconv"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// Size is a terminal's size in character cells.
type Size struct{ Cols, Rows int }

// String writes s as ParseSize reads it: "500x200".
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Cols, s.Rows) }

// ParseSize reads "COLSxROWS" (e.g. "500x200"); "0" or "0x0" is the zero
// Size (no bound). Both numbers must be positive, or both zero.
func ParseSize(v string) (Size, error) {
	if v == "0" {
		return Size{}, nil
	}
	c, r, ok := strings.Cut(strings.ToLower(v), "x")
	cols, err1 := strconv.Atoi(c)
	rows, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil || cols < 0 || rows < 0 || (cols == 0) != (rows == 0) {
		return Size{}, fmt.Errorf("%q is not a size: want COLSxROWS, e.g. 500x200 (0 for none)", v)
	}
	return Size{cols, rows}, nil
}

// maxPixelsPerCell bounds a window's pixel size: at most this many pixels
// a cell of the largest window, each way (32000×12800 at 500×200).
const maxPixelsPerCell = 64

// maxTermBytes bounds the TERM a pty request names; no terminal's name is
// near it.
const maxTermBytes = 256

// defaultSize is the size of a pty request that names none (zero columns
// or rows, which RFC 4254 says to ignore), rather than anything the
// session's environment (COLUMNS, LINES) might say.
var defaultSize = Size{80, 24}

// ptyRequest is the payload of a "pty-req" (RFC 4254 6.2).
type ptyRequest struct {
	Term                 string
	Cols, Rows, PxW, PxH uint32
	Modes                string
}

// windowChange is the payload of a "window-change" (RFC 4254 6.7).
type windowChange struct {
	Cols, Rows, PxW, PxH uint32
}

// errTermTooLong refuses a pty request whose TERM is past maxTermBytes.
var errTermTooLong = fmt.Errorf("sshserve: a TERM longer than %d bytes", maxTermBytes)

// fit bounds a requested window in place: a dimension given as zero keeps
// its size in prev (RFC 4254 says to ignore it), then columns and rows are
// clamped to max and pixels to maxPixelsPerCell a cell of max (a zero max:
// no bound). It returns the size asked for and the size given.
func fit(cols, rows, pxW, pxH *uint32, prev, max Size) (asked, given Size) {
	asked = Size{cells(*cols), cells(*rows)}
	given = asked
	if given.Cols == 0 {
		given.Cols = prev.Cols
	}
	if given.Rows == 0 {
		given.Rows = prev.Rows
	}
	if max.Cols > 0 && max.Rows > 0 {
		given = Size{min(given.Cols, max.Cols), min(given.Rows, max.Rows)}
		*pxW = min(*pxW, uint32(max.Cols*maxPixelsPerCell))
		*pxH = min(*pxH, uint32(max.Rows*maxPixelsPerCell))
	}
	*cols, *rows = uint32(given.Cols), uint32(given.Rows)
	return asked, given
}

// cells is a count of cells from the wire as an int, however large.
func cells(v uint32) int { return int(min(v, 1<<30)) }

// fitPty rewrites a pty request's payload to a window of at most max (see
// fit), with defaultSize for a dimension given as zero. It returns the
// payload to pass on, the size asked for and the size given.
func fitPty(payload []byte, max Size) (out []byte, asked, given Size, err error) {
	var p ptyRequest
	if err := gossh.Unmarshal(payload, &p); err != nil {
		return nil, Size{}, Size{}, err
	}
	if len(p.Term) > maxTermBytes {
		return nil, Size{}, Size{}, errTermTooLong
	}
	asked, given = fit(&p.Cols, &p.Rows, &p.PxW, &p.PxH, defaultSize, max)
	return gossh.Marshal(&p), asked, given, nil
}

// fitWindow rewrites a window-change's payload as fitPty does, a
// dimension given as zero keeping its size in prev.
func fitWindow(payload []byte, prev, max Size) (out []byte, asked, given Size, err error) {
	var w windowChange
	if err := gossh.Unmarshal(payload, &w); err != nil {
		return nil, Size{}, Size{}, err
	}
	asked, given = fit(&w.Cols, &w.Rows, &w.PxW, &w.PxH, prev, max)
	return gossh.Marshal(&w), asked, given, nil
}
