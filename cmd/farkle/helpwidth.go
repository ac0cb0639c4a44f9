package main

import (
	"io"
	"math"
	"os"
	"regexp"
	"strings"

	"golang.org/x/term"
)

// helpWidth is the width the help texts (-h, farkle help) and reports fit:
// a terminal's 80 columns, or fewer in a narrower terminal (outWidth).
const helpWidth = 80

// outWidth is the width a text written to w fits: helpWidth, or w's
// terminal's width when w is a narrower terminal.
func outWidth(w io.Writer) int {
	if tw := terminalWidth(w); tw > 0 {
		return min(tw, helpWidth)
	}
	return helpWidth
}

// terminalWidth is the width of the terminal w is, 0 when w is none.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if tw, _, err := term.GetSize(int(f.Fd())); err == nil && tw > 0 {
			return tw
		}
	}
	return 0
}

// listItem matches a line of a list whose text starts after a gap: "  play
// a game…" (the command list), so that its text wraps under itself.
var listItem = regexp.MustCompile(`^(\s*\S+ {2,})\S`)

// fitWidth wraps each line of text wider than width at its spaces; a
// line's continuation is indented as the line is (flag.PrintDefaults's tab
// counting as the 8 columns it moves to), or under its text in a list.
// What a wrapped line leaves over flows into the next line when that goes
// on the same paragraph (as indented, not a list's item or a flag), so
// that no short piece is left between them ("smart). The").
func fitWidth(text string, width int) string {
	var out []string
	lines := strings.Split(text, "\n")
	for i := range lines {
		line := untab(lines[i])
		if len([]rune(line)) <= width {
			out = append(out, line)
			continue
		}
		done, cur, cont := wrapLine(line, width, listItem, true)
		out = append(out, done...)
		if i+1 < len(lines) && goesOn(untab(lines[i+1]), cont) {
			lines[i+1] = cur + " " + strings.TrimLeft(untab(lines[i+1]), " ")
			continue
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// reportItem matches a line of a report: a label of one or more words, a
// gap of two spaces or more, and the value ("final round   a player…").
var reportItem = regexp.MustCompile(`^(\s*\S+(?: \S+)* {2,})\S`)

// fitReport wraps each line of a report (farkle solve's) wider than width
// at its spaces, its value's continuation under the value: a line of a
// report is a whole, so nothing flows into the next. A word wider than
// the room under the value (a file's name) is kept whole, after the
// label or on a line of its own from the first column.
func fitReport(text string, width int) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if len([]rune(line)) <= width {
			out = append(out, line)
			continue
		}
		done, cur, _ := wrapLine(line, width, reportItem, false)
		out = append(append(out, done...), cur)
	}
	return strings.Join(out, "\n")
}

// sayFitted writes a line of a report to e's stdout, wrapped to
// reportWidth (a word too wide, a seed, kept whole).
func sayFitted(e *env, line string) {
	io.WriteString(e.stdout, fitReport(line+"\n", reportWidth(e)))
}

// termFitted is text fitted to the terminal (fitReport at reportWidth)
// where e's stdout is one; as it is where it is piped, a record's line a
// line for the scripts that read it.
func termFitted(e *env, text string) string {
	if termWidth(e) > 0 {
		return fitReport(text, reportWidth(e))
	}
	return text
}

// tableWidth is the width a table fits: reportWidth on a terminal, no
// limit where e's stdout is piped (a row a line).
func tableWidth(e *env) int {
	if termWidth(e) > 0 {
		return reportWidth(e)
	}
	return math.MaxInt
}

// reportWidth is the width a report fits: a terminal's 80 columns, or
// the terminal's own when it is narrower.
func reportWidth(e *env) int {
	w, _ := termSize(e)
	return min(w, helpWidth)
}

// wrapLine breaks line at its spaces into lines of at most width columns
// (a word wider stays whole, on a line from the first column if it is
// wider than the room under the text): done, then cur, the last, which
// is cont columns indented. The continuation is indented as the line is, or under
// its text where item matches it (its label and gap taking less than half
// the width). splitLong lets a word too wide for a line (a JSON example)
// break after its commas.
func wrapLine(line string, width int, item *regexp.Regexp, splitLong bool) (done []string, cur string, cont int) {
	body := strings.TrimLeft(line, " ")
	indent := len(line) - len(body)
	cur, cont = strings.Repeat(" ", indent), indent
	if m := item.FindStringSubmatch(line); m != nil && len([]rune(m[1])) < width/2 {
		cur, cont, body = m[1], len([]rune(m[1])), line[len(m[1]):] // the item's name and its gap stay
	}
	n := len([]rune(cur))
	var words []string
	for _, w := range strings.Fields(body) {
		if splitLong && len([]rune(w)) > width-cont { // a long example (JSON): it may break after its commas
			w = strings.ReplaceAll(w, ",", ", ")
		}
		words = append(words, strings.Fields(w)...)
	}
	for i, w := range words {
		wl := len([]rune(w))
		if i > 0 && n+1+wl > width {
			done = append(done, cur)
			ind := cont
			if wl > width-cont { // too wide under the text: flush left, where the most of it shows
				ind = 0
			}
			cur, n = strings.Repeat(" ", ind)+w, ind+wl
			continue
		}
		if n > len([]rune(strings.TrimRight(cur, " "))) || cur == "" {
			// at the start of the line (after its indent or gap)
		} else {
			cur += " "
			n++
		}
		cur += w
		n += wl
	}
	return done, cur, cont
}

// untab is a line of help with its tabs as the columns they move to
// (flag.PrintDefaults indents a flag's description by "    \t").
func untab(line string) string {
	line = strings.Replace(line, "    \t", "        ", 1)
	return strings.ReplaceAll(line, "\t", "    ")
}

// goesOn reports whether next goes on the paragraph of a line whose
// continuation is indented by indent: it is as indented and starts
// neither a list's item nor a flag ("- ", "-json": flag.PrintDefaults
// writes one dash). A line that starts with a long flag ("--json
// prints…") is the sentence going on.
func goesOn(next string, indent int) bool {
	body := strings.TrimLeft(next, " ")
	item := strings.HasPrefix(body, "-") && !strings.HasPrefix(body, "--")
	return body != "" && len(next)-len(body) == indent && !item
}

// fitTable lays out a table of right-aligned columns cols, one row of
// cells a label, in the first of three forms that fits width: each label
// before its row, right-aligned as the head is (text/tabwriter's form with
// AlignRight); each label on a line of its own above its row, the columns
// aligned under their heads (a terminal of 60 columns); or each label
// above its cells one a line, each after its column's head.
func fitTable(head string, cols, labels []string, cells [][]string, width int) string {
	colW := make([]int, len(cols))
	for j, c := range cols {
		colW[j] = len([]rune(c))
		for _, row := range cells {
			colW[j] = max(colW[j], len([]rune(row[j])))
		}
	}
	labelW := len([]rune(head))
	for _, l := range labels {
		labelW = max(labelW, len([]rune(l)))
	}
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-len([]rune(s)))) + s }
	line := func(first string, firstW int, row []string) string {
		var b strings.Builder
		b.WriteString(pad(first, firstW))
		for j, c := range row {
			b.WriteString("  " + pad(c, colW[j]))
		}
		return b.String() + "\n"
	}
	rowW := 0 // the cells of a row, each two spaces in
	for _, w := range colW {
		rowW += 2 + w
	}
	var b strings.Builder
	switch {
	case 2+labelW+rowW <= width: // the labels' column two spaces in, as text/tabwriter's padding put it
		b.WriteString(line(head, 2+labelW, cols))
		for i, l := range labels {
			b.WriteString(line(l, 2+labelW, cells[i]))
		}
	case rowW <= width:
		b.WriteString(head + "\n" + line("", 0, cols))
		for i, l := range labels {
			b.WriteString(l + "\n" + line("", 0, cells[i]))
		}
	default:
		headW := 0
		for _, c := range cols {
			headW = max(headW, len([]rune(c)))
		}
		for i, l := range labels {
			b.WriteString(l + "\n")
			for j, c := range cols {
				b.WriteString("  " + c + strings.Repeat(" ", headW-len([]rune(c))+2) + cells[i][j] + "\n")
			}
		}
	}
	return b.String()
}

// fitTabbed is fitTable of a table whose head is one text, its columns'
// names separated by tabs (a catalogue's), the first naming the labels.
func fitTabbed(head string, labels []string, cells [][]string, width int) string {
	names := strings.Split(head, "\t")
	return fitTable(names[0], names[1:], labels, cells, width)
}
