package webtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
)

// TestBrowserReplaysADragonGame opens a finished Dragon Farkle game from
// the history page and steps through its replay: the board shows the
// soldiers the game ended with and the winner, the first step the first
// action's log as the server described it, and the download is the
// record. The game's own page ends with the analysis of its decisions.
func TestBrowserReplaysADragonGame(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}})
	ctx := servertest.Context(t, time.Minute)
	end := servertest.DragonBotGame(t, ctx, ts)
	c := servertest.Host(t, ts)
	var rp struct {
		Steps []struct {
			Log []struct{ Text string } `json:"log"`
		} `json:"steps"`
	}
	if err := c.Do(ctx, "GET", "/api/tables/"+end.ID+"/replay", nil, &rp); err != nil {
		t.Fatal(err)
	}
	var scores []int
	var info struct {
		Scores []int `json:"scores"`
	}
	if err := c.Do(ctx, "GET", "/api/tables/"+end.ID, nil, &info); err != nil {
		t.Fatal(err)
	}
	scores = info.Scores

	bctx := Browser(t, 1280, 900)
	if err := chromedp.Do(bctx,
		chromedp.Navigate(ts.URL+"/history"),
		chromedp.WaitVisible(`a[href="/replay/`+end.ID+`"]`),
	); err != nil {
		t.Fatal(err)
	}
	if !ClickNow(t, bctx, `a[href="/replay/`+end.ID+`"]`) {
		t.Fatal("no Replay link for the Dragon Farkle game on the history page")
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible(".replay-board table")); err != nil {
		t.Fatal(err)
	}
	type board struct {
		Heading string   `json:"heading"`
		Heads   []string `json:"heads"`
		Scores  []string `json:"scores"`
		Winner  int      `json:"winner"`
		Log     []string `json:"log"`
		Record  string   `json:"record"`
	}
	read := func() board {
		b, err := chromedp.Run(bctx, chromedp.Evaluate[board](`(() => ({
		  heading: document.querySelector('.replay-board p').textContent,
		  heads: [...document.querySelectorAll('.replay-board thead th')].map((x) => x.textContent),
		  scores: [...document.querySelectorAll('.replay-board tbody tr')].map((r) => r.children[1].textContent),
		  winner: document.querySelectorAll('.replay-board .tag.win').length,
		  log: [...document.querySelectorAll('.replay-board .log li')].map((x) => x.textContent),
		  record: document.querySelector('a[download]').getAttribute('href'),
		}))()`))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	last := read()
	Shot(t, bctx, "dragon-replay")
	want := make([]string, len(scores))
	for i, s := range scores {
		want[i] = fmt.Sprintf("%d", s)
	}
	got := make([]string, len(last.Scores))
	for i, s := range last.Scores {
		got[i] = strings.ReplaceAll(s, ",", "")
	}
	if !strings.HasPrefix(last.Heading, "Round ") || !strings.HasSuffix(last.Heading, fmt.Sprintf("’s turn · action %d of %d", len(rp.Steps), len(rp.Steps))) || strings.Join(last.Heads, "|") != "Player|Soldiers|Pool" ||
		fmt.Sprint(got) != fmt.Sprint(want) || last.Winner == 0 || last.Record != "/api/tables/"+end.ID+"/record" {
		t.Fatalf("the replay's last step shows %+v; the game ended with soldiers %v", last, scores)
	}
	// First, then one step: the first action's log lines.
	for _, label := range []string{"« First", "Next ▶"} {
		if !ClickNow(t, bctx, `.replay-controls button:nth-of-type(`+map[string]string{"« First": "1", "Next ▶": "3"}[label]+`)`) {
			t.Fatalf("no %s button", label)
		}
	}
	first := read()
	var wantLog []string
	for _, l := range rp.Steps[0].Log {
		wantLog = append(wantLog, l.Text)
	}
	if !strings.HasPrefix(first.Heading, "Round 1, ") || !strings.HasSuffix(first.Heading, fmt.Sprintf("’s turn · action 1 of %d", len(rp.Steps))) || len(first.Log) == 0 || fmt.Sprint(first.Log) != fmt.Sprint(wantLog) {
		t.Fatalf("the first step shows %+v; want the log %q", first, wantLog)
	}
	// The end screen of the table analyses its decisions, a row a player.
	if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/t/"+end.ID), chromedp.WaitVisible("#end table.analysis tbody tr")); err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#end table.analysis tbody tr')].map((r) => r.children[0].textContent + ':' + r.children[1].textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	var an struct {
		Players []struct {
			Name      string `json:"name"`
			Decisions int    `json:"decisions"`
		} `json:"players"`
	}
	if err := c.Do(ctx, "GET", "/api/tables/"+end.ID+"/analysis", nil, &an); err != nil {
		t.Fatal(err)
	}
	var wantRows []string
	for _, p := range an.Players {
		wantRows = append(wantRows, fmt.Sprintf("%s:%d", p.Name, p.Decisions))
	}
	if fmt.Sprint(rows) != fmt.Sprint(wantRows) || len(rows) != 2 {
		t.Fatalf("the end screen's analysis shows %q, want %q", rows, wantRows)
	}
	Shot(t, bctx, "dragon-analysis")
}
