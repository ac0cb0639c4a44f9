package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// playBestThen keeps the first keep of the points hint and presses then
// (b banks, r throws on), or throws when there is nothing to keep yet.
func playBestThen(t *testing.T, m *Model, then string) {
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
	press(m, then)
}

// TestHintKeepsTheLog: with the hint shown, the last lines of the log (the
// bot's turn just played) stay on screen under it, at every size checked.
func TestHintKeepsTheLog(t *testing.T) {
	for _, size := range [][2]int{{100, 35}, {80, 24}, {60, 20}} {
		m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom("hint-log"), size[0], size[1])
		for m.game.State().Players[1].Turns == 0 {
			playBestThen(t, m, "b")
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
				playBestThen(t, m, "b")
			}
		}
	}
}

// TestFarkleStaysUntilTheNextThrow: the dead dice of a farkle stay on the
// table with a clear "FARKLE!" through any other key, until the next
// player throws.
func TestFarkleStaysUntilTheNextThrow(t *testing.T) {
	m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "bob"}}, dice.SeedFrom("farkle-moment"), 80, 24)
	for m.game.State().Players[0].Streak == 0 && m.game.State().Players[1].Streak == 0 {
		playBestThen(t, m, "r") // keep and throw on until a farkle
	}
	s := m.game.State()
	loser := 1 - s.Current
	dead := m.shown.dice
	if !m.game.State().Table().Farkle(dead) {
		t.Fatalf("the dice shown, %v, are not a farkle", dead)
	}
	for _, k := range []string{"", "h", "x", "left"} {
		if k != "" {
			press(m, k)
		}
		screen := drawn(m)
		want := "FARKLE! " + s.Players[loser].Name + " threw " + dead.String()
		if !strings.Contains(screen, want) || strings.Count(screen, "┏━━━━━┓") != dead.N() {
			t.Fatalf("after %q: no %q with %d dead dice:\n%s", k, want, dead.N(), screen)
		}
	}
	press(m, "r")
	if strings.Contains(drawn(m), "FARKLE!") {
		t.Fatalf("the farkle is still shown after the next player's throw:\n%s", drawn(m))
	}
}

// TestHotDiceIsAnnounced: keeping every die of a throw says HOT DICE on the
// table, with all the dice to throw again.
func TestHotDiceIsAnnounced(t *testing.T) {
	r := seatOrder("classic")
	tab := dice.NewTable(r)
	seed := seedWhere(t, "hot-dice", func(h dice.Hand) bool {
		for _, k := range tab.Keeps(h) {
			if k.N == 6 {
				return true
			}
		}
		return false
	})
	m := newModel(t, r, []Seat{{Name: "ana"}, {Name: "bob"}}, seed, 80, 24)
	press(m, "r")
	var all dice.Hand
	for _, k := range m.game.State().Table().Keeps(m.game.State().Throw) {
		if k.N == 6 {
			all = k.Hand
		}
	}
	press(m, faceKeys(t, m.faces, all)...)
	if strings.Contains(drawn(m), "HOT DICE") {
		t.Fatal("hot dice announced before the keep")
	}
	press(m, "r") // keep them all and throw the six again
	screen := drawn(m)
	if s := m.game.State(); s.Current != 0 || s.Throw.N() != 6 {
		t.Fatalf("after keeping every die and r: player %d with %v", s.Current, s.Throw)
	}
	if m.game.State().Step == engine.StepKeep && !strings.Contains(screen, "HOT DICE! all 6 again") {
		t.Fatalf("hot dice not announced:\n%s", screen)
	}
	if m.game.State().Step == engine.StepKeep {
		press(m, faceKeys(t, m.faces, m.game.State().Table().Keeps(m.game.State().Throw)[0].Hand)...)
		press(m, "r")
		if strings.Contains(drawn(m), "HOT DICE! all") {
			t.Fatalf("hot dice still announced after the next keep:\n%s", drawn(m))
		}
	}
}
