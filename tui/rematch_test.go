package tui

import (
	tea "charm.land/bubbletea/v2"

	"os"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// TestPlayAgain: p at the end of a game starts another with the same
// players and rules, saved to a new file (the first stays as it ended).
// Under seat-order rules the winner sits first and starts; under a
// roll-off the seats stay and a new roll-off decides.
func TestPlayAgain(t *testing.T) {
	for _, first := range []string{rules.SeatOrder, rules.RollOff} {
		r := rules.MustPreset("classic")
		r.Game.Target, r.Game.FirstPlayer = 1000, first
		seats := []Seat{{Name: "ann", Bot: "steady"}, {Name: "bea", Bot: "steady"}, {Name: "cy", Bot: "steady"}}
		m := newModel(t, r, seats, dice.SeedFrom("again-"+first), 80, 24)
		g := m.game
		if !g.Over() {
			t.Fatalf("%s: the bots did not finish the game", first)
		}
		winner := g.State().Winners[0]
		if !strings.Contains(drawn(m), "p play again") {
			t.Fatalf("%s: no play again at the end:\n%s", first, drawn(m))
		}
		press(m, "p")
		n := m.game
		if n == g {
			t.Fatalf("%s: p did not start a new game:\n%s", first, drawn(m))
		}
		var want []string
		for i := range seats {
			want = append(want, seats[i].Name)
		}
		if first == rules.SeatOrder {
			want = append(want[winner:], want[:winner]...)
		}
		if got := n.Names(); !slices.Equal(got, want) {
			t.Fatalf("%s: the new game seats %v, want %v (winner %s)", first, got, want, seats[winner].Name)
		}
		acts := recordedActions[engine.Action](t, n.table)
		if first == rules.SeatOrder && (len(acts) == 0 || acts[0].Kind != engine.Throw || acts[0].Player != 0) {
			t.Fatalf("%s: the winner, now seat 0, did not start: %+v", first, acts[:min(len(acts), 1)])
		}
		if first == rules.RollOff && (len(acts) == 0 || acts[0].Kind != engine.RollOff) {
			t.Fatalf("%s: the new game did not start with a roll-off: %+v", first, acts[:min(len(acts), 1)])
		}
		if n.Path() == g.Path() || n.Rules().Hash() != g.Rules().Hash() {
			t.Fatalf("%s: new game at %s with rules %s", first, n.Path(), n.Rules().Name)
		}
		if _, err := os.Stat(g.Path()); err != nil {
			t.Fatalf("%s: the first game's file: %v", first, err)
		}
		if rec, err := readSaved(g.Path()); err != nil || len(rec.Meta.Winners) == 0 {
			t.Fatalf("%s: the first game is not saved as ended: %v", first, err)
		}
	}
}

// TestDragonPlayAgain: p at the end of a game of Dragon Farkle starts
// another with the same players in the same seats, saved to a new file.
func TestDragonPlayAgain(t *testing.T) {
	dir := t.TempDir()
	g := newDragonGame(t, "bot:smart,bot:simple", dice.SeedFrom("dragon-again"), DragonGamePath(dir, fixedNow(), []string{"smart", "simple"}))
	m := NewDragon(DragonOptions{Game: g})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	run(m, m.Init())
	if !g.Over() {
		t.Fatal("the bots did not finish the game")
	}
	if !strings.Contains(drawn(m), "p play again") {
		t.Fatalf("no play again at the end:\n%s", drawn(m))
	}
	press(m, "p")
	n := m.Game()
	if n == g || !slices.Equal(n.Names(), g.Names()) || n.Path() == g.Path() || n.Path() == "" {
		t.Fatalf("the new game: %v at %s (the first: %v at %s)", n.Names(), n.Path(), g.Names(), g.Path())
	}
	if rec, err := readSaved(g.Path()); err != nil || rec.Seed == "" {
		t.Fatalf("the first game is not saved as ended: %v", err)
	}
}
