package server

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// TestRematchRequest: the request of a rematch for every winner of a
// three-seat game (a bot, the one who asks, a friend) under rules with
// and without next_first, and of a Dragon Farkle game: the seats turn
// round to the winner only where the rules say so, each seat keeps its
// kind, and the clock and rules carry over.
func TestRematchRequest(t *testing.T) {
	seats := []store.Seat{{Name: "Steady bot", Bot: "steady"}, {Name: "Ann", PlayerID: "ann", Clock: 45 * time.Second}, {Name: "Bob", PlayerID: "bob", Clock: 45 * time.Second}}
	const by = 1
	kindOf := func(i int) string {
		switch {
		case seats[i].Bot != "":
			return "bot:" + seats[i].Bot
		case i == by:
			return "me"
		}
		return "human"
	}
	for _, preset := range []string{"farkle-dice", "classic"} {
		r := rules.MustPreset(preset)
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		for winner := range seats {
			req, order, first, err := rematchRequest(game.Farkle, raw, seats, []int{winner}, by)
			if err != nil {
				t.Fatal(err)
			}
			turn := r.Game.NextFirst == rules.NextWinner
			var got rules.Rules
			if err := json.Unmarshal(req.Rules, &got); err != nil {
				t.Fatal(err)
			}
			wantFirst := r.Game.FirstPlayer
			if turn {
				wantFirst = rules.SeatOrder
			}
			if first != turn || got.Game.FirstPlayer != wantFirst || got.Game.Target != r.Game.Target || req.Clock == nil || *req.Clock != 45 {
				t.Fatalf("%s, winner %d: winner first %v, rules first_player %q, clock %v", preset, winner, first, got.Game.FirstPlayer, req.Clock)
			}
			for j, i := range order {
				want := i
				if turn {
					want = (winner + j) % len(seats)
				}
				if i != want {
					t.Fatalf("%s, winner %d: order %v", preset, winner, order)
				}
				s := req.Seats[j]
				if got := s.Type + map[bool]string{true: ":" + s.Level}[s.Type == "bot"]; got != kindOf(i) {
					t.Fatalf("%s, winner %d: new seat %d is %s, want %s (old seat %d)", preset, winner, j, got, kindOf(i), i)
				}
			}
		}
	}
	req, order, first, err := rematchRequest(game.Dragon, json.RawMessage(`{"dragon":"rules"}`), seats, []int{2}, by)
	if err != nil || string(req.Rules) != `"dragon"` || first || fmt.Sprint(order) != "[0 1 2]" {
		t.Fatalf("a Dragon Farkle rematch: rules %s, order %v, winner first %v, %v", req.Rules, order, first, err)
	}
}
