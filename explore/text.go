package explore

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// Text writes the explorer's data for a terminal. With Color the cells
// are coloured (256 colours); without (NO_COLOR, or output that is not a
// terminal) the same cells are plain characters.
type Text struct {
	Color bool
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
	fmt.Fprintf(&b, "P(the player to move wins) at the start of a turn, %s (target %d)\n", m.Rules, m.Target)
	fmt.Fprintf(&b, "rows: my score; columns: their score, every %d points; cell: tenths of P (7 = 0.70 to 0.80)\n", m.Step)
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
	fmt.Fprintf(&b, "first player wins %.4f from 0-0; fair compensation %s\n", m.FirstPlayer, compText(m.Fair, m.FairWin))
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
func compText(points int, p float64) string {
	switch {
	case points > 0:
		return fmt.Sprintf("%d points to the other player (then P %.4f)", points, p)
	case points < 0:
		return fmt.Sprintf("%d points to the player to move (then P %.4f)", -points, p)
	}
	return fmt.Sprintf("none (P %.4f)", p)
}

// Cell writes one cell of the map exactly: the terminal's answer to
// hovering over it.
func (tx Text) Cell(w io.Writer, m *WinMap, me, them int, p float64, comp int, compP float64) error {
	_, err := fmt.Fprintf(w, "at %d to %d (%s): P(win) %.6f; fair compensation %s\n", me, them, m.Rules, p, compText(comp, compP))
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
	fmt.Fprintf(&b, "the turn at %d to %d (%s): bank or throw on, after a keep\n", m.Me, m.Them, m.Rules)
	fmt.Fprintf(&b, "rows: dice to throw; columns: turn total, every %d points; B bank, t throw on, b bank only, - throw only\n", m.Totals[0])
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
// against the other's score.
func (tx Text) Thresholds(w io.Writer, s *SoloThresholds, d *DuelThresholds) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "solo optimum (%s, %.1f points a turn): bank from\t", s.Rules, s.ExpectedTurn)
	for _, n := range s.Dice {
		fmt.Fprintf(tw, "%d dice\t", n)
	}
	fmt.Fprintln(tw)
	for streak, row := range s.BankAt {
		fmt.Fprintf(tw, "%s\t", streakLabel(streak, s.Penalty.Count))
		writeRow(tw, row)
	}
	for streak, row := range s.Entry {
		fmt.Fprintf(tw, "to get on the board (%d), %s\t", s.EntryMinimum, streakLabel(streak, s.Penalty.Count))
		writeRow(tw, row)
	}
	if d != nil {
		fmt.Fprintf(tw, "\t\n")
		fmt.Fprintf(tw, "duel at my score %d: bank from (against their score)\t", d.Me)
		for _, n := range d.Dice {
			fmt.Fprintf(tw, "%d dice\t", n)
		}
		fmt.Fprintln(tw)
		for k, o := range d.Them {
			fmt.Fprintf(tw, "%d\t", o)
			for di := range d.Dice {
				v := thresholdText(d.BankAt[di][k])
				if dev, ok := d.Deviation(di, k); ok && dev != 0 {
					v += fmt.Sprintf(" (%+d)", dev)
				}
				fmt.Fprintf(tw, "%s\t", v)
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "(in brackets: the difference from the solo optimum)\t\n")
	}
	return tw.Flush()
}

func streakLabel(streak, count int) string {
	if count == 0 {
		return "on the board"
	}
	return fmt.Sprintf("after %d farkle(s) in a row", streak)
}

func writeRow(w io.Writer, row []int) {
	for _, v := range row {
		fmt.Fprintf(w, "%s\t", thresholdText(v))
	}
	fmt.Fprintln(w)
}

// Inspection writes every choice of a position, best first, as bars, and
// the bots' picks.
func (tx Text) Inspection(w io.Writer, in *Inspection) error {
	w = tx.out(w)
	bar := lipgloss.NewStyle().Foreground(lipgloss.Color(BankColor))
	var b strings.Builder
	p := in.Position
	fmt.Fprintf(&b, "%s: me %d, them %d, turn %d, %d dice", in.Rules, p.Me, p.Them, p.Total, p.Dice)
	if p.Throw != 0 {
		fmt.Fprintf(&b, ", throw %s", p.Throw)
	}
	fmt.Fprintf(&b, " (values: %s)\n", in.Measure)
	if in.Note != "" {
		fmt.Fprintf(&b, "%s\n", in.Note)
	}
	hi := 0.0
	for _, o := range in.Options {
		hi = max(hi, o.Value)
	}
	for _, o := range in.Options {
		text := o.Text
		if o.Then != "" {
			text += ", then " + o.Then
		}
		n := 0
		if hi > 0 {
			n = int(o.Value / hi * 30)
		}
		fmt.Fprintf(&b, "%-28s %10.4f %s\n", text, o.Value, bar.Render(strings.Repeat("#", max(n, 0))))
	}
	for _, pk := range in.Bots {
		then := ""
		if pk.Then != "" {
			then = ", then " + pk.Then
		}
		fmt.Fprintf(&b, "%-9s %s%s\n", pk.Level+":", pk.Choice, then)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Compare writes the rule sets side by side.
func (tx Text) Compare(w io.Writer, stats []RuleStats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, s := range stats {
		fmt.Fprintf(tw, "%s\t", s.Name)
	}
	fmt.Fprintln(tw)
	row := func(label string, f func(s RuleStats) string) {
		fmt.Fprintf(tw, "%s\t", label)
		for _, s := range stats {
			fmt.Fprintf(tw, "%s\t", f(s))
		}
		fmt.Fprintln(tw)
	}
	for i := range stats[0].Dice {
		row(fmt.Sprintf("P(farkle), %d dice", i+1), func(s RuleStats) string { return fmt.Sprintf("%.4f", s.PFarkle[i]) })
	}
	for i := range stats[0].Dice {
		row(fmt.Sprintf("points of a throw, %d dice", i+1), func(s RuleStats) string { return fmt.Sprintf("%.1f", s.Expected[i]) })
	}
	row("points per turn (solo optimum)", func(s RuleStats) string { return fmt.Sprintf("%.1f", s.PointsPerTurn) })
	for i := range stats[0].Dice {
		row(fmt.Sprintf("bank from, %d dice", i+1), func(s RuleStats) string { return thresholdText(s.BankAt[i]) })
	}
	row("P(first player wins)", func(s RuleStats) string {
		if !s.Duel {
			return "-"
		}
		return fmt.Sprintf("%.4f", s.FirstPlayer)
	})
	row("fair compensation", func(s RuleStats) string {
		if !s.Duel {
			return "-"
		}
		return fmt.Sprint(s.Fair)
	})
	row("turns a game (expert vs expert)", func(s RuleStats) string {
		if s.Games == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", s.MeanTurns)
	})
	for _, s := range stats {
		if s.DuelNote != "" {
			fmt.Fprintf(tw, "%s: no duel figures: %s\t\n", s.Name, s.DuelNote)
		}
	}
	return tw.Flush()
}

// Published writes the published results beside this project's values.
func (tx Text) Published(w io.Writer, res []Result) error {
	var b strings.Builder
	for _, r := range res {
		fmt.Fprintf(&b, "%s\n  source:    %s\n  rules:     %s\n", r.Claim, r.Source, r.Rules)
		if r.Published != "" {
			fmt.Fprintf(&b, "  published: %s\n", r.Published)
		}
		fmt.Fprintf(&b, "  farkle:    %s\n", r.Ours)
		if r.Agrees != "" {
			fmt.Fprintf(&b, "  agrees:    %s\n", r.Agrees)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
