package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// The sizes every screen must fit: the smallest supported, the classic
// terminal and a large one.
var fitSizes = [][2]int{{60, 20}, {80, 24}, {120, 40}}

// cutLines returns the lines of a drawn screen that fit had to cut (they
// end in "…" where a word was cut), or that are wider than width.
func cutLines(screen string, width int) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.HasSuffix(strings.TrimRight(l, " "), "…") || ansi.StringWidth(l) > width {
			out = append(out, l)
		}
	}
	return out
}

// checkScreen fails t when a line of the screen m draws is cut.
func checkScreen(t *testing.T, m tea.Model, w, h int, what string) {
	t.Helper()
	screen := drawn(m)
	if cut := cutLines(screen, w); len(cut) > 0 {
		t.Errorf("%d×%d %s: %d lines cut: %q\n%s", w, h, what, len(cut), cut, ansi.Strip(screen))
	}
	if testing.Verbose() {
		t.Logf("%d×%d %s:\n%s", w, h, what, ansi.Strip(screen))
	}
}

// TestDragonScreensFit: the Dragon Farkle table with four players (the
// turn's start, a throw, each with the hint), its help, the cards page,
// the Final Battle and the end fit 60×20, 80×24 and 120×40 in English
// and Norwegian: no line is cut.
func TestDragonScreensFit(t *testing.T) {
	players := "you,bot:smart,bot:smart,bot:smart"
	seed := dragonSeed(t, "fit", players, func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && firstKeepAction(v).Kind == dragon.ActKeep
	})
	for _, lc := range []*lang.Catalogue{nil, norwegian()} {
		for _, size := range fitSizes {
			w, h := size[0], size[1]
			name := fmt.Sprintf("%s %dx%d", orEnglish(lc).Code, w, h)
			t.Run(name, func(t *testing.T) {
				newModel := func(g *DragonGame) *DragonModel {
					m := NewDragon(DragonOptions{Game: g, Lang: lc})
					m.Update(tea.WindowSizeMsg{Width: w, Height: h})
					run(m, m.Init())
					return m
				}
				m := newModel(newDragonGame(t, players, seed, ""))
				checkScreen(t, m, w, h, "turn's start")
				press(m, "h")
				checkScreen(t, m, w, h, "turn's start, hint")
				press(m, "h", "r")
				checkScreen(t, m, w, h, "a throw")
				press(m, "h")
				checkScreen(t, m, w, h, "a throw, hint")
				press(m, "h", "t")
				checkScreen(t, m, w, h, "the cards")
				press(m, "t", "?")
				checkScreen(t, m, w, h, "help")

				b := newModel(battleGame(t, "you,bot:smart"))
				press(b, "f")
				checkScreen(t, b, w, h, "the Final Battle")
				press(b, "h")
				checkScreen(t, b, w, h, "the Final Battle, hint")

				over := newDragonGame(t, players, seed, "")
				over.setState(func(s *dragon.State) {
					s.Phase, s.Winners = dragon.PhaseOver, []int{0}
				})
				checkScreen(t, newModel(over), w, h, "the end")
			})
		}
	}
}
