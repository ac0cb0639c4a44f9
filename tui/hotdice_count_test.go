package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// TestHotDiceSaysHowMany: under a house rule of five dice, keeping every
// die of a throw is said in the log with the five thrown again (not "all
// six"), to the player spoken to, in English and in Norwegian.
func TestHotDiceSaysHowMany(t *testing.T) {
	r := seatOrder("classic")
	r.Dice = 5
	r.Scoring.Straight, r.Scoring.ThreePairs, r.Scoring.TwoTriplets, r.Scoring.FourKindPair = 0, 0, 0, 0
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	tab := dice.NewTable(r)
	var seed dice.Seed
	var all dice.Hand
	for i := 0; all == 0; i++ {
		if i == 10000 {
			t.Fatal("no seed whose first five dice all score")
		}
		seed = dice.SeedFrom(fmt.Sprintf("hot-five-%d", i))
		for _, k := range tab.Keeps(dice.Throw(dice.NewSource(seed), 5)) {
			if k.N == 5 {
				all = k.Hand
			}
		}
	}
	for _, tc := range []struct{ code, you, want string }{
		{"en", "you", "hot dice! you may throw all 5 dice again"},
		{"nb", "du", "varme terninger! du kan kaste alle 5 terningene igjen"},
	} {
		m := New(Options{Rules: r, Seats: []Seat{{Name: tc.you}, {Name: "bob"}}, Seed: seed, GamesDir: t.TempDir(), Now: fixedNow, Lang: lang.Get(tc.code)})
		if m.Err() != nil {
			t.Fatal(m.Err())
		}
		m.Update(keyMsgSize(120, 40))
		run(m, m.Init())
		press(m, "r")
		if m.game.State().Throw != all {
			t.Fatalf("%s: threw %v, want %v", tc.code, m.game.State().Throw, all)
		}
		press(m, faceKeys(t, m.faces, all)...)
		press(m, "r") // keep them all and throw the five again
		screen := drawn(m)
		if !strings.Contains(screen, tc.want) || strings.Contains(screen, "six") || strings.Contains(screen, "seks") {
			t.Fatalf("%s: the log does not say %q:\n%s", tc.code, tc.want, screen)
		}
	}
}
