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
func fitWidth(text string, width int) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.Replace(line, "    \t", "        ", 1)
		line = strings.ReplaceAll(line, "\t", "    ")
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
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
