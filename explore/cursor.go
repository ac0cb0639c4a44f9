package explore

import (
	"bufio"
	"io"
)

// Cursor is a cell of a win map chosen in the terminal, by index into the
// map's scores: the terminal's answer to hovering over a cell.
type Cursor struct {
	Map      *WinMap
	Me, Them int
}

// NewCursor returns a cursor on the cell of m nearest below scores me and
// them.
func NewCursor(m *WinMap, me, them int) *Cursor {
	at := func(v int) int { return max(0, min(len(m.Scores)-1, v/m.Step)) }
	return &Cursor{Map: m, Me: at(me), Them: at(them)}
}

// The keys a cursor understands.
const (
	KeyUp    = "up"
	KeyDown  = "down"
	KeyLeft  = "left"
	KeyRight = "right"
	KeyQuit  = "quit"
)

// Move moves the cursor by one key (up: my score higher; right: theirs),
// staying on the map.
func (c *Cursor) Move(key string) {
	n := len(c.Map.Scores) - 1
	switch key {
	case KeyUp:
		c.Me = min(n, c.Me+1)
	case KeyDown:
		c.Me = max(0, c.Me-1)
	case KeyRight:
		c.Them = min(n, c.Them+1)
	case KeyLeft:
		c.Them = max(0, c.Them-1)
	}
}

// Scores returns the scores of the cursor's cell.
func (c *Cursor) Scores() (me, them int) { return c.Map.Scores[c.Me], c.Map.Scores[c.Them] }

// ReadKeys reads key presses from r (the arrow keys' escape sequences, h j
// k l, q or Ctrl-C to quit; other bytes are ignored) and calls f with each
// until f returns false, a quit key or the end of r.
func ReadKeys(r io.Reader, f func(key string) bool) error {
	br := bufio.NewReader(r)
	arrows := map[byte]string{'A': KeyUp, 'B': KeyDown, 'C': KeyRight, 'D': KeyLeft}
	letters := map[byte]string{'k': KeyUp, 'j': KeyDown, 'l': KeyRight, 'h': KeyLeft, 'q': KeyQuit, 3: KeyQuit}
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		key := letters[b]
		if b == 0x1b {
			if next, err := br.Peek(2); err == nil && (next[0] == '[' || next[0] == 'O') {
				_, _ = br.Discard(2)
				key = arrows[next[1]]
			}
		}
		if key == "" {
			continue
		}
		if key == KeyQuit || !f(key) {
			return nil
		}
	}
}

// Frame writes the whole screen of the cursor: the map with its cell
// marked, then that cell's exact value and fair compensation.
func (tx Text) Frame(w io.Writer, c *Cursor) error {
	if err := tx.winMap(w, c.Map, c); err != nil {
		return err
	}
	me, them := c.Scores()
	lc := tx.c()
	_, err := io.WriteString(w, tx.wrap(lc.Msg("cli.explore.at", "me", me, "them", them, "p", lc.Dec(c.Map.Win[c.Me][c.Them], 6),
		"comp", compText(lc, c.Map.Comp[c.Me][c.Them], c.Map.CompWin[c.Me][c.Them])), 2)+tx.wrap(lc.Msg("cli.explore.keys"), 2))
	return err
}
