package dragon

import (
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestBrawl(t *testing.T) {
	cases := []struct {
		name               string
		a, b               int    // soldiers of the challenger (seat 0) and defender (seat 1)
		aThrow             string // 6 dice
		aEvent             int
		bThrow             string // 5 dice
		bEvent             int
		aCompanion, bItem  string
		wantA, wantB       int
		winner, take, bonu int
	}{
		// 1-1-1 (1000) against a single 5 (50): 950 taken, 500 from the stockpile.
		{"challenger wins", 2000, 2000, "111234", blank, "52346", blank, "", "", 3450, 1050, 0, 950, 500},
		{"take at most what they have", 2000, 300, "111234", blank, "52346", blank, "", "", 2800, 0, 0, 300, 500},
		// A Rally doubles the best keep (100 -> 200); the Dragon scores 0.
		{"rally doubles, dragon zeroes", 1000, 1000, "123466", rally, "55234", dragon, "", "", 1700, 800, 0, 200, 500},
		{"farkles tie", 1000, 1000, "234662", blank, "23466", blank, "", "", 1000, 1000, -1, 0, 0},
		{"equal scores tie", 1000, 1000, "523466", blank, "52346", blank, "", "", 1000, 1000, -1, 0, 0},
		{"defender wins", 2000, 2000, "523466", blank, "11123", blank, "", "", 1050, 3450, 1, 950, 500},
		{"dragon on both ties", 1000, 1000, "111111", dragon, "11111", dragon, "", "", 1000, 1000, -1, 0, 0},
		// Cards: a brawl_guard of the loser, a brawl_bonus of the winner.
		{"buckler guards 1000", 2000, 2000, "111234", blank, "52346", blank, "", "buckler", 2500, 2000, 0, 0, 500},
		{"wren guards 400", 2000, 2000, "523466", blank, "11123", blank, "wren", "", 1450, 3050, 1, 550, 500},
		{"brutus adds 300", 2000, 2000, "111234", blank, "52346", blank, "brutus", "", 3750, 1050, 0, 950, 800},
	}
	g := testGame(t, DefaultCards())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fresh(3)
			give(&s, 0, c.a)
			give(&s, 1, c.b)
			give(&s, 2, 777)
			s.Players[0].Companion = c.aCompanion
			if c.bItem != "" {
				s.Players[1].Items = []string{c.bItem}
			}
			src := script(throwFaces(c.aThrow, c.aEvent), throwFaces(c.bThrow, c.bEvent))
			n, evs := mustApply(t, g, s, Brawl(1), src)
			if n.Players[0].Soldiers != c.wantA || n.Players[1].Soldiers != c.wantB || n.Players[2].Soldiers != 777 {
				t.Fatalf("soldiers %d, %d, %d; want %d, %d, 777", n.Players[0].Soldiers, n.Players[1].Soldiers, n.Players[2].Soldiers, c.wantA, c.wantB)
			}
			e, ok := hasEvent(evs, EvBrawl)
			if !ok || e.Winner != c.winner || e.Total != c.take || e.Bonus != c.bonu || e.Target != 1 {
				t.Fatalf("brawl event %+v", e)
			}
			if n.Stockpile-s.Stockpile != -c.bonu {
				t.Fatalf("stockpile moved %d, want %d", n.Stockpile-s.Stockpile, -c.bonu)
			}
			if n.Turn != 1 || n.Phase != PhaseChoose || src.Left() != 0 {
				t.Fatalf("turn %d phase %s, %d dice unused", n.Turn, n.Phase, src.Left())
			}
		})
	}
}

func TestBrawlTargets(t *testing.T) {
	g := testGame(t, nil)
	s := fresh(3)
	for _, tgt := range []int{0, 3, -1} {
		err := mustReject(t, g, s, Brawl(tgt), dice.Faces())
		if !strings.Contains(err.Error(), "brawl") {
			t.Errorf("brawl %d: %v", tgt, err)
		}
	}
}
