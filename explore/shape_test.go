package explore

import (
	"testing"

	"github.com/farkle/farkle/rules"
)

// TestShapeOf: the shape told before a table is ready is that of the
// maps drawn from it, for every number of cells a page may ask for and
// turn maps of several steps, on rules of unit 50 with six dice and of
// unit 100 with five.
func TestShapeOf(t *testing.T) {
	other := small("classic", 2000, true)
	other.Dice = 5
	other.Scoring.Single["5"] = 100
	for _, r := range []rules.Rules{small("classic", 2000, true), small("cardgames", 3000, false), other} {
		tb := duel(t, r)
		for cells := 2; cells <= 60; cells++ {
			m, err := NewWinMap(tb, cells)
			if err != nil {
				t.Fatal(err)
			}
			for _, turn := range [][2]int{{3000, tb.Unit()}, {3000, 100}, {1000, 300}, {0, 100}} {
				if turn[1]%tb.Unit() != 0 {
					continue
				}
				tm, err := NewTurnMap(tb, 0, 0, turn[0], turn[1])
				if err != nil {
					t.Fatal(err)
				}
				want := MapShape{WinScores: len(m.Scores), TurnTotals: len(tm.Totals), Dice: len(tm.Dice)}
				if got := ShapeOf(r.Game.Target, tb.Unit(), r.Dice, cells, turn[0], turn[1]); got != want {
					t.Fatalf("%s, %d cells, turn map to %d by %d: shape %+v, the maps %+v", r.Name, cells, turn[0], turn[1], got, want)
				}
			}
		}
	}
}
