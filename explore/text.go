package explore

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/farkle/farkle/lang"
)

// Text writes the explorer's data for a terminal. With Color the cells
// are coloured (256 colours); without (NO_COLOR, or output that is not a
// terminal) the same cells are plain characters.
type Text struct {
	Color bool
	Lang  *lang.Catalogue // the language of the texts; nil: English
	Width int             // the columns the prose wraps at, when fewer than Width
}

// width is the columns of the text: Width, or tx.Width when narrower.
func (tx Text) width() int {
	if tx.Width > 0 && tx.Width < Width {
		return tx.Width
	}
	return Width
}

// wrap breaks s as wrap does, at tx.Width columns when that is narrower.
func (tx Text) wrap(s string, indent int) string {
	return wrapAt(s, tx.width(), indent)
}

// c returns the language of the texts.
func (tx Text) c() *lang.Catalogue {
	if tx.Lang == nil {
		return lang.Get(lang.Default)
	}
	return tx.Lang
}

// out returns w behind a writer that turns the styles' colours into the
// 256 colours of Color, or drops them without.
func (tx Text) out(w io.Writer) io.Writer {
	p := colorprofile.NoTTY
	if tx.Color {
		p = colorprofile.ANSI256
	}
	return &colorprofile.Writer{Forward: w, Profile: p}
}

// WinMap writes the map as a grid: my score down (highest at the top),
// theirs across, each cell the tenth of P(win) it falls in (0..9) on the
// colour of WinPalette.
func (tx Text) WinMap(w io.Writer, m *WinMap) error {
	return tx.winMap(w, m, nil)
}

// winMap writes the map with the cell of the cursor, if any, marked: a
// "<" after its digit (and reversed colours).
func (tx Text) winMap(w io.Writer, m *WinMap, cur *Cursor) error {
	w = tx.out(w)
	styles := make([]lipgloss.Style, len(WinPalette))
	for c, hex := range WinPalette {
		fg := "#000000"
		if darkClass(c) {
			fg = "#ffffff"
		}
		styles[c] = lipgloss.NewStyle().Background(lipgloss.Color(hex)).Foreground(lipgloss.Color(fg))
	}
	var b strings.Builder
	c := tx.c()
	b.WriteString(tx.wrap(c.Msg("cli.explore.winTitle", "rules", m.Rules, "target", m.Target), 2))
	b.WriteString(tx.wrap(c.Msg("cli.explore.winAxes", "step", m.Step, "lo", c.Dec(0.7, 2), "hi", c.Dec(0.8, 2)), 2))
	b.WriteString(axisLabels(m.Scores, 7, 2))
	for i := len(m.Scores) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%6d ", m.Scores[i])
		for j, p := range m.Win[i] {
			c := WinClass(p)
			if cur != nil && cur.Me == i && cur.Them == j {
				b.WriteString(styles[c].Reverse(true).Bold(true).Render(fmt.Sprintf("%d<", c)))
				continue
			}
			b.WriteString(styles[c].Render(fmt.Sprintf("%d ", c)))
		}
		b.WriteString("\n")
	}
	b.WriteString(tx.wrap(c.Msg("cli.explore.first", "p", c.Dec(m.FirstPlayer, 4), "comp", compText(c, m.Fair, m.FairWin)), 2))
	_, err := io.WriteString(w, b.String())
	return err
}

// axisLabels writes the column labels of a grid (every fifth value) after
// indent spaces, cells width wide.
func axisLabels(vals []int, indent, width int) string {
	line := []byte(strings.Repeat(" ", indent+len(vals)*width+6))
	for i := 0; i < len(vals); i += 5 {
		copy(line[indent+i*width:], fmt.Sprint(vals[i]))
	}
	return strings.TrimRight(string(line), " ") + "\n"
}

// compText writes a fair compensation for people.
func compText(c *lang.Catalogue, points int, p float64) string {
	switch {
	case points > 0:
		return c.Msg("cli.explore.compOther", "n", points, "p", c.Dec(p, 4))
	case points < 0:
		return c.Msg("cli.explore.compMover", "n", -points, "p", c.Dec(p, 4))
	}
	return c.Msg("cli.explore.compNone", "p", c.Dec(p, 4))
}

// Cell writes one cell of the map exactly: the terminal's answer to
// hovering over it.
func (tx Text) Cell(w io.Writer, m *WinMap, me, them int, p float64, comp int, compP float64) error {
	c := tx.c()
	_, err := io.WriteString(w, tx.wrap(c.Msg("cli.explore.cell", "me", me, "them", them, "rules", m.Rules, "p", c.Dec(p, 6), "comp", compText(c, comp, compP)), 2))
	return err
}

// The characters of the turn map's decisions.
var decisionChar = map[string]string{Bank: "B", Throw: "t", OnlyBank: "b", OnlyThrow: "-", None: "."}

// TurnMap writes the turn map: dice to throw down (6 at the top), turn
// totals across; B bank, t throw on, b banking is all that is allowed,
// - throwing is all that is allowed, . neither.
func (tx Text) TurnMap(w io.Writer, m *TurnMap) error {
	w = tx.out(w)
	colors := map[string]string{Bank: BankColor, Throw: ThrowColor, OnlyBank: OtherColor, OnlyThrow: OtherColor, None: OtherColor}
	var b strings.Builder
	c := tx.c()
	b.WriteString(tx.wrap(c.Msg("cli.explore.turnTitle", "me", m.Me, "them", m.Them, "rules", m.Rules), 2))
	b.WriteString(tx.wrap(c.Msg("cli.explore.turnAxes", "step", m.Totals[0]), 2))
	b.WriteString(axisLabels(m.Totals, 7, 1))
	for d := len(m.Dice) - 1; d >= 0; d-- {
		fmt.Fprintf(&b, "%5d  ", m.Dice[d])
		for _, c := range m.Cells[d] {
			st := lipgloss.NewStyle().Background(lipgloss.Color(colors[c.Decision])).Foreground(lipgloss.Color("#000000"))
			b.WriteString(st.Render(decisionChar[c.Decision]))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Thresholds writes the solo thresholds and, when d is not nil, the duel's
// against the other's score, each a heading and a table of at most Width
// columns.
func (tx Text) Thresholds(w io.Writer, s *SoloThresholds, d *DuelThresholds) error {
	c := tx.c()
	var b strings.Builder
	b.WriteString(tx.wrap(c.Msg("cli.explore.soloHead", "rules", s.Rules, "points", c.Dec(s.ExpectedTurn, 1)), 2))
	t := table{diceHeads(c, "", s.Dice)}
	for streak, row := range s.BankAt {
		t = append(t, append([]string{streakLabel(c, streak, s.Penalty.Count)}, rowText(c, row)...))
	}
	for streak, row := range s.Entry {
		t = append(t, append([]string{c.Msg("cli.explore.entry", "min", s.EntryMinimum, "streak", streakLabel(c, streak, s.Penalty.Count))}, rowText(c, row)...))
	}
	t.write(&b, tx.width())
	if d != nil {
		b.WriteString("\n")
		b.WriteString(tx.wrap(c.Msg("cli.explore.duelHead", "me", d.Me), 2))
		t := table{diceHeads(c, c.Msg("cli.explore.theirScore"), d.Dice)}
		for k, o := range d.Them {
			row := []string{c.Num(int64(o))}
			for di := range d.Dice {
				v := thresholdText(c, d.BankAt[di][k])
				if dev, ok := d.Deviation(di, k); ok && dev != 0 {
					sign := ""
					if dev > 0 {
						sign = "+"
					}
					v += " (" + sign + c.Num(int64(dev)) + ")"
				}
				row = append(row, v)
			}
			t = append(t, row)
		}
		t.write(&b, tx.width())
		b.WriteString(tx.wrap(c.Msg("cli.explore.brackets"), 1))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// diceHeads is the heading row of a table by dice: label, then "1 die",
// "2 dice" and so on.
func diceHeads(c *lang.Catalogue, label string, dice []int) []string {
	row := []string{label}
	for _, n := range dice {
		row = append(row, c.Msg("cli.explore.dice", "n", n))
	}
	return row
}

func streakLabel(c *lang.Catalogue, streak, count int) string {
	if count == 0 {
		return c.Msg("cli.solve.onBoard")
	}
	return c.Msg("cli.explore.streak", "n", streak)
}

func rowText(c *lang.Catalogue, row []int) []string {
	var cells []string
	for _, v := range row {
		cells = append(cells, thresholdText(c, v))
	}
	return cells
}

// Inspection writes every choice of a position, best first, as bars, and
// the bots' picks.
func (tx Text) Inspection(w io.Writer, in *Inspection) error {
	w = tx.out(w)
	bar := lipgloss.NewStyle().Foreground(lipgloss.Color(BankColor))
	var b strings.Builder
	p := in.Position
	c := tx.c()
	head := c.Msg("cli.explore.position", "rules", in.Rules, "me", p.Me, "them", p.Them, "turn", p.Total, "n", p.Dice)
	if p.Throw != 0 {
		head += c.Msg("cli.explore.throw", "dice", p.Throw.String())
	}
	b.WriteString(tx.wrap(head+c.Msg("cli.explore.values", "measure", in.Measure.Text(c)), 2))
	if in.Note != "" {
		b.WriteString(tx.wrap(in.Note, 2))
	}
	hi := 0.0
	for _, o := range in.Options {
		hi = max(hi, o.Value)
	}
	texts := make([]string, len(in.Options))
	textWidth := 28
	for i, o := range in.Options {
		texts[i] = c.Words("cli.act.", o.Text, nil)
		if o.Then != "" {
			texts[i] += ", " + c.Words("cli.act.", "then "+o.Then, nil)
		}
		textWidth = max(textWidth, ansi.StringWidth(texts[i]))
	}
	textWidth = min(textWidth, tx.width()/2)
	bars := max(5, tx.width()-textWidth-12) // the longest bar, after the text and the value
	for i, o := range in.Options {
		n := 0
		if hi > 0 {
			n = int(o.Value / hi * float64(bars))
		}
		fmt.Fprintf(&b, "%s %10s %s\n", pad(texts[i], textWidth, false), c.Dec(o.Value, 4), bar.Render(strings.Repeat("#", max(n, 0))))
	}
	for _, pk := range in.Bots {
		then := ""
		if pk.Then != "" {
			then = ", " + c.Words("cli.act.", "then "+pk.Then, nil)
		}
		b.WriteString(tx.wrap(fmt.Sprintf("%-9s %s%s", pk.Level+":", c.Words("cli.act.", pk.Choice, nil), then), 10))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Compare writes the rule sets side by side, in at most Width columns.
func (tx Text) Compare(w io.Writer, stats []RuleStats) error {
	c := tx.c()
	t := table{{""}}
	for _, s := range stats {
		t[0] = append(t[0], s.Name)
	}
	row := func(label string, f func(s RuleStats) string) {
		r := []string{label}
		for _, s := range stats {
			r = append(r, f(s))
		}
		t = append(t, r)
	}
	for i := range stats[0].Dice {
		row(c.Msg("cli.explore.cmp.pFarkle", "n", i+1), func(s RuleStats) string { return c.Dec(s.PFarkle[i], 4) })
	}
	for i := range stats[0].Dice {
		row(c.Msg("cli.explore.cmp.expected", "n", i+1), func(s RuleStats) string { return c.Dec(s.Expected[i], 1) })
	}
	row(c.Msg("cli.explore.cmp.perTurn"), func(s RuleStats) string { return c.Dec(s.PointsPerTurn, 1) })
	for i := range stats[0].Dice {
		row(c.Msg("cli.explore.cmp.bankFrom", "n", i+1), func(s RuleStats) string { return thresholdText(c, s.BankAt[i]) })
	}
	row(c.Msg("cli.explore.cmp.first"), func(s RuleStats) string {
		if !s.Duel {
			return "-"
		}
		return c.Dec(s.FirstPlayer, 4)
	})
	row(c.Msg("cli.explore.cmp.fair"), func(s RuleStats) string {
		if !s.Duel {
			return "-"
		}
		return c.Num(int64(s.Fair))
	})
	row(c.Msg("cli.explore.cmp.turns"), func(s RuleStats) string {
		if s.Games == 0 {
			return "-"
		}
		return c.Dec(s.MeanTurns, 2)
	})
	var b strings.Builder
	t.write(&b, tx.width())
	for _, s := range stats {
		if s.DuelNote != "" {
			b.WriteString(tx.wrap(c.Msg("cli.explore.cmp.noDuel", "name", s.Name, "why", s.DuelNote), 2))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Published writes the published results beside this project's values.
func (tx Text) Published(w io.Writer, res []Result) error {
	var b strings.Builder
	field := func(name, text string) {
		if text != "" {
			b.WriteString(tx.wrap(fmt.Sprintf("  %-10s %s", name+":", text), 13))
		}
	}
	for _, r := range res {
		b.WriteString(tx.wrap(r.Claim, 2))
		field("source", r.Source)
		field("rules", r.Rules)
		field("published", r.Published)
		field("farkle", r.Ours)
		field("agrees", r.Agrees)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// NoDuel says why there is no two-player table, the solo thresholds
// being all there is.
func (tx Text) NoDuel(w io.Writer, why string) error {
	_, err := io.WriteString(w, tx.wrap(tx.c().Msg("cli.explore.noDuel", "why", why), 2))
	return err
}
