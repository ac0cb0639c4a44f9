package main

import (
	"regexp"
	"strings"
)

// helpWidth is the width the help texts (-h, farkle help) fit: a
// terminal's 80 columns.
const helpWidth = 80

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
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		cur, cont := strings.Repeat(" ", indent), indent
		if m := listItem.FindStringSubmatch(line); m != nil && len(m[1]) < width/2 {
			cur, cont, body = m[1], len(m[1]), line[len(m[1]):] // the item's name and its gap stay
		}
		n := len([]rune(cur))
		var words []string
		for _, w := range strings.Fields(body) {
			if len([]rune(w)) > width-cont { // a long example (JSON): it may break after its commas
				w = strings.ReplaceAll(w, ",", ", ")
			}
			words = append(words, strings.Fields(w)...)
		}
		for i, w := range words {
			wl := len([]rune(w))
			if i > 0 && n+1+wl > width {
				out = append(out, cur)
				cur, n = strings.Repeat(" ", cont)+w, cont+wl
				continue
			}
			if n > len(strings.TrimRight(cur, " ")) || cur == "" {
				// at the start of the line (after its indent or gap)
			} else {
				cur += " "
				n++
			}
			cur += w
			n += wl
		}
		if i+1 < len(lines) && goesOn(untab(lines[i+1]), cont) {
			lines[i+1] = cur + " " + strings.TrimLeft(untab(lines[i+1]), " ")
			continue
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// untab is a line of help with its tabs as the columns they move to
// (flag.PrintDefaults indents a flag's description by "    \t").
func untab(line string) string {
	line = strings.Replace(line, "    \t", "        ", 1)
	return strings.ReplaceAll(line, "\t", "    ")
}

// goesOn reports whether next goes on the paragraph of a line whose
// continuation is indented by indent: it is as indented and starts
// neither a list's item nor a flag ("- ", "-json").
func goesOn(next string, indent int) bool {
	body := strings.TrimLeft(next, " ")
	return body != "" && len(next)-len(body) == indent && !strings.HasPrefix(body, "-")
}
