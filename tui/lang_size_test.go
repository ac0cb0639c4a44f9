package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// The Norwegian screens fit the terminal: at 100×35, 80×24 and 60×20 no
// line of the setup screen, the table (throw, choice, hint, farkle, final
// round, game over, messages) or the help screen is wider than the window,
// the table's lines all fit in its height, and the keys at the bottom are
// on screen whole. The screens are drawn by a real program (teatest) and
// read before fit cuts them, so that nothing is hidden by the cut.

var norwegianSizes = [][2]int{{100, 35}, {80, 24}, {60, 20}}

// sizeStep is a key to send, the text to wait for, and whether to check
// the screen then.
type sizeStep struct {
	key, waitFor string
}

// rawScreen is the screen m draws before it is cut to the window.
func rawScreen(m *Model) string {
	switch m.screen {
	case screenSetup:
		return m.setup.view(m.st, m.width, m.height)
	case screenHelp:
		return strings.Join(m.helpLines(), "\n")
	}
	return m.tableLayout().String()
}

// checkFits checks the screen of m, drawn w×h; what names the state.
func checkFits(t *testing.T, m *Model, w, h int, what string) {
	t.Helper()
	raw := rawScreen(m)
	lines := strings.Split(raw, "\n")
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%d×%d %s: line %d is %d columns wide:\n%s", w, h, what, i+1, lw, ansi.Strip(l))
		}
	}
	if m.screen == screenTable || m.screen == screenSetup {
		if len(lines) > h {
			t.Errorf("%d×%d %s: %d lines in a window of %d:\n%s", w, h, what, len(lines), h, ansi.Strip(raw))
		}
	}
	if m.screen == screenTable {
		bar := ansi.Strip(m.tableLayout().lines[m.tableLayout().bar[len(m.tableLayout().bar)-1].line])
		if !strings.Contains(ansi.Strip(fit(raw, w, h)), bar) {
			t.Errorf("%d×%d %s: the keys %q are not on screen whole", w, h, what, bar)
		}
	}
	if testing.Verbose() {
		t.Logf("%d×%d %s:\n%s", w, h, what, ansi.Strip(fit(raw, w, h)))
	}
}

// playSized runs m at w×h in a program, plays the steps and checks the
// screen after each.
func playSized(t *testing.T, m *Model, w, h int, name string, steps ...sizeStep) {
	t.Helper()
	tm := teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(w, h))
	for i, st := range steps {
		for _, msg := range keyMsgs(st.key) {
			tm.Send(msg)
		}
		if st.waitFor != "" {
			waitScreen(t, tm, st.waitFor)
		}
		done := make(chan struct{})
		tm.Send(lookMsg(func() {
			checkFits(t, m, w, h, fmt.Sprintf("%s, step %d (%q)", name, i, st.key))
			close(done)
		}))
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the program did not look")
		}
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// nearEnd returns a game of three (a person, then two bots) played by a
// fixed simple strategy until stop says so.
func nearEnd(t *testing.T, stop func(engine.State) bool) *Game {
	t.Helper()
	r := seatOrder("classic")
	r.Game.Target = 2000
	g, err := NewGame(r, []Seat{{Name: "du"}, {Name: "Kari"}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom("near-end"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() && !stop(g.State()) {
		if _, err := g.Do(simpleAction(g.State())); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestNorwegianScreensFit(t *testing.T) {
	nb := norwegian()
	for _, size := range norwegianSizes {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := plainModel(t, Options{Lang: nb, Rules: rules.MustPreset("farkle-dice"), BotDelay: 700 * time.Millisecond})
			playSized(t, m, w, h, "setup",
				sizeStep{"", "Farkle: nytt spill"},
				sizeStep{"down", "▶ Spillere"}, sizeStep{"right", "◀ 3 ▶"},
				sizeStep{"down", "▶ Plass 1"}, sizeStep{"down", "▶ Plass 2"}, sizeStep{"down", "▶ Plass 3"},
				// Every bot level's description, the perfect bot's among them.
				sizeStep{"right", ""}, sizeStep{"right", ""}, sizeStep{"right", ""},
				sizeStep{"right", ""}, sizeStep{"right", ""}, sizeStep{"right", ""},
				sizeStep{"down", "▶ Botene"},
				sizeStep{"?", "Taster"})

			seed := seedWhere(t, "golden-table", loneTwo)
			faces := dice.Throw(dice.NewSource(seed), 6).Faces()
			one := faceKeys(t, faces, dice.Of(1))[0]
			two := faceKeys(t, faces, dice.Of(2))[0]
			m = plainModel(t, Options{Lang: nb, Rules: seatOrder("farkle-dice"), Seats: []Seat{{Name: "du"}, {Name: "Kari"}, {Name: "steady", Bot: "steady"}}, Seed: seed})
			playSized(t, m, w, h, "table",
				sizeStep{"", "trykk r for å kaste"},
				sizeStep{"r", "velg terninger"},
				sizeStep{"h", "tips: poeng nå"},
				sizeStep{one, "+100"},
				sizeStep{two, "valgt 1 2:"},
				sizeStep{"u", "valgt 1:"},
				sizeStep{"m", "mus av"}, sizeStep{"m", "mus på"},
				sizeStep{"+", "raskere"},
				sizeStep{"x", "gjør ingenting her"},
				sizeStep{"q", "Avslutte?"}, sizeStep{"n", ""},
				sizeStep{"r", "beholdt denne turen: [1]"},
				sizeStep{"?", "Taster"})

			tab := dice.NewTable(seatOrder("classic"))
			fseed := seedWhere(t, "golden-farkle", tab.Farkle)
			m = plainModel(t, Options{Lang: nb, Rules: seatOrder("classic"), Seats: []Seat{{Name: "Kari"}, {Name: "du"}}, Seed: fseed})
			playSized(t, m, w, h, "farkle", sizeStep{"", "trykk r"}, sizeStep{"r", "FARKLE!"})

			final := nearEnd(t, func(s engine.State) bool { return s.FinalRound && s.Current == 1 && s.Step == engine.StepKeep })
			m = plainModel(t, Options{Lang: nb, Game: final})
			playSized(t, m, w, h, "final round", sizeStep{"", "Siste runde"}, sizeStep{"h", "tips:"})

			over := nearEnd(t, func(engine.State) bool { return false })
			m = plainModel(t, Options{Lang: nb, Game: over})
			playSized(t, m, w, h, "game over", sizeStep{"", "Spillet er over"}, sizeStep{"x", "spillet er over: p"})
		})
	}
}
