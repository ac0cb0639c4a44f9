package tui

import (
	"github.com/farkle/farkle/lang"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The mouse. Both tables ask the terminal for clicks (cell-motion mode,
// the least that reports them): a click on a die chooses or unchooses it,
// and the keys line at the bottom of the table is a row of buttons (a
// click on "b keep & bank" is the key b). While the mouse is on, most
// terminals leave text selection to a drag with shift held (option on
// macOS); m turns the mouse off so that a plain drag selects text, and on
// again.

// button is a key drawn on screen: clicking it is pressing key (keys
// such as "↑/↓" are drawn but not clickable).
type button struct {
	key  string
	what string
}

// layout is a screen being drawn, with where its dice and buttons are, so
// that a click can be found on it.
type layout struct {
	lines []string
	dice  int // index in lines of the first row of the dice that can be chosen, -1 for none
	n     int // the number of those dice
	bar   []barAt
}

// barAt is a row of buttons: its index in lines and the buttons with
// their first and last columns.
type barAt struct {
	line    int
	buttons []button
	x0, x1  []int
}

func newLayout() *layout { return &layout{dice: -1} }

func (l *layout) add(s ...string) { l.lines = append(l.lines, s...) }

// addDice adds the dice area; when n dice in it can be chosen, they are
// clickable.
func (l *layout) addDice(area []string, n int) {
	if n > 0 {
		l.dice, l.n = len(l.lines), n
	}
	l.add(area...)
}

// addBar adds a line of buttons (see barLine).
func (l *layout) addBar(st styles, buttons []button) {
	b := barAt{line: len(l.lines), buttons: buttons}
	x := 0
	var parts []string
	for i, bt := range buttons {
		if i > 0 {
			x += lipgloss.Width(" · ")
		}
		text := st.key.Render(bt.key) + " " + bt.what
		w := lipgloss.Width(text)
		b.x0, b.x1 = append(b.x0, x), append(b.x1, x+w-1)
		x += w
		parts = append(parts, text)
	}
	l.bar = append(l.bar, b)
	l.add(strings.Join(parts, " · "))
}

// addHeader adds the title line: left, and the buttons on the right of a
// window width columns wide.
func (l *layout) addHeader(st styles, left string, width int, buttons []button) {
	var parts []string
	for _, bt := range buttons {
		parts = append(parts, bt.key+" "+bt.what)
	}
	right := st.dim.Render(strings.Join(parts, " · "))
	line := spread(left, right, width)
	if line == left {
		l.add(line)
		return
	}
	b := barAt{line: len(l.lines), buttons: buttons}
	x := width - lipgloss.Width(right)
	for i, p := range parts {
		if i > 0 {
			x += lipgloss.Width(" · ")
		}
		b.x0, b.x1 = append(b.x0, x), append(b.x1, x+lipgloss.Width(p)-1)
		x += lipgloss.Width(p)
	}
	l.bar = append(l.bar, b)
	l.add(line)
}

// dropBlanks removes the empty lines (in a low window), keeping the
// places of the dice and the buttons.
func (l *layout) dropBlanks() {
	shift := func(at int) int {
		n := 0
		for _, s := range l.lines[:at] {
			if s == "" {
				n++
			}
		}
		return at - n
	}
	if l.dice >= 0 {
		l.dice = shift(l.dice)
	}
	for i := range l.bar {
		l.bar[i].line = shift(l.bar[i].line)
	}
	l.lines = slices.DeleteFunc(l.lines, func(s string) bool { return s == "" })
}

// String returns the screen.
func (l *layout) String() string { return strings.Join(l.lines, "\n") }

// hit returns what is at column x of line y: the index of a die (-1 for
// none) or the key of a button ("" for none).
func (l *layout) hit(x, y int) (die int, key string) {
	if l.dice >= 0 && y >= l.dice && y < l.dice+5 && x%8 < 7 && x/8 < l.n {
		return x / 8, ""
	}
	for _, b := range l.bar {
		if b.line != y {
			continue
		}
		for i, bt := range b.buttons {
			if x >= b.x0[i] && x <= b.x1[i] && !strings.Contains(bt.key, "/") {
				return -1, bt.key
			}
		}
	}
	return -1, ""
}

// clickKey is the key press of a button: a key name of keyMap.
func clickKey(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// mouseMode is the mouse mode of a view: cell motion (clicks) unless the
// player turned the mouse off.
func mouseMode(off bool) tea.MouseMode {
	if off {
		return tea.MouseModeNone
	}
	return tea.MouseModeCellMotion
}

// mouseNoteIn says what m did, in the language of c.
func mouseNoteIn(c *lang.Catalogue, off bool) string {
	if off {
		return orEnglish(c).Msg("tui.mouseOff")
	}
	return orEnglish(c).Msg("tui.mouseOn")
}
