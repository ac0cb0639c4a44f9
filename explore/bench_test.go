package explore

import (
	"testing"
)

// The explorer's answers on a table of classic without its penalty to
// 5,000 (100 scores a side): a map of 40 by 40 cells with the fair
// compensation of each, the turn map and the duel thresholds at one score.
func BenchmarkWinMap(b *testing.B) {
	tb := duel(b, small("classic", 5000, true))
	for b.Loop() {
		if _, err := NewWinMap(tb, 40); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTurnMap(b *testing.B) {
	tb := duel(b, small("classic", 5000, true))
	for b.Loop() {
		if _, err := NewTurnMap(tb, 2500, 3000, 3000, 50); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDuelThresholds(b *testing.B) {
	r := small("classic", 5000, true)
	tb, p := duel(b, r), solo(b, r)
	them := axis(250, 5000)
	for b.Loop() {
		if _, err := NewDuelThresholds(tb, p, 2500, them); err != nil {
			b.Fatal(err)
		}
	}
}
