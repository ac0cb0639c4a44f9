package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
)

// TestFarkleHeld: a person's farkle stays on the table, dead dice and
// all, until a key, at every bot pace; with a hold time the bots go on
// after it by themselves.
func TestFarkleHeld(t *testing.T) {
	tab := dice.NewTable(seatOrder("classic"))
	seed := seedWhere(t, "golden-farkle", tab.Farkle)
	seats := []Seat{{Name: "du"}, {Name: "steady", Bot: "steady"}}
	for _, pace := range BotPaces {
		delay := min(pace.Delay, time.Millisecond) // the pace's kind (a tick, or at once), quickly
		m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: seats, Seed: seed, BotDelay: delay})
		press(m, "r")
		v := m.game.State().Version
		screen := drawn(m)
		if !m.game.AutoToAct() || !strings.Contains(screen, "FARKLE!") || !strings.Contains(screen, "go on (any key)") {
			t.Fatalf("%s: the farkle is not held:\n%s", pace.Name, screen)
		}
		if m.game.State().Current != 1 || m.game.State().Version != v {
			t.Fatalf("%s: the bot played on", pace.Name)
		}
		press(m, "x")
		if m.game.AutoToAct() || m.game.State().Current != 0 {
			t.Fatalf("%s: a key did not let the bot play its turn", pace.Name)
		}
	}
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: seats, Seed: seed, BotDelay: time.Millisecond, FarkleHold: time.Millisecond})
	press(m, "r")
	if m.game.AutoToAct() || m.game.State().Current != 0 {
		t.Fatal("with a hold time the bots did not go on by themselves")
	}
}
