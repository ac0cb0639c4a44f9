package server_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/server"
)

// TestBrowserTournament creates a Swiss tournament of a person and three
// bots from the tournaments page (classic rules to 500), plays the
// person's games from the tournament page to its end, and reads the
// standings and the winner.
func TestBrowserTournament(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := browser(t, 1100, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/tournaments"), chromedp.WaitVisible("#t-create"),
		chromedp.SetValue("#t-name", "Test cup"), chromedp.SetValue("#t-format", "swiss"), chromedp.SetValue("#t-size", "4"),
		chromedp.SetValue("#t-target", "500"), chromedp.SetValue("#t-bots", "3"), browsertest.Click("#t-create"),
		chromedp.WaitVisible("#t-standings")); err != nil {
		t.Fatal(err)
	}
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.Contains(url, "/tournaments/") {
		t.Fatalf("after creating: %q %v", url, err)
	}
	waiting, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.tour-game.mine .waiting') || {}).textContent || ''`))
	if err != nil || !strings.HasPrefix(waiting, "waiting on ") {
		t.Fatalf("the person's first game: %q %v", waiting, err)
	}
	shot(t, ctx, "tournament-start")
	played := 0
	for played < 3 {
		waitPage(t, ctx, "the next game or the end", `!!document.querySelector('.play-tour-game') || document.getElementById('t-status').dataset.status === 'over'`)
		over, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('t-status').dataset.status === 'over'`))
		if over {
			break
		}
		if err := chromedp.Do(ctx, browsertest.Click(".play-tour-game"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
			t.Fatal(err)
		}
		waitPage(t, ctx, "the table's state", `document.getElementById('game').dataset.online === 'yes'`)
		for !pressKeys(t, ctx) {
			waitPage(t, ctx, "the person's turn or the end", `['yes'].includes(document.getElementById('game').dataset.mine) || document.getElementById('game').dataset.phase === 'over'`)
		}
		played++
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible("#t-standings")); err != nil {
			t.Fatal(err)
		}
	}
	if played != 2 {
		t.Fatalf("the person played %d games of a Swiss of four (two rounds)", played)
	}
	type end struct {
		Champion string
		Rows     int
		Played   []string
	}
	e, err := chromedp.Run(ctx, chromedp.Evaluate[end](`({champion: (document.getElementById('t-champion') || {}).textContent || '',
		rows: document.querySelectorAll('#t-standings tbody tr').length,
		played: [...document.querySelectorAll('#t-standings tbody tr')].map((tr) => tr.children[2].textContent)})`))
	if err != nil || !strings.HasPrefix(e.Champion, "Winner: ") || e.Rows != 4 || strings.Join(e.Played, ",") != "2,2,2,2" {
		t.Fatalf("the end of the tournament: %+v %v", e, err)
	}
	shot(t, ctx, "tournament-end")
}
