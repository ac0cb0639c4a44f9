package tui

import (
	"github.com/farkle/farkle/lang"
	"strings"

	"charm.land/lipgloss/v2"
)

// pips are the three inner rows of each face, five columns wide.
var pips = [7][3]string{
	1: {"     ", "  ●  ", "     "},
	2: {"●    ", "     ", "    ●"},
	3: {"●    ", "  ●  ", "    ●"},
	4: {"●   ●", "     ", "●   ●"},
	5: {"●   ●", "  ●  ", "●   ●"},
	6: {"●   ●", "●   ●", "●   ●"},
}

// dieLook is how one die is drawn.
type dieLook struct {
	face   int
	double bool // double border: selected
	heavy  bool // heavy border: selected, but the selection cannot be kept
	style  lipgloss.Style
	rows   *[3]string // the inner rows instead of face's pips (five columns each), e.g. an event die
}

// drawDice draws the dice side by side, five rows high.
func drawDice(dice []dieLook) string {
	rows := make([]strings.Builder, 5)
	for i, d := range dice {
		top, side, bottom := "╭─────╮", "│", "╰─────╯"
		switch {
		case d.heavy:
			top, side, bottom = "┏━━━━━┓", "┃", "┗━━━━━┛"
		case d.double:
			top, side, bottom = "╔═════╗", "║", "╚═════╝"
		}
		in := pips[d.face]
		if d.rows != nil {
			in = *d.rows
		}
		lines := [5]string{top, side + in[0] + side, side + in[1] + side, side + in[2] + side, bottom}
		for r := range rows {
			if i > 0 {
				rows[r].WriteByte(' ')
			}
			rows[r].WriteString(d.style.Render(lines[r]))
		}
	}
	out := make([]string, len(rows))
	for r := range rows {
		out[r] = rows[r].String()
	}
	return strings.Join(out, "\n")
}

// diceLabels returns the line under n drawn dice: a ▲ under the one at the
// cursor (cursor < 0: none). The dice are not numbered: the number keys
// choose by face (see diceSelection).
func diceLabels(n, cursor int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		if i == cursor {
			b.WriteString("   ▲   ")
		} else {
			b.WriteString("       ")
		}
	}
	return b.String()
}

// diceMessage returns the six lines of the dice area of a window width
// columns wide when it shows msg instead of dice.
func diceMessage(msg string, width int) []string {
	out := []string{"", ""}
	for _, l := range wrap(msg, width-2, "") {
		out = append(out, "  "+l)
	}
	for len(out) < 6 {
		out = append(out, "")
	}
	return out[:6]
}

// overMessageIn is overMessage in the language of c.
func overMessageIn(c *lang.Catalogue, path string, width int) []string {
	c = orEnglish(c)
	saved := c.Msg("tui.notSaved")
	if path != "" {
		saved = c.Msg("tui.savedAs", "file", path)
	}
	return diceMessage(saved+" "+c.Msg("tui.overKeys"), width)
}
