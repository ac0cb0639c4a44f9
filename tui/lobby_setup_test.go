package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/lang"
)

// TestLobbySetupFits: a new table's setup in the lobby (n) fits 60×20,
// 80×24 and 120×40 in both languages, its note under it whole; its keys
// say that esc goes back to the lobby (as it does) and ? opens the help.
// (The screen asks nothing of the server until enter.)
func TestLobbySetupFits(t *testing.T) {
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for _, size := range fitSizes {
			w, h := size[0], size[1]
			lm := NewLobby(LobbyOptions{Options: Options{Lang: c}, Server: "http://127.0.0.1:18727", Player: "Kari"}, nil)
			lm.Update(tea.WindowSizeMsg{Width: w, Height: h})
			press(lm, "n")
			checkScreen(t, lm, w, h, code+" lobby setup")
			// The words in order; a line of keys broken between two keys
			// leaves out the "·" between them (wrapKeys).
			words := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "·", " ")), " ") }
			screen := words(ansi.Strip(drawn(lm)))
			for _, want := range []string{c.Msg("tui.lobby.firstIsYou"), c.Msg("setup.keysLobby")} {
				if !strings.Contains(screen, words(want)) {
					t.Errorf("%s %d×%d: the lobby's setup does not say %q:\n%s", code, w, h, want, drawn(lm))
				}
			}
			press(lm, "?")
			if !strings.Contains(drawn(lm), c.Msg("tui.help.title")) {
				t.Errorf("%s %d×%d: ? in the lobby's setup shows no help:\n%s", code, w, h, drawn(lm))
			}
			// ↓ scrolls the help (as its title says) to its last line.
			last := lastWords(c.Msg("tui.lobby.help.tables"))
			for range 30 {
				press(lm, "down")
			}
			if help := strings.Join(strings.Fields(ansi.Strip(drawn(lm))), " "); !strings.Contains(help, last) || !strings.Contains(help, c.Msg("tui.help.title")) && h >= 40 {
				t.Errorf("%s %d×%d: ↓ does not scroll the help to %q:\n%s", code, w, h, last, drawn(lm))
			}
			press(lm, "esc") // closes the help: the setup again
			if !strings.Contains(drawn(lm), c.Msg("setup.start")) {
				t.Errorf("%s %d×%d: esc in the help does not go back to the setup:\n%s", code, w, h, drawn(lm))
			}
			lm.Update(tea.KeyPressMsg{Code: tea.KeyEscape}) // its command reads the list from the server
			if lm.setup != nil {
				t.Errorf("%s: esc in the lobby's setup did not go back to the lobby", code)
			}
		}
	}
}

// lastWords are the last three words of text.
func lastWords(text string) string {
	f := strings.Fields(text)
	return strings.Join(f[max(0, len(f)-3):], " ")
}
