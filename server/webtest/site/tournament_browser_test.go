package site

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserTournament creates a Swiss tournament of a person and three
// bots from the tournaments page (classic rules to 500), plays the
// person's games from the tournament page to its end, going back from
// each game by the game page's link to its tournament, and reads the
// standings and the winner; the games show names and scores apart, a
// replay leads back too, and the status and format read in the page's
// language (English, Norwegian).
func TestBrowserTournament(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := webtest.Browser(t, 1100, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/tournaments"), chromedp.WaitVisible("#t-create"),
		chromedp.SetValue("#t-format", "swiss"), chromedp.Evaluate[chromedp.Void](`document.getElementById('t-format').dispatchEvent(new Event('change'))`)); err != nil {
		t.Fatal(err)
	}
	// The list names the formats; the line under it says what the one
	// chosen means.
	if note, want := browsertest.Eval[string](t, ctx, `document.getElementById('t-format-note').textContent`), lang.Get("en").Msg("web.tour.format.swiss"); note != want {
		t.Fatalf("the note of the Swiss format: %q, want %q", note, want)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue("#t-name", "Test cup"), chromedp.SetValue("#t-size", "4"),
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
	webtest.Shot(t, ctx, "tournament-start")
	played := 0
	for played < 3 {
		webtest.WaitPage(t, ctx, "the next game or the end", `!!document.querySelector('.play-tour-game') || document.getElementById('t-status').dataset.status === 'over'`)
		over, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('t-status').dataset.status === 'over'`))
		if over {
			break
		}
		if err := chromedp.Do(ctx, browsertest.Click(".play-tour-game"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
			t.Fatal(err)
		}
		webtest.WaitPage(t, ctx, "the table's state", `document.getElementById('game').dataset.online === 'yes'`)
		// The game's page names its tournament and leads back to it.
		webtest.WaitPage(t, ctx, "the link back to the tournament", `(document.getElementById('tour-back') || {}).textContent === 'Tournament: Test cup — its standings'`)
		for !webtest.PressKeys(t, ctx) {
			webtest.WaitPage(t, ctx, "the person's turn or the end", `['yes'].includes(document.getElementById('game').dataset.mine) || document.getElementById('game').dataset.phase === 'over'`)
		}
		played++
		if played == 1 {
			webtest.Shot(t, ctx, "tournament-game")
		}
		if err := chromedp.Do(ctx, browsertest.Click("#tour-back"), chromedp.WaitVisible("#t-standings")); err != nil {
			t.Fatal(err)
		}
		if back, err := chromedp.Run(ctx, chromedp.Location()); err != nil || back != url {
			t.Fatalf("the link back from the game led to %q (%v), want %q", back, err, url)
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
	webtest.Shot(t, ctx, "tournament-end")
	checkTourGames(t, ctx, "finished · Swiss")
	// A finished game's replay leads back to its tournament too.
	table, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.tour-game.done').dataset.table`))
	if err != nil || table == "" {
		t.Fatalf("a finished game's table: %q %v", table, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/replay/"+table), chromedp.WaitVisible(".replay-board table")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx, "the replay's link back to the tournament", `(document.getElementById('tour-back') || {}).textContent === 'Tournament: Test cup — its standings'`)
	if err := chromedp.Do(ctx, browsertest.Click("#tour-back"), chromedp.WaitVisible("#t-standings")); err != nil {
		t.Fatal(err)
	}
	if back, err := chromedp.Run(ctx, chromedp.Location()); err != nil || back != url {
		t.Fatalf("the replay's link back led to %q (%v), want %q", back, err, url)
	}
	// In Norwegian: the status and the format in words of the page.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`localStorage.setItem('lang', 'nb') === undefined`)); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int64{1100, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 844), chromedp.Navigate(url), chromedp.WaitVisible("#t-standings")); err != nil {
			t.Fatal(err)
		}
		checkTourGames(t, ctx, "ferdig · sveitsisk")
		webtest.Shot(t, ctx, fmt.Sprintf("tournament-end-nb-%d", width))
	}
}

// checkTourGames fails the test unless the tournament page's status line
// starts with status, and each finished game shows its two players' names
// and scores apart: every name in an element of its own, holding the
// name alone, beside its score, each score right of its name and clear
// of it, and the two players on lines of their own.
func checkTourGames(t *testing.T, ctx context.Context, status string) {
	t.Helper()
	type side struct {
		Name, Score               string
		NameRight, ScoreLeft, Top float64
	}
	type shown struct {
		Status string
		Games  [][]side
		Names  []string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[shown](`({status: document.getElementById('t-status').textContent,
	  names: [...document.querySelectorAll('#t-standings tbody tr')].map((tr) => { const c = tr.children[1].cloneNode(true); c.querySelectorAll('.guest-tag').forEach((e) => e.remove()); return c.textContent; }), // the name without its "(guest)"
	  games: [...document.querySelectorAll('.tour-game.done')].map((g) => [...g.querySelectorAll('.tour-side')].map((s) => {
	    const n = s.querySelector('.tour-name'), c = s.querySelector('.tour-score');
	    return {name: n.textContent, score: c.textContent, nameRight: n.getBoundingClientRect().right, scoreLeft: c.getBoundingClientRect().left, top: n.getBoundingClientRect().top};
	  }))})`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Status, status) {
		t.Errorf("the tournament's status reads %q, want it to start %q", got.Status, status)
	}
	if len(got.Games) != 4 {
		t.Fatalf("%d finished games shown, want the 4 of two rounds", len(got.Games))
	}
	score := regexp.MustCompile(`^[0-9][0-9,\x{a0}\x{202f} ]*$`)
	for _, g := range got.Games {
		if len(g) != 2 || g[0].Top == g[1].Top {
			t.Errorf("a game shows %+v: want two players on lines of their own", g)
			continue
		}
		for _, s := range g {
			if !slices.Contains(got.Names, s.Name) || !score.MatchString(s.Score) || s.NameRight > s.ScoreLeft {
				t.Errorf("a game's player reads name %q score %q (name ends at %.0f, score starts at %.0f): want an entrant's name alone, then its score clear of it", s.Name, s.Score, s.NameRight, s.ScoreLeft)
			}
		}
	}
}

// TestBrowserTournamentForfeits: the tournament page shows a game lost by
// both when its table failed (and the standings count the forfeits), and
// a game waiting for a free table under its creator's cap, in English and
// Norwegian, on a desktop and on phones 390 and 360 px wide.
func TestBrowserTournamentForfeits(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	ts := servertest.StartFile(t, "", server.Options{MaxBotTables: 2, Cast: servertest.BotsCast(func(level string, r rules.Rules) (bot.Strategy, error) {
		if level == "cautious" {
			b, err := bot.New(level, r)
			return webtest.Stuck{Release: release, Inner: b}, err
		}
		return servertest.Breaking(level, r)
	})})
	t.Cleanup(func() { close(release) }) // before the server stops (cleanups run last first)
	ctx := servertest.Context(t, 2*time.Minute)
	ann := servertest.Host(t, ts)
	failed := servertest.NewTournament(t, ctx, ann, "knockout", 4, []map[string]string{{"type": "bot", "level": "expert"}, {"type": "bot", "level": "steady"},
		{"type": "bot", "level": "bold"}, {"type": "bot", "level": "expert"}})
	servertest.WaitTournament(t, ctx, ann, failed.ID, func(tr servertest.Tournament) bool { return tr.Status == "over" })
	waiting := servertest.NewTournament(t, ctx, servertest.Host(t, ts), "round-robin", 6, servertest.BotEntrants(6, "cautious"))
	bctx := webtest.Browser(t, 1100, 900)
	for _, c := range []struct {
		lang                      string
		both, forfeits, freeTable string
	}{
		{"en", "both lose: the table failed", "(1 by forfeit)", "waiting for a free table"},
		{"nb", "begge taper: bordet feilet", "(1 på walkover)", "venter på et ledig bord"},
	} {
		// The language as the switch in the header keeps it in the browser.
		if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/tournaments")); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`localStorage.setItem('lang', `+strconv.Quote(c.lang)+`) === undefined`)); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int64{1100, 390, 360} {
			if err := chromedp.Do(bctx, chromedp.EmulateViewport(width, 844), chromedp.Navigate(ts.URL+"/tournaments/"+failed.ID), chromedp.WaitVisible("#t-standings")); err != nil {
				t.Fatal(err)
			}
			if got := webtest.Texts(t, bctx, ".tour-game.forfeit .result"); len(got) != 1 || got[0] != c.both {
				t.Fatalf("%s, %d px: the forfeited game reads %q, want %q", c.lang, width, got, c.both)
			}
			if got := webtest.Texts(t, bctx, "#t-standings tbody td:nth-child(6)"); strings.Count(strings.Join(got, "|"), c.forfeits) != 2 {
				t.Fatalf("%s, %d px: the standings' losses %q, want two with %q", c.lang, width, got, c.forfeits)
			}
			if wide, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`)); wide {
				t.Fatalf("%s, %d px: the page is wider than the screen (the standings must scroll in their card)", c.lang, width)
			}
			webtest.Shot(t, bctx, fmt.Sprintf("tournament-forfeit-%s-%d", c.lang, width))
			if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/tournaments/"+waiting.ID), chromedp.WaitVisible("#t-standings")); err != nil {
				t.Fatal(err)
			}
			if got := webtest.Texts(t, bctx, ".tour-game .waiting"); len(got) != 3 || strings.Count(strings.Join(got, "|"), c.freeTable) != 1 {
				t.Fatalf("%s, %d px: the games of the first round wait on %q, want one %q", c.lang, width, got, c.freeTable)
			}
			webtest.Shot(t, bctx, fmt.Sprintf("tournament-waiting-%s-%d", c.lang, width))
		}
	}
}

// TestBrowserTournamentCancelled: a tournament cancelled at its start for
// too few entrants, and one cancelled for not filling in time, say so in
// the page's words (English and Norwegian), on its page and in the list,
// not in the server's stored English.
func TestBrowserTournamentCancelled(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{WaitingExpiry: 300 * time.Millisecond, TournamentEvery: 20 * time.Millisecond})
	ctx := servertest.Context(t, 2*time.Minute)
	ann := servertest.Host(t, ts)
	var few servertest.Tournament
	if err := ann.Do(ctx, "POST", "/api/tournaments", map[string]any{"name": "Too few", "format": "swiss", "rules": servertest.ShortRules, "size": 4,
		"start": time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339), "entrants": servertest.BotEntrants(2, "steady")}, &few); err != nil {
		t.Fatal(err)
	}
	notFull := servertest.NewTournament(t, ctx, ann, "round-robin", 8, servertest.BotEntrants(2, "bold"))
	for _, id := range []string{few.ID, notFull.ID} {
		if tr := servertest.WaitTournament(t, ctx, ann, id, func(tr servertest.Tournament) bool { return tr.Status == "over" }); !strings.HasPrefix(tr.Reason, "cancelled: ") {
			t.Fatalf("tournament %s ended %q, want cancelled", id, tr.Reason)
		}
	}
	b := webtest.Browser(t, 390, 844)
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		want := map[string]string{few.ID: c.Msg("web.tour.cancelledFew", "n", 2, "min", 3), notFull.ID: c.Msg("web.tour.cancelledNotFull", "n", 2, "size", 8)}
		webtest.OpenIn(t, b, ts.URL+"/tournaments", code)
		if err := chromedp.Do(b, chromedp.WaitVisible("#tournaments li")); err != nil {
			t.Fatal(err)
		}
		for id, w := range want {
			line := webtest.Texts(t, b, `#tournaments li[data-id="`+id+`"] .muted`)
			if len(line) != 1 || !strings.HasPrefix(line[0], w+" · ") {
				t.Errorf("%s: the list says %q of tournament %s, want it to start %q", code, line, id, w)
			}
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/tournaments/"+id), chromedp.WaitVisible("#t-status")); err != nil {
				t.Fatal(err)
			}
			if got := webtest.Texts(t, b, "#t-status"); len(got) != 1 || !strings.HasPrefix(got[0], w+" · ") {
				t.Errorf("%s: tournament %s's page says %q, want it to start %q", code, id, got, w)
			}
			webtest.Shot(t, b, "tournament-cancelled-"+code+"-"+id)
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/tournaments"), chromedp.WaitVisible("#tournaments li")); err != nil {
				t.Fatal(err)
			}
		}
	}
}
