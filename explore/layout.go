package explore

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is the most columns a line of the explorer's text takes: an
// 80-column terminal's.
const Width = 80

// wrap breaks s into lines of at most Width columns: wrapAt Width.
func wrap(s string, indent int) string { return wrapAt(s, Width, indent) }

// wrapAt breaks s into lines of at most width columns at its spaces (and
// inside a word only when the word alone is wider), the lines after the
// first indented by indent spaces. The result ends in a newline.
func wrapAt(s string, width, indent int) string {
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if indent > 0 && len(lines) > 1 {
		rest := strings.Join(lines[1:], " ")
		lines = append(lines[:1], strings.Split(ansi.Wrap(rest, width-indent, ""), "\n")...)
		for i := 1; i < len(lines); i++ {
			lines[i] = strings.Repeat(" ", indent) + lines[i]
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// table is a grid of text: a label column and value columns, each row's
// cells in that order, the first row the heading.
type table [][]string

// write lays t out in at most width columns: the labels left-aligned, the
// values right-aligned two spaces apart. When the values do not fit
// beside the labels they go in blocks of consecutive columns, as few as
// fit, as even as can be, each block a table of its own under the one
// before, its labels repeated. A value too wide for any block is cut
// short with "…".
func (t table) write(b *strings.Builder, width int) {
	if len(t) == 0 {
		return
	}
	n := 0
	for _, row := range t {
		n = max(n, len(row))
	}
	widths := make([]int, n)
	for _, row := range t {
		for i, cell := range row {
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	label := min(widths[0], width/2)
	room := width - label // for the values, each after two spaces
	for i := 1; i < n; i++ {
		widths[i] = min(widths[i], room-2)
	}
	fits := func(cols []int) bool {
		w := 0
		for _, c := range cols {
			w += 2 + widths[c]
		}
		return w <= room
	}
	var blocks [][]int
	for k := 1; k < n; k++ { // k blocks of per columns each
		per := (n - 1 + k - 1) / k
		blocks = blocks[:0]
		ok := true
		for c := 1; c < n; c += per {
			var cols []int
			for j := c; j < min(n, c+per); j++ {
				cols = append(cols, j)
			}
			blocks = append(blocks, cols)
			ok = ok && fits(cols)
		}
		if ok {
			break
		}
	}
	if n == 1 {
		blocks = [][]int{nil}
	}
	for bi, cols := range blocks {
		if bi > 0 {
			b.WriteString("\n")
		}
		for _, row := range t {
			var line strings.Builder
			line.WriteString(pad(cell(row, 0), label, false))
			for _, c := range cols {
				line.WriteString("  ")
				line.WriteString(pad(cell(row, c), widths[c], true))
			}
			b.WriteString(strings.TrimRight(line.String(), " "))
			b.WriteString("\n")
		}
	}
}

// cell is row's cell i, or "" when the row is shorter.
func cell(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

// pad fits s to width columns: cut short with "…" when wider, else
// padded with spaces on the left (right) or the right.
func pad(s string, width int, right bool) string {
	if ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, "…")
	}
	fill := strings.Repeat(" ", width-ansi.StringWidth(s))
	if right {
		return fill + s
	}
	return s + fill
}
