package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/lang"
)

// TestWrapKeysKeepsKeysWhole: the waiting screen's and the setup's lines
// of keys, broken
// at 60, 80 and 120 columns in both languages, keeps each key with its
// words ("? help" was "?" at the end of a line and "help" on the next at
// 60 columns), loses nothing (a break takes the place of a " · ") and
// fits.
func TestWrapKeysKeepsKeysWhole(t *testing.T) {
	for _, tc := range []struct{ code, key string }{
		{"en", "tui.lobby.leaves"}, {"nb", "tui.lobby.leaves"},
		{"en", "setup.keysLobby"}, {"nb", "setup.keysLobby"}, {"en", "setup.keys"}, {"nb", "setup.keys"},
	} {
		code, s := tc.code, lang.Get(tc.code).Msg(tc.key)
		for _, w := range []int{60, 80, 120} {
			lines := wrapKeys(s, w)
			words := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "·", " ")), " ") }
			if words(strings.Join(lines, " ")) != words(s) {
				t.Fatalf("%s at %d: %q lost words of %q", code, w, lines, s)
			}
			for _, part := range strings.Split(s, " · ") {
				if ansi.StringWidth(part) > w {
					continue
				}
				whole := false
				for _, l := range lines {
					whole = whole || strings.Contains(l, part)
				}
				if !whole {
					t.Errorf("%s at %d: %q is broken across lines: %q", code, w, part, lines)
				}
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("%s at %d: %q is wider", code, w, l)
				}
			}
		}
	}
	if got := wrapKeys("a very long part that does not fit · k key", 10); len(got) < 4 || got[len(got)-1] != "k key" {
		t.Errorf("a part wider than the line: %q", got)
	}
}
