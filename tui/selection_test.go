package tui

import (
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// TestChooseFaceEveryThrow: over every throw of 1 to 6 dice and every
// face, pressing the face k times chooses min(k, count) dice showing it
// and nothing else, and the press after all of them are chosen unchooses
// them all; a face the throw lacks changes nothing and says so.
func TestChooseFaceEveryThrow(t *testing.T) {
	for _, h := range dice.AllThrows() {
		for f := 1; f <= 6; f++ {
			d := diceSelection{faces: h.Faces(), sel: make([]bool, h.N())}
			c := h.Count(f)
			if c == 0 {
				if why := d.chooseFace(f); why == "" || d.selected() != 0 {
					t.Fatalf("%v: pressing %d (no such die) chose %v, said %q", h, f, d.selected(), why)
				}
				continue
			}
			for k := 1; k <= c; k++ {
				if why := d.chooseFace(f); why != "" {
					t.Fatalf("%v: press %d of %d refused: %s", h, k, f, why)
				}
				if want := dice.Single(f, k); d.selected() != want {
					t.Fatalf("%v: %d presses of %d chose %v, want %v", h, k, f, d.selected(), want)
				}
				if d.faces[d.cursor] != f {
					t.Fatalf("%v: the cursor is on a %d after pressing %d", h, d.faces[d.cursor], f)
				}
			}
			d.chooseFace(f)
			if d.selected() != 0 {
				t.Fatalf("%v: pressing %d with all of them chosen left %v", h, f, d.selected())
			}
			d.undoChoice()
			if d.selected() != dice.Single(f, c) {
				t.Fatalf("%v: undo after unchoosing the %ds gave %v", h, f, d.selected())
			}
		}
	}
}

// TestHintKeysChooseTheHint: the hint names keeps by their faces, and
// typing the digits of a hint's "keep" chooses exactly those dice, for
// every choice of the hint on many throws.
func TestHintKeysChooseTheHint(t *testing.T) {
	r := seatOrder("classic")
	for seed := range 40 {
		m := newModel(t, r, []Seat{{Name: "ana"}}, dice.SeedFrom(string(rune('a'+seed%26))+strings.Repeat("x", seed/26)), 100, 35)
		press(m, "r")
		if m.game.State().Step != engine.StepKeep {
			continue // a farkle at once
		}
		adv, err := PointsAdvisor{}.Advise(m.game.State())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range adv.Choices {
			label := strings.TrimPrefix(c.Label(), "keep ")
			for _, k := range strings.Fields(label) {
				press(m, k)
			}
			if m.selected() != c.Keep {
				t.Fatalf("throw %v: typing the hint %q chose %v", m.game.State().Throw, c.Label(), m.selected())
			}
			for m.selected() != 0 {
				press(m, "u")
			}
		}
	}
}
