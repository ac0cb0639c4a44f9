package tui

import (
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// BenchmarkTableView renders the table while a person chooses dice, with a
// full log: the work of every frame.
func BenchmarkTableView(b *testing.B) {
	seed := seedWhere(b, "bench", loneTwo)
	m := newModel(b, seatOrder("classic"), []Seat{{Name: "you"}, {Name: "ana"}, {Name: "steady", Bot: "steady"}}, seed, 100, 35)
	press(m, "r")
	press(m, faceKeys(b, m.faces, dice.Of(1))...)
	if m.Game().State().Step != engine.StepKeep {
		b.Fatal("no throw to choose from")
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkHelpView renders the help screen with the scoring table.
func BenchmarkHelpView(b *testing.B) {
	m := newModel(b, seatOrder("farkle-dice"), []Seat{{Name: "you"}}, dice.SeedFrom("help"), 100, 35)
	press(m, "?")
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
