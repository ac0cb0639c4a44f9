package site

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/server/wsclient"
)

// TestBrowserShowsRatings: after a rated game the end screen shows the
// player's change as the API has it, the leaderboard lists the player
// under its family's tab (from one rated game here), and the player page
// draws the history chart.
func TestBrowserShowsRatings(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{RatingBoardGames: 1})
	ctx := webtest.Browser(t, 1100, 900)
	pctx := servertest.Context(t, 2*time.Minute)
	p := servertest.NewPlayer(t, ts, "Ann")
	defer p.Close()
	var tb wsclient.Table
	body := map[string]any{"rules": "classic", "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}
	if err := p.Do(pctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(pctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := p.PlayToEnd(pctx); err != nil {
		t.Fatal(err)
	}
	var final servertest.RatedTable
	if err := p.Do(pctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	var ann servertest.RatingChange
	for _, c := range final.Ratings {
		if c.Player == p.ID {
			ann = c
		}
	}
	webtest.SignInBrowser(t, ctx, ts.URL, p.Token)

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/t/"+tb.ID), chromedp.WaitVisible("#rating-change")); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Text, Change string
		Lines        int
	}](`(() => { const r = document.getElementById('rating-change');
		const c = r.querySelector('[data-change]');
		return {text: r.innerText, change: c ? c.dataset.change : '', lines: r.querySelectorAll('li').length}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Lines != 1 || got.Change != fmt.Sprint(ann.Change) || !strings.Contains(got.Text, fmt.Sprintf("1500 → %.0f", ann.After)) {
		t.Fatalf("the end screen's rating: %+v; the API has %+v", got, ann)
	}
	webtest.Shot(t, ctx, "rating-end")

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/leaderboard"), chromedp.WaitVisible("#rating-board")); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('rating-board').innerText`))
	if err != nil || !strings.Contains(text, "Ann") || !strings.Contains(text, fmt.Sprintf("%.0f", ann.After)) || !strings.Contains(text, "Steady bot") {
		t.Fatalf("the ordinary family's board: %q, %v", text, err)
	}
	if err := chromedp.Do(ctx, browsertest.Click(`#rating-board button[role=tab]:nth-child(3)`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(text, "No rated game yet") {
		if time.Now().After(deadline) {
			t.Fatalf("the house board after an ordinary game: %q", text)
		}
		time.Sleep(20 * time.Millisecond) // polling the page
		text, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('rating-board').innerText`))
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/players/"+p.ID), chromedp.WaitVisible("#rating-chart")); err != nil {
		t.Fatal(err)
	}
	dots, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#rating-chart circle').length`))
	if err != nil || dots != 2 {
		t.Fatalf("the chart has %d points (%v), want the start and one game", dots, err)
	}
	webtest.Shot(t, ctx, "rating-player")
}

// TestBrowserShowsUnrated: the end screen of an aborted game (the player
// resigned at once) and of a game too short to rate says why it moved no
// rating, in English (at a desktop's width and a 390 px phone's) and in
// Norwegian (at 360 px); the short game's line on the narrowest screen of
// each.
func TestBrowserShowsUnrated(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	pctx := servertest.Context(t, 2*time.Minute)
	p := servertest.NewPlayer(t, ts, "Ann")
	defer p.Close()
	seats := []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}
	aborted := servertest.JoinNewTable(t, pctx, p.Client, "classic", seats...)
	if err := p.Resign(pctx); err != nil {
		t.Fatal(err)
	}
	p.Last, p.Seat = nil, -1
	short := servertest.JoinNewTable(t, pctx, p.Client, map[string]any{"base": "classic", "game": map[string]any{"max_turns": 1}}, seats...)
	if err := p.PlayToEnd(pctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang      string
		ctx       context.Context
		aborted   string
		short     string
		widths    []int64
		shotNames string
	}{
		{"en", webtest.Browser(t, 1100, 900), "Aborted, not rated", "shorter than a real game", []int64{1100, 390}, "unrated"},
		{"nb", webtest.NorwegianBrowser(t, 1100, 900), "Avbrutt, uten rating", "kortere enn et ekte spill", []int64{360}, "unrated-nb"},
	} {
		webtest.SignInBrowser(t, c.ctx, ts.URL, p.Token)
		for _, w := range c.widths {
			if err := chromedp.Do(c.ctx, chromedp.EmulateViewport(w, 844)); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct{ id, reason, want string }{{aborted.ID, "aborted", c.aborted}, {short.ID, "short", c.short}} {
				if tc.reason == "short" && w != c.widths[len(c.widths)-1] {
					continue // the same kind of line: the narrowest screen will do
				}
				if err := chromedp.Do(c.ctx, chromedp.Navigate(ts.URL+"/t/"+tc.id), chromedp.WaitVisible("#rating-change")); err != nil {
					t.Fatal(err)
				}
				got, err := chromedp.Run(c.ctx, chromedp.Evaluate[struct {
					Reason, Text string
					Overflow     bool
				}](`(() => { const r = document.getElementById('rating-change');
					return {reason: r.dataset.unrated || '', text: r.innerText, overflow: document.documentElement.scrollWidth > window.innerWidth}; })()`))
				if err != nil {
					t.Fatal(err)
				}
				if got.Reason != tc.reason || !strings.Contains(got.Text, tc.want) {
					t.Fatalf("%s, %d px, %s: the end screen says %+v, want %q", c.lang, w, tc.reason, got, tc.want)
				}
				if got.Overflow {
					t.Errorf("%s, %d px, %s: the page is wider than the screen", c.lang, w, tc.reason)
				}
				// by script: the page may draw the end screen again meanwhile,
				// and a node found before it would be gone
				browsertest.Eval[bool](t, c.ctx, `(document.getElementById('rating-change').scrollIntoView(), true)`)
				webtest.Shot(t, c.ctx, fmt.Sprintf("%s-%s-%d", c.shotNames, tc.reason, w))
			}
		}
	}
}
