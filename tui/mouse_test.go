package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// clickAt sends a left click at column x of line y.
func clickAt(m tea.Model, x, y int) {
	_, cmd := m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	run(m, cmd)
}

// findOnScreen returns the line and column (in cells) where text starts on
// m's screen, failing t when it is not there.
func findOnScreen(t *testing.T, m tea.Model, text string) (x, y int) {
	t.Helper()
	for y, line := range strings.Split(drawn(m), "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return lipgloss.Width(line[:i]), y
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", text, drawn(m))
	return 0, 0
}

// TestClicksChooseDiceAndPressButtons: in every size the table is checked
// at, a click on the middle of a die chooses it and a second unchooses it;
// a click on a button of the keys line is its key; clicks elsewhere do
// nothing. The places are read from the drawn screen, not from the layout.
func TestClicksChooseDiceAndPressButtons(t *testing.T) {
	for _, size := range [][2]int{{100, 35}, {80, 24}, {60, 20}} {
		m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "bob"}}, seedWhere(t, "lone-two", loneTwo), size[0], size[1])
		if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
			t.Fatalf("mouse mode %v, want cell motion (clicks)", v.MouseMode)
		}
		_, y := findOnScreen(t, m, "r throw")
		x, _ := findOnScreen(t, m, "r throw")
		clickAt(m, x, y) // the button r: throw
		if m.game.State().Step != engine.StepKeep {
			t.Fatalf("%v: clicking \"r throw\" did not throw:\n%s", size, drawn(m))
		}
		// Every button, from its first cell to its last, as drawn.
		for _, b := range []string{"r keep & throw", "b keep & bank", "h hint", "u undo", "? help", "q quit"} {
			x, y := findOnScreen(t, m, b)
			for _, at := range []int{x, x + len([]rune(b)) - 1} {
				if die, k := m.tableLayout().hit(at, y); die >= 0 || k != b[:1] {
					t.Fatalf("%v: a click at column %d of %q is die %d, key %q", size, at, b, die, k)
				}
			}
			if _, k := m.tableLayout().hit(x-2, y); k != "" && x > 2 {
				t.Fatalf("%v: a click just before %q is the key %q", size, b, k)
			}
		}
		_, top := findOnScreen(t, m, "╭─────╮")
		one := -1
		for i, f := range m.faces {
			if f == 1 {
				one = i
				break
			}
		}
		clickAt(m, 8*one+3, top+2)
		if m.selected() != dice.Of(1) || !m.sel[one] {
			t.Fatalf("%v: clicking die %d chose %v", size, one, m.selected())
		}
		clickAt(m, 8*one+3, top+2)
		if m.selected() != 0 {
			t.Fatalf("%v: a second click left %v chosen", size, m.selected())
		}
		clickAt(m, 8*one+7, top+2) // the gap between two dice
		clickAt(m, 8*one+3, top-2)
		if m.selected() != 0 {
			t.Fatalf("%v: a click off the dice chose %v", size, m.selected())
		}
		clickAt(m, 8*one+3, top+4)
		bx, by := findOnScreen(t, m, "b keep & bank")
		clickAt(m, bx+4, by)
		acts := recordedActions[engine.Action](t, m.game.table)
		if n := len(acts); n < 3 || acts[n-2].Kind != engine.Keep || acts[n-2].Dice != dice.Of(1) || acts[n-1].Kind != engine.Bank {
			t.Fatalf("%v: clicking \"keep & bank\" recorded %+v", size, acts)
		}
	}
}

// TestMouseKeyTurnsTheMouseOff: m gives the terminal's text selection
// back (no mouse mode) and takes it again.
func TestMouseKeyTurnsTheMouseOff(t *testing.T) {
	m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}}, dice.SeedFrom("m"), 80, 24)
	press(m, "m")
	if v := m.View(); v.MouseMode != tea.MouseModeNone || !strings.Contains(drawn(m), "mouse off") {
		t.Fatalf("after m: mouse mode %v\n%s", v.MouseMode, drawn(m))
	}
	press(m, "m")
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("after m m: mouse mode %v", v.MouseMode)
	}
}

// TestDragonClicks: in Dragon Farkle a click chooses a die of the throw
// (not the event die beside them) and the keys line's buttons are keys.
func TestDragonClicks(t *testing.T) {
	seed := dragonSeed(t, "golden-choose", "you,bot:smart", youStart)
	m := newDragonModel(t, "you,bot:smart", seed, 80, 30)
	press(m, "r")
	if m.faces == nil {
		t.Fatalf("no throw to choose from:\n%s", drawn(m))
	}
	_, top := findOnScreen(t, m, "╭─────╮")
	clickAt(m, 8*0+3, top+2)
	if !m.sel[0] || m.selected().N() != 1 {
		t.Fatalf("clicking die 1 chose %v", m.selected())
	}
	clickAt(m, 8*len(m.faces)+3, top+2) // the event die
	if m.selected().N() != 1 {
		t.Fatalf("clicking the event die changed the choice to %v", m.selected())
	}
	hx, hy := findOnScreen(t, m, "h hint")
	clickAt(m, hx, hy)
	if !m.showHint || !strings.Contains(drawn(m), "hint (h hides)") {
		t.Fatalf("clicking \"h hint\" did not show the hint:\n%s", drawn(m))
	}
}
