package tui

import (
	"strings"
	"testing"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// TestPointsAdvisorFarkleChance: the hint before a throw gives the chance
// to farkle. Classic scores only 1s, 5s and triples, so six dice farkle
// when they show only 2, 3, 4 and 6 with no face three times: counts
// 2-2-2-0 (4 ways to pick the absent face, 6!/(2!2!2!) orders) or 2-2-1-1
// (6 ways, 6!/(2!2!) orders), 1440 of 46656 throws, 0.03. Where
// six_dice_nothing pays a bonus those throws score it: no six-dice throw
// is a farkle.
func TestPointsAdvisorFarkleChance(t *testing.T) {
	for bonus, want := range map[int]string{0: "6 dice: P(farkle) 0.03,", 500: "6 dice: P(farkle) 0.00,"} {
		r := rules.MustPreset("classic")
		r.Scoring.SixDiceNothing = bonus
		r.Game.FirstPlayer = rules.SeatOrder
		s, err := engine.New(r, []string{"ana"})
		if err != nil {
			t.Fatal(err)
		}
		adv, err := PointsAdvisor{}.Advise(s)
		if err != nil {
			t.Fatal(err)
		}
		var note string
		for _, c := range adv.Choices {
			if c.Then == engine.Throw {
				note = c.Note
			}
		}
		if !strings.HasPrefix(note, want) {
			t.Errorf("six_dice_nothing %d: the throw's note is %q, want it to start %q", bonus, note, want)
		}
	}
}
