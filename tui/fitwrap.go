package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wrapStyled breaks s, which may hold colour codes, into lines of at most
// width columns at spaces, measured as the terminal shows them; lines
// after the first start with indent. A status line wraps so that no word
// of it is cut at the window's edge.
func wrapStyled(s string, width int, indent string) []string {
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, w := range strings.Split(s, " ") {
		switch {
		case line == "" || strings.TrimSpace(ansi.Strip(line)) == "":
			line += w
		case ansi.StringWidth(line)+1+ansi.StringWidth(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = indent + w
		}
	}
	return append(lines, line)
}

// joinFitting joins parts with sep, leaving out the parts of least
// weight (the lowest drop value, the last of equal ones) until the line
// fits width columns after a prefix of prefixW columns.
func joinFitting(parts []string, drop []int, sep string, prefixW, width int) string {
	parts, drop = append([]string(nil), parts...), append([]int(nil), drop...)
	for len(parts) > 1 && prefixW+ansi.StringWidth(strings.Join(parts, sep)) > width {
		least := len(parts) - 1
		for i := len(parts) - 1; i >= 0; i-- {
			if drop[i] < drop[least] {
				least = i
			}
		}
		parts = append(parts[:least], parts[least+1:]...)
		drop = append(drop[:least], drop[least+1:]...)
	}
	return strings.Join(parts, sep)
}

// wrapKeys breaks a line of keys ("q back to the lobby · ? help") into
// lines of at most width columns between its parts, so that a key stays
// with its words (a broken line ends with "·" where it fits); a part
// wider than a line is wrapped on its own.
func wrapKeys(s string, width int) []string {
	var lines []string
	line := ""
	for _, part := range strings.Split(s, " · ") {
		switch {
		case line == "":
			line = part
		case ansi.StringWidth(line+" · "+part) <= width:
			line += " · " + part
		default:
			if ansi.StringWidth(line+" ·") <= width {
				line += " ·" // the line of keys goes on below
			}
			lines = append(lines, line)
			line = part
		}
		if ansi.StringWidth(line) > width {
			w := wrap(line, width, "")
			lines, line = append(lines, w[:len(w)-1]...), w[len(w)-1]
		}
	}
	return append(lines, line)
}
