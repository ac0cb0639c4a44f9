package tui

import (
	"fmt"

	"testing"

	"github.com/farkle/farkle/dragon"
)

// BenchmarkDragonTableView renders the Dragon Farkle table while a person
// chooses dice from a recruiting throw, with a log and a hand of cards:
// the work of every frame.
func BenchmarkDragonTableView(b *testing.B) {
	seed := dragonSeed(b, "bench", "you,bot:smart,bot:simple", youStart)
	m := newDragonModel(b, "you,bot:smart,bot:simple", seed, 100, 40)
	for m.g.View(0).Phase != dragon.PhaseKeep || m.g.Turn() != 0 {
		if m.menu != nil {
			press(m, "r")
			continue
		}
		press(m, "a")
		if m.g.Over() {
			b.Fatal("game over")
		}
	}
	press(m, fmt.Sprint(m.faces[0]))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkDragonHint renders the table with the hint panel (the bots'
// advice for every legal action).
func BenchmarkDragonHint(b *testing.B) {
	seed := dragonSeed(b, "bench", "you,bot:smart", youStart)
	m := newDragonModel(b, "you,bot:smart", seed, 100, 40)
	press(m, "h")
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
