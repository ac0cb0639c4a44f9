package webtest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
)

// TestBrowserRematchWithAFriend: Ann and Bob finish a Farkle Dice game;
// Bob's page at the end shows no offer until Ann asks, then "Ann asks for
// a rematch" with Accept, which takes him to the new game, the winner
// first.
func TestBrowserRematchWithAFriend(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := servertest.Context(t, 2*time.Minute)
	ann, bob, id := servertest.PlayTwo(t, ctx, ts, map[string]any{"base": "farkle-dice", "name": "farkle-dice", "turn": map[string]any{"entry_minimum": 0}, "game": map[string]any{"target": 1000}})
	b := Browser(t, 390, 844)
	if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	AsPlayer(t, b, ts, bob)
	if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible("#end #rematch")); err != nil {
		t.Fatal(err)
	}
	if a := servertest.Post(t, ann.HTTP, ts.URL+"/api/tables/"+id+"/rematch", ``); a.Status != http.StatusCreated {
		t.Fatalf("Ann's rematch: %v", a)
	}
	if err := chromedp.Do(b, chromedp.WaitVisible("#end #accept")); err != nil {
		t.Fatal(err)
	}
	offer := PageText(t, b, "#end .rematch")
	if !strings.Contains(offer, "Ann asks for a rematch") || !strings.Contains(offer, "The winner sits first and starts") {
		t.Fatalf("Bob's end screen offers %q", offer)
	}
	Shot(t, b, "rematch-offer")
	if !ClickNow(t, b, "#accept") {
		t.Fatal("no Accept button")
	}
	// The old table's page is over already: wait for the new table's.
	browsertest.WaitJS(t, b, `location.pathname !== '/t/`+id+`' && !!document.querySelector('#game[data-phase="play"], #game[data-phase="over"]')`, time.Minute, "Bob at the rematch's table")
	var old servertest.TableAnswer
	if err := ann.Do(ctx, "GET", "/api/tables/"+id, nil, &old); err != nil || old.Rematch == nil {
		t.Fatalf("the finished table: %+v %v", old, err)
	}
	var nt servertest.TableAnswer
	if err := ann.Do(ctx, "GET", "/api/tables/"+old.Rematch.Table, nil, &nt); err != nil || nt.Status != "playing" {
		t.Fatalf("the rematch after Bob accepted: %+v %v", nt, err)
	}
	winner := []string{"Ann", "Bob"}[old.Winners[0]]
	if nt.Seats[0].Name != winner {
		t.Fatalf("the rematch seats %+v: want the winner, %s, first", nt.Seats, winner)
	}
	Settled(t, b)
	Shot(t, b, "rematch-playing")
}
