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
// With next_first = "winner" the winner sits first and starts without a
// roll-off; otherwise the seats stay and the game starts as first_player
// says (the first seat, or a new roll-off).
func TestPlayAgain(t *testing.T) {
	for _, c := range []struct{ first, next string }{
		{rules.SeatOrder, ""}, {rules.RollOff, ""}, {rules.RollOff, rules.NextWinner}, {rules.SeatOrder, rules.NextWinner},
	} {
		name := c.first + "/" + c.next
		r := rules.MustPreset("classic")
		r.Game.Target, r.Game.FirstPlayer, r.Game.NextFirst = 1000, c.first, c.next
		seats := []Seat{{Name: "ann", Bot: "steady"}, {Name: "bea", Bot: "steady"}, {Name: "cy", Bot: "steady"}}
		m := newModel(t, r, seats, dice.SeedFrom("again-"+name), 80, 24)
		g := m.game
		if !g.Over() {
			t.Fatalf("%s: the bots did not finish the game", name)
		}
		winner := g.State().Winners[0]
		if !strings.Contains(drawn(m), "p play again") {
			t.Fatalf("%s: no play again at the end:\n%s", name, drawn(m))
		}
		press(m, "p")
		n := m.game
		if n == g {
			t.Fatalf("%s: p did not start a new game:\n%s", name, drawn(m))
		}
		var want []string
		for i := range seats {
			want = append(want, seats[i].Name)
		}
		winnerFirst := c.next == rules.NextWinner
		if winnerFirst {
			want = append(want[winner:], want[:winner]...)
		}
		if got := n.Names(); !slices.Equal(got, want) {
			t.Fatalf("%s: the new game seats %v, want %v (winner %s)", name, got, want, seats[winner].Name)
		}
		acts := recordedActions[engine.Action](t, n.table)
		rollOff := c.first == rules.RollOff && !winnerFirst
		if !rollOff && (len(acts) == 0 || acts[0].Kind != engine.Throw || acts[0].Player != 0) {
			t.Fatalf("%s: seat 0 (%s) did not start: %+v", name, want[0], acts[:min(len(acts), 1)])
		}
		if rollOff && (len(acts) == 0 || acts[0].Kind != engine.RollOff) {
			t.Fatalf("%s: the new game did not start with a roll-off: %+v", name, acts[:min(len(acts), 1)])
		}
		if n.Path() == g.Path() || n.Rules().ForSolver().Hash() != g.Rules().ForSolver().Hash() || n.Rules().Game.NextFirst != c.next {
			t.Fatalf("%s: new game at %s with rules %+v: the solvers' results must carry over", name, n.Path(), n.Rules().Game)
		}
		if _, err := os.Stat(g.Path()); err != nil {
			t.Fatalf("%s: the first game's file: %v", name, err)
		}
		if rec, err := readSaved(g.Path()); err != nil || len(rec.Meta.Winners) == 0 {
			t.Fatalf("%s: the first game is not saved as ended: %v", name, err)
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
