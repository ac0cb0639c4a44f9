package server_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// TestRematch: at the end of a game of friends under the Farkle Dice rules,
// one asks for a rematch: a new table of the same rules whose winner sits
// first and starts (seat order), the friend told over the WebSocket and
// kept a seat nobody else may take, and asking again gives the same table.
// Under the classic rules the seats stay as they were, with the roll-off.
func TestRematch(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := ctxT(t, 2*time.Minute)
	for _, tc := range []struct {
		rules       any
		winnerFirst bool
	}{
		{map[string]any{"base": "farkle-dice", "name": "farkle-dice", "turn": map[string]any{"entry_minimum": 0}, "game": map[string]any{"target": 1000}}, true},
		{map[string]any{"base": "classic", "game": map[string]any{"target": 1000}}, false},
	} {
		ann, bob, id := playTwo(t, ctx, ts, tc.rules)
		var old tableAnswer
		if err := ann.Do(ctx, "GET", "/api/tables/"+id, nil, &old); err != nil || old.Status != "over" || len(old.Winners) != 1 {
			t.Fatalf("the finished table: %+v %v", old, err)
		}
		var rm rematchAnswer
		if a := post(t, ann.HTTP, ts.URL+"/api/tables/"+id+"/rematch", ``); a.Status != http.StatusCreated || json.Unmarshal([]byte(a.Body), &rm) != nil || rm.By != 0 || rm.WinnerFirst != tc.winnerFirst {
			t.Fatalf("rematch: %v, want 201 asked by seat 0, winner first %v", a, tc.winnerFirst)
		}
		// Bob, at the finished table, is told.
		for {
			m, err := bob.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type == "rematch" {
				var body struct{ Rematch rematchAnswer }
				if json.Unmarshal(m.Raw, &body) != nil || body.Rematch != rm {
					t.Fatalf("Bob was told %s, want %+v", m.Raw, rm)
				}
				break
			}
		}
		var again rematchAnswer
		if a := post(t, bob.HTTP, ts.URL+"/api/tables/"+id+"/rematch", ``); a.Status != http.StatusOK || json.Unmarshal([]byte(a.Body), &again) != nil || again != rm {
			t.Fatalf("Bob's rematch after Ann's: %v, want 200 with %+v", a, rm)
		}
		var nt tableAnswer
		if err := ann.Do(ctx, "GET", "/api/tables/"+rm.Table, nil, &nt); err != nil || nt.Status != "waiting" || len(nt.Seats) != 2 {
			t.Fatalf("the rematch table: %+v %v", nt, err)
		}
		// The seats: the winner first under Farkle Dice, else as they were.
		wantAnn := 0
		if tc.winnerFirst && old.Winners[0] == 1 {
			wantAnn = 1
		}
		if nt.Seats[wantAnn].PlayerID != ann.ID || !nt.Seats[1-wantAnn].Free {
			t.Fatalf("rematch seats %+v: want Ann (who asked) at seat %d, Bob's seat free for him", nt.Seats, wantAnn)
		}
		wantFirst := "roll-off"
		if tc.winnerFirst {
			wantFirst = "seat-order"
		}
		if nt.Rules.Game.FirstPlayer != wantFirst || nt.Rules.Game.Target != 1000 || nt.Rules.Name != old.Rules.Name {
			t.Fatalf("rematch rules %+v, want the same with first_player %s", nt.Rules, wantFirst)
		}
		// A stranger cannot take Bob's seat; Bob can.
		cy := newPlayer(t, ts, "Cy")
		if a := post(t, cy.HTTP, ts.URL+"/api/tables/"+rm.Table+"/join", ``); a.Status != http.StatusConflict {
			t.Fatalf("a stranger joined the rematch: %v", a)
		}
		seat, err := bob.Join(ctx, rm.Table)
		if err != nil || seat != 1-wantAnn {
			t.Fatalf("Bob accepts: seat %d, %v; want %d", seat, err, 1-wantAnn)
		}
		if err := ann.Do(ctx, "GET", "/api/tables/"+rm.Table, nil, &nt); err != nil || nt.Status != "playing" {
			t.Fatalf("the rematch after Bob accepted: %+v %v", nt, err)
		}
		// The finished table shows its rematch (a page loaded later).
		if err := cy.Do(ctx, "GET", "/api/tables/"+id, nil, &old); err != nil || old.Rematch == nil || *old.Rematch != rm {
			t.Fatalf("the finished table's rematch: %+v %v", old.Rematch, err)
		}
		// Only a player of a finished game may ask.
		if a := post(t, cy.HTTP, ts.URL+"/api/tables/"+id+"/rematch", ``); a.Status != http.StatusConflict {
			t.Fatalf("a stranger's rematch: %v", a)
		}
		if a := post(t, ann.HTTP, ts.URL+"/api/tables/"+rm.Table+"/rematch", ``); a.Status != http.StatusConflict {
			t.Fatalf("a rematch of a game in play: %v", a)
		}
	}
}
