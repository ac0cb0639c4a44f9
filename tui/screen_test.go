package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// playBestThenBank keeps the first keep of the points hint and banks, or
// throws when there is nothing to keep yet.
func playBestThenBank(t *testing.T, m *Model) {
	t.Helper()
	s := m.game.State()
	if s.Step != engine.StepKeep {
		press(m, "r")
		return
	}
	adv, err := PointsAdvisor{}.Advise(s)
	if err != nil {
		t.Fatal(err)
	}
	press(m, faceKeys(t, m.faces, adv.Choices[0].Keep)...)
	press(m, "b")
}

// TestHintKeepsTheLog: with the hint shown, the last lines of the log (the
// bot's turn just played) stay on screen under it, at every size checked.
func TestHintKeepsTheLog(t *testing.T) {
	for _, size := range [][2]int{{100, 35}, {80, 24}, {60, 20}} {
		m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom("hint-log"), size[0], size[1])
		for m.game.State().Players[1].Turns == 0 {
			playBestThenBank(t, m)
		}
		for m.game.State().Step != engine.StepKeep {
			press(m, "r")
		}
		press(m, "h")
		log := m.game.Log()
		last := log[len(log)-1]
		screen := drawn(m)
		if !strings.Contains(screen, "hint:") || !strings.Contains(screen, last) {
			t.Fatalf("%v: the hint hides the log's last line %q:\n%s", size, last, screen)
		}
		var bot string
		for _, l := range log {
			if strings.HasPrefix(l, "steady ") {
				bot = l
			}
		}
		if size[1] >= 24 && !strings.Contains(screen, bot) {
			t.Fatalf("%v: the bot's last action %q is not on screen:\n%s", size, bot, screen)
		}
	}
}

// TestSoloTurnCounter: a game of one counts its turns in the header, with
// the cap of the rules when there is one.
func TestSoloTurnCounter(t *testing.T) {
	for _, cap := range []int{0, 20} {
		r := seatOrder("classic")
		r.Game.MaxTurns = cap
		m := newModel(t, r, []Seat{{Name: "ana"}}, dice.SeedFrom("solo-turns"), 80, 24)
		for turn := 1; turn <= 3; turn++ {
			want := fmt.Sprintf("turn %d", turn)
			if cap > 0 {
				want += " of 20"
			}
			if head := strings.Split(drawn(m), "\n")[0]; !strings.Contains(head, want+" ") && !strings.HasSuffix(strings.TrimRight(head, " "), want) {
				t.Fatalf("cap %d, turn %d: header %q", cap, turn, head)
			}
			for m.game.State().Players[0].Turns == turn {
				playBestThenBank(t, m)
			}
		}
	}
}
