package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// diceSelection is a person's choice among the dice of a throw, embedded
// in both game models (Model, DragonModel): the faces in ascending order,
// which of them are chosen, the earlier choices (for undo) and the cursor.
//
// The number keys choose by face, as every hint and message speaks of
// faces: 5 chooses a die showing 5 ("keep 5 5" is 5 pressed twice), and
// once every die showing 5 is chosen, 5 unchooses them all. The arrows,
// space and a click choose one die where it lies.
type diceSelection struct {
	faces  []int
	sel    []bool
	undo   [][]bool
	cursor int
	dlc    *lang.Catalogue // the language of the reasons; nil: English
}

// choose chooses or unchooses die i (0-based) and puts the cursor on it;
// when there is no die i it returns why and nothing changes.
func (d *diceSelection) choose(i int) (why string) {
	if i < 0 || i >= len(d.sel) {
		return orEnglish(d.dlc).Msg("tui.onlyDice", "n", len(d.sel))
	}
	d.undo = append(d.undo, slices.Clone(d.sel))
	d.sel[i] = !d.sel[i]
	d.cursor = i
	return ""
}

// chooseFace chooses one more die showing face f (the first not chosen),
// or unchooses every die showing f when all of them are chosen, and puts
// the cursor on the die chosen; when no die shows f it returns why and
// nothing changes.
func (d *diceSelection) chooseFace(f int) (why string) {
	first := -1
	for i, g := range d.faces {
		if g != f {
			continue
		}
		if !d.sel[i] {
			return d.choose(i)
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		var throw dice.Hand
		for _, g := range d.faces {
			throw += dice.Single(g, 1)
		}
		return orEnglish(d.dlc).Msg("tui.noFace", "face", f, "dice", throw.String())
	}
	d.undo = append(d.undo, slices.Clone(d.sel))
	for i, g := range d.faces {
		if g == f {
			d.sel[i] = false
		}
	}
	d.cursor = first
	return ""
}

// undoChoice goes back to the selection before the last choice; when
// there is none it returns why.
func (d *diceSelection) undoChoice() (why string) {
	if len(d.undo) == 0 {
		return orEnglish(d.dlc).Msg("tui.nothingToUndo")
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
// with a double border, or, when the chosen dice cannot be kept (bad), a
// heavy one in the warning colour.
func (d *diceSelection) looks(st styles, bad bool) []dieLook {
	looks := make([]dieLook, 0, len(d.faces))
	for i, f := range d.faces {
		l := dieLook{face: f, style: st.die}
		switch {
		case d.sel[i] && bad:
			l.heavy, l.style = true, st.dieBad
		case d.sel[i]:
			l.double, l.style = true, st.dieSel
		}
		looks = append(looks, l)
	}
	return looks
}

// selectKey handles the keys that choose dice: 1-6 (by face), ←/→,
// space and u. refuse says why no die may be chosen now ("" when one
// may); note shows why a choice or an undo is refused. It reports whether
// msg was such a key.
func (d *diceSelection) selectKey(msg tea.KeyPressMsg, k keyMap, refuse func() string, note func(isErr bool, format string, args ...any)) bool {
	switch {
	case key.Matches(msg, k.Dice):
		d.pick(refuse, note, func() string { return d.chooseFace(int(msg.String()[0] - '0')) })
	case key.Matches(msg, k.Left):
		d.move(-1)
	case key.Matches(msg, k.Right):
		d.move(1)
	case key.Matches(msg, k.Toggle):
		d.pick(refuse, note, func() string { return d.choose(d.cursor) })
	case key.Matches(msg, k.Undo):
		if why := d.undoChoice(); why != "" {
			note(true, "%s", why)
		}
	default:
		return false
	}
	return true
}

// pick makes a choice unless refuse says why not, and notes why either
// refused.
func (d *diceSelection) pick(refuse func() string, note func(isErr bool, format string, args ...any), choice func() string) {
	why := refuse()
	if why == "" {
		why = choice()
	}
	if why != "" {
		note(true, "%s", why)
	}
}

// clickDie chooses or unchooses die i, clicked (see pick).
func (d *diceSelection) clickDie(i int, refuse func() string, note func(isErr bool, format string, args ...any)) {
	d.pick(refuse, note, func() string { return d.choose(i) })
}
