package tui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
)

// diceSelection is a person's choice among the dice of a throw, embedded
// in both game models (Model, DragonModel): the faces in ascending order,
// which of them are chosen, the earlier choices (for undo) and the cursor.
type diceSelection struct {
	faces  []int
	sel    []bool
	undo   [][]bool
	cursor int
}

// choose chooses or unchooses die i (0-based) and puts the cursor on it;
// when there is no die i it returns why and nothing changes.
func (d *diceSelection) choose(i int) (why string) {
	if i < 0 || i >= len(d.sel) {
		return fmt.Sprintf("there are only %d dice: choose 1 to %d", len(d.sel), len(d.sel))
	}
	d.undo = append(d.undo, slices.Clone(d.sel))
	d.sel[i] = !d.sel[i]
	d.cursor = i
	return ""
}

// undoChoice goes back to the selection before the last choice; when
// there is none it returns why.
func (d *diceSelection) undoChoice() (why string) {
	if len(d.undo) == 0 {
		return "nothing to undo"
	}
	d.sel, d.undo = d.undo[len(d.undo)-1], d.undo[:len(d.undo)-1]
	return ""
}

// move moves the cursor step dice along, round the ends.
func (d *diceSelection) move(step int) {
	if n := len(d.faces); n > 0 {
		d.cursor = ((d.cursor+step)%n + n) % n
	}
}

// selected returns the chosen dice.
func (d *diceSelection) selected() dice.Hand {
	var h dice.Hand
	for i, on := range d.sel {
		if on {
			h += dice.Single(d.faces[i], 1)
		}
	}
	return h
}

// looks returns how the dice of the throw are drawn: the chosen ones
// with a double border.
func (d *diceSelection) looks(st styles) []dieLook {
	looks := make([]dieLook, 0, len(d.faces))
	for i, f := range d.faces {
		l := dieLook{face: f, style: st.die}
		if d.sel[i] {
			l.double, l.style = true, st.dieSel
		}
		looks = append(looks, l)
	}
	return looks
}

// selectKey handles the keys that choose dice: 1-6, ←/→, space and u.
// toggle is the model's own way of choosing die i (it may refuse); note
// shows why an undo is refused. It reports whether msg was such a key.
func (d *diceSelection) selectKey(msg tea.KeyPressMsg, k keyMap, toggle func(i int), note func(isErr bool, format string, args ...any)) bool {
	switch {
	case key.Matches(msg, k.Dice):
		toggle(int(msg.String()[0] - '1'))
	case key.Matches(msg, k.Left):
		d.move(-1)
	case key.Matches(msg, k.Right):
		d.move(1)
	case key.Matches(msg, k.Toggle):
		toggle(d.cursor)
	case key.Matches(msg, k.Undo):
		if why := d.undoChoice(); why != "" {
			note(true, "%s", why)
		}
	default:
		return false
	}
	return true
}
