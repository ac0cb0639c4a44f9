package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/server"
)

// playTwo plays a game of two people, Ann and Bob, under rules to the
// end, and returns them connected to the finished table and its id.
func playTwo(t *testing.T, ctx context.Context, ts *testServer, rules any) (ann, bob *player, id string) {
	t.Helper()
	ann, bob = newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bob")
	tb, err := ann.CreateTable(ctx, rules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for _, p := range []*player{ann, bob} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		go func() { done <- p.playToEnd(ctx) }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	return ann, bob, tb.ID
}

type rematchAnswer struct {
	Table       string `json:"table"`
	By          int    `json:"by"`
	WinnerFirst bool   `json:"winner_first"`
}

type tableAnswer struct {
	Status string
	Rules  struct {
		Name string
		Game struct {
			FirstPlayer string `json:"first_player"`
			Target      int
		}
	}
	Seats []struct {
		Name     string
		PlayerID string `json:"player_id"`
		Free     bool
	}
	Winners []int
	Rematch *rematchAnswer
}

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

// asPlayer gives the browser of ctx the cookie of p.
func asPlayer(t *testing.T, ctx context.Context, ts *testServer, p *player) {
	t.Helper()
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, network.SetCookie, network.SetCookieParams{Name: server.CookieName, Value: p.Token, URL: ts.URL})
	}); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserRematchWithAFriend: Ann and Bob finish a Farkle Dice game;
// Bob's page at the end shows no offer until Ann asks, then "Ann asks for
// a rematch" with Accept, which takes him to the new game, the winner
// first.
func TestBrowserRematchWithAFriend(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := ctxT(t, 2*time.Minute)
	ann, bob, id := playTwo(t, ctx, ts, map[string]any{"base": "farkle-dice", "name": "farkle-dice", "turn": map[string]any{"entry_minimum": 0}, "game": map[string]any{"target": 1000}})
	b := browser(t, 390, 844)
	if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	asPlayer(t, b, ts, bob)
	if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible("#end #rematch")); err != nil {
		t.Fatal(err)
	}
	if a := post(t, ann.HTTP, ts.URL+"/api/tables/"+id+"/rematch", ``); a.Status != http.StatusCreated {
		t.Fatalf("Ann's rematch: %v", a)
	}
	if err := chromedp.Do(b, chromedp.WaitVisible("#end #accept")); err != nil {
		t.Fatal(err)
	}
	offer, err := chromedp.Run(b, chromedp.Text("#end .rematch"))
	if err != nil || !strings.Contains(offer, "Ann asks for a rematch") || !strings.Contains(offer, "The winner sits first and starts") {
		t.Fatalf("Bob's end screen offers %q (%v)", offer, err)
	}
	shot(t, b, "rematch-offer")
	if !clickNow(t, b, "#accept") {
		t.Fatal("no Accept button")
	}
	if err := chromedp.Do(b, chromedp.WaitVisible(`#game[data-phase="play"], #game[data-phase="over"]`)); err != nil {
		t.Fatal(err)
	}
	var old tableAnswer
	if err := ann.Do(ctx, "GET", "/api/tables/"+id, nil, &old); err != nil || old.Rematch == nil {
		t.Fatalf("the finished table: %+v %v", old, err)
	}
	var nt tableAnswer
	if err := ann.Do(ctx, "GET", "/api/tables/"+old.Rematch.Table, nil, &nt); err != nil || nt.Status != "playing" {
		t.Fatalf("the rematch after Bob accepted: %+v %v", nt, err)
	}
	winner := []string{"Ann", "Bob"}[old.Winners[0]]
	if nt.Seats[0].Name != winner {
		t.Fatalf("the rematch seats %+v: want the winner, %s, first", nt.Seats, winner)
	}
	settled(t, b)
	shot(t, b, "rematch-playing")
}
