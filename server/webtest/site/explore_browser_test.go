package site

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// plotted is what the page drew, read from the charts' data attributes.
type plotted struct {
	Win []struct {
		Me, Them int
		P        float64
	}
	Turn []struct {
		Dice, Total int
		Decision    string
	}
	Duel []struct {
		Series string
		X, Y   float64
	}
	Best string
	Bots map[string]string
}

const readPlotted = `(() => {
  const num = (e, k) => Number(e.getAttribute(k));
  return {
    win: [...document.querySelectorAll('#win-map rect')].map((e) => ({me: num(e, 'data-me'), them: num(e, 'data-them'), p: num(e, 'data-p')})),
    turn: [...document.querySelectorAll('#turn-map rect')].map((e) => ({dice: num(e, 'data-dice'), total: num(e, 'data-total'), decision: e.getAttribute('data-decision')})),
    duel: [...document.querySelectorAll('#duel-chart circle')].map((e) => ({series: e.getAttribute('data-series'), x: num(e, 'data-x'), y: num(e, 'data-y')})),
    best: (document.querySelector('#position li.best') || {dataset: {}}).dataset.text || '',
    bots: Object.fromEntries([...document.querySelectorAll('#position tr[data-level]')].map((e) => [e.dataset.level, e.querySelector('td').textContent])),
  };
})()`

// cardTops reads where the cards below the charts begin on the page.
const cardTops = `['turn-card', 'bank-card', 'pos-card'].map((id) => document.getElementById(id).getBoundingClientRect().top + scrollY)`

// lowerCards are the explorer's cards below the position's, the last to
// be pushed down by anything drawn above them.
var lowerCards = []string{"cmp-card", "pub-card"}

// lowerTops reads where lowerCards begin on the page.
var lowerTops = `['cmp-card', 'pub-card'].map((id) => document.getElementById(id).getBoundingClientRect().top + scrollY)`

// watchShown, run before the explorer's scripts, keeps in
// window.shownTops where lowerCards began in the first frame the page
// showed itself (html.ready).
var watchShown = `(() => { const tick = () => { if (document.documentElement.classList.contains('ready')) { window.shownTops = ` + lowerTops + `; return; } requestAnimationFrame(tick); }; requestAnimationFrame(tick); })()`

// TestBrowserExplorer opens the explorer on house rules on a desktop and a
// phone, waits through the preparing of the duel table, checks every
// plotted value against an independent solve of the same rules, and takes
// a screenshot of every chart.
func TestBrowserExplorer(t *testing.T) {
	t.Parallel()
	r := servertest.ExploreRules()
	want, err := solve.SolveDuel(r, solve.DuelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := solve.SolveSolo(r)
	if err != nil {
		t.Fatal(err)
	}
	query := positionQuery(t, r)
	for vi, size := range []struct {
		name     string
		w, h     int64
		rows     int // scores per axis the page asks for
		turnStep int // the turn map's step
	}{{"desktop", 1280, 900, 40, 50}, {"phone", 390, 844, 20, 100}} {
		t.Run(size.name, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			srv := servertest.StartExplorer(t, solved.Limits{Solves: 1, Queue: 8}) // its own: the table is prepared in each variant
			page := srv.URL + query
			ctx := webtest.Browser(t, size.w, size.h)
			openKeepingPlaces(t, ctx, page, "explore-preparing-"+size.name)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[plotted](readPlotted))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Win) != size.rows*size.rows {
				t.Fatalf("%d cells in the win map, want %d", len(got.Win), size.rows*size.rows)
			}
			for _, c := range got.Win {
				p, err := want.WinProbability(c.Me, c.Them, 0, 0)
				if err != nil || math.Abs(p-c.P) > 1e-9 {
					t.Fatalf("the map shows %v at %d-%d, the solver %v (%v)", c.P, c.Me, c.Them, p, err)
				}
			}
			if len(got.Turn) != 6*3000/size.turnStep {
				t.Fatalf("%d cells in the turn map", len(got.Turn))
			}
			for _, c := range got.Turn {
				ch, err := want.Choice(solve.DuelPosition{Me: 1000, Them: 1500, Total: c.Total, Dice: c.Dice % r.Dice})
				if err != nil {
					t.Fatal(err)
				}
				bank := !math.IsNaN(ch.Bank) && (ch.BankBest || math.IsNaN(ch.Throw))
				if (c.Decision == explore.Bank || c.Decision == explore.OnlyBank) != bank {
					t.Fatalf("%d dice at %d: the map says %s, the solver %+v", c.Dice, c.Total, c.Decision, ch)
				}
			}
			// The duel thresholds drawn are those of the solver's choices.
			dt, err := explore.NewDuelThresholds(want, pol, 1000, []int{0})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, pt := range got.Duel {
				for i, n := range dt.Dice {
					if pt.Series == diceWord(n) && pt.X == -1000 {
						if int(pt.Y) != dt.BankAt[i][0] {
							t.Errorf("%s at 0: drawn %v, solver %d", pt.Series, pt.Y, dt.BankAt[i][0])
						}
						checked++
					}
				}
			}
			if checked != 6 {
				t.Errorf("%d duel thresholds checked at their score 0, want 6", checked)
			}
			adv, err := advise.New(r, want, pol)
			if err != nil {
				t.Fatal(err)
			}
			a, err := adv.Position(advise.Position{Me: 1000, Them: 1500, Total: 300, Dice: 3})
			if err != nil {
				t.Fatal(err)
			}
			if best := a.Best().Action.String(); got.Best != best {
				t.Errorf("the page's best choice is %q, the advisor's %q", got.Best, best)
			}
			if got.Bots["perfect"] != got.Best {
				t.Errorf("perfect would %q, best is %q", got.Bots["perfect"], got.Best)
			}
			if len(got.Bots) != len(bot.LevelNames()) {
				t.Errorf("bots: %v", got.Bots)
			}
			// The keyboard moves over the map: from the bottom left, one
			// step right and one up.
			if err := chromedp.Do(ctx, chromedp.Focus("#win-map svg"), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowUp)); err != nil {
				t.Fatal(err)
			}
			step := 2000 / size.rows
			cellText, err := chromedp.Run(ctx, chromedp.Text("#cell"))
			if err != nil {
				t.Fatal(err)
			}
			p, _ := want.WinProbability(step, step, 0, 0)
			if wantText := fmt.Sprintf("me %d, them %d: %.2f%% to win", step, step, 100*p); !strings.HasPrefix(cellText, wantText) {
				t.Errorf("after the arrow keys the cell reads %q, want %q…", cellText, wantText)
			}
			// Compare the rules above with cardgames (whose table is not
			// solved: the comparison says so and goes on).
			if err := chromedp.Do(ctx, browsertest.Click(`#compare-list input[value="cardgames"]`), browsertest.Click("#compare-go"),
				chromedp.WaitVisible("#compare table"), chromedp.WaitVisible("#compare-chart circle")); err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"win-card", "turn-card", "bank-card", "pos-card", "cmp-card"} {
				webtest.Chart(t, ctx, id, size.name+"-"+id)
			}
			webtest.Shot(t, ctx, "explore-"+size.name)
		})
	}
}

// positionQuery is the explorer's address of house rules r at the
// position the explorer tests look at: 1,000 to 1,500, 300 in the turn and
// three dice to throw.
func positionQuery(t *testing.T, r rules.Rules) string {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return "/explore?house=" + url.QueryEscape(string(raw)) + "&me=1000&them=1500&turn=300&dice=3"
}

// openKeepingPlaces opens the explorer at page, on a server that prepares
// the rules' two-player table, and checks that nothing below moves: not
// once the page shows (html.ready; the first answer, the position's
// choices and the solo table, is in), not when the charts come (their
// places are kept while the table is prepared). It takes a screenshot
// (shot) while the table is prepared and returns once the charts are in.
func openKeepingPlaces(t *testing.T, ctx context.Context, page, shot string) {
	t.Helper()
	browsertest.OnEveryPage(t, ctx, watchShown)
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible("#win-map .x-wait p"), chromedp.WaitVisible("#position li.best")); err != nil {
		t.Fatal(err)
	}
	before := browsertest.Eval[[]float64](t, ctx, cardTops)
	// Drawn after the page showed, the first answer moved the published
	// numbers' button 140 to 250 px.
	shown := browsertest.Eval[[]float64](t, ctx, `window.shownTops || []`)
	now := browsertest.Eval[[]float64](t, ctx, lowerTops)
	if len(shown) != len(lowerCards) {
		t.Fatalf("the page never showed itself (html.ready): %v", shown)
	}
	for i, id := range lowerCards {
		if d := math.Abs(now[i] - shown[i]); d > 2 {
			t.Errorf("the %s moved %.0f px after the page showed (%.0f -> %.0f)", id, d, shown[i], now[i])
		}
	}
	webtest.Shot(t, ctx, shot)
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#win-map rect"), chromedp.WaitVisible("#position li.best"), chromedp.WaitVisible("#duel-chart circle")); err != nil {
		t.Fatal(err)
	}
	after := browsertest.Eval[[]float64](t, ctx, cardTops)
	for i, id := range []string{"turn-card", "bank-card", "pos-card"} {
		if d := math.Abs(after[i] - before[i]); d > 2 {
			t.Errorf("the %s moved %.0f px when the charts came (%.0f -> %.0f)", id, d, before[i], after[i])
		}
	}
}

// TestBrowserExplorerKeepsPlacesOfOtherShapes: rules whose unit is 100
// and which throw five dice (a turn map of 30 columns and five rows, a
// duel chart of five lines, where the explorer's first guess is 60 and
// six on a desktop) keep the charts' places as exactly while their table
// is prepared, on a desktop and a phone.
func TestBrowserExplorerKeepsPlacesOfOtherShapes(t *testing.T) {
	t.Parallel()
	r := servertest.ExploreRules()
	r.Dice = 5
	r.Scoring.Single["5"] = 100 // every score a multiple of 100
	query := positionQuery(t, r)
	for vi, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			srv := servertest.StartExplorer(t, solved.Limits{Solves: 1, Queue: 8})
			ctx := webtest.Browser(t, size.w, size.h)
			openKeepingPlaces(t, ctx, srv.URL+query, "explore-shapes-preparing-"+size.name)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[plotted](readPlotted))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Turn) != 5*30 {
				t.Errorf("%d cells in the turn map, want 5 dice times 30 totals", len(got.Turn))
			}
		})
	}
}

// TestBrowserHintLinksToTheExplorer: the hint of a table links to the
// explorer at the table's rules and the position of the player to act.
func TestBrowserHintLinksToTheExplorer(t *testing.T) {
	t.Parallel()
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 8, NoWait: true})
	t.Cleanup(ts.Close)
	srv := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, QuickRules: servertest.ExploreRules(), Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}, Explorer: server.NewExplorer(ts)})
	ctx := webtest.Browser(t, 1280, 900)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible("#play-now"),
		chromedp.SendKeys("#name", "Ann"),
		browsertest.Click("#play-now"),
		chromedp.WaitVisible("#game .scoreboard"),
	); err != nil {
		t.Fatal(err)
	}
	var href string
	for deadline := time.Now().Add(2 * time.Minute); href == "" && time.Now().Before(deadline); {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[webtest.GameData](webtest.ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case g.Phase == "over":
			t.Fatal("the game ended before the hint was asked")
		case g.Mine != "yes":
			time.Sleep(30 * time.Millisecond) // the bot's turn: poll the page
		case g.Phase != "play":
			webtest.ClickNow(t, ctx, "#roll")
			time.Sleep(50 * time.Millisecond)
		default:
			if err := chromedp.Do(ctx, browsertest.Click("#hint"), chromedp.WaitVisible("#explore-link")); err != nil {
				t.Fatal(err)
			}
			if href, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('explore-link').href`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	u, err := url.Parse(href)
	if err != nil || u.Path != "/explore" || u.Query().Get("table") == "" || u.Query().Get("me") == "" || u.Query().Get("dice") == "" {
		t.Fatalf("the hint links to %q", href)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(href), chromedp.WaitVisible("#win-map rect"), chromedp.WaitVisible("#position li.best")); err != nil {
		t.Fatal(err)
	}
	type form struct{ Rules, Me, Them, Turn, Dice, Throw string }
	f, err := chromedp.Run(ctx, chromedp.Evaluate[form](`(() => { const v = (id) => document.getElementById(id).value;
	  return {rules: document.getElementById('rules').selectedOptions[0].textContent, me: v('me'), them: v('them'), turn: v('turn'), dice: v('dice'), throw: v('throw')}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if f.Rules != "this table's rules (small)" || f.Me != q.Get("me") || f.Them != q.Get("them") || f.Turn != q.Get("turn") || f.Dice != q.Get("dice") || f.Throw != q.Get("throw") {
		t.Errorf("the explorer shows %+v for %s", f, href)
	}
	webtest.Shot(t, ctx, "explore-from-hint")
}

// TestBrowserExplorerPresets opens the explorer on every preset with a duel
// cache too small for any table: the page says why there are no
// two-player values, and its solo bank thresholds are the solver's.
func TestBrowserExplorerPresets(t *testing.T) {
	t.Parallel()
	srv := servertest.StartExplorer(t, solved.Limits{Solves: 1, Queue: 8, DuelCache: 1 << 10})
	ctx := webtest.Browser(t, 1280, 900)
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		pol, err := solve.SolveSolo(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/explore?rules="+name), chromedp.WaitVisible("#solo-chart circle"), chromedp.WaitVisible("#win-map p")); err != nil {
			t.Fatal(err)
		}
		type point struct {
			Series string
			X, Y   int
		}
		pts, err := chromedp.Run(ctx, chromedp.Evaluate[[]point](`[...document.querySelectorAll('#solo-chart circle')].map((e) =>
		  ({series: e.getAttribute('data-series'), x: Number(e.getAttribute('data-x')), y: Number(e.getAttribute('data-y'))}))`))
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for streak := 0; streak < pol.Streaks(); streak++ {
			for n := 1; n <= r.Dice; n++ {
				for _, entry := range []bool{false, true} {
					if entry && r.Turn.EntryMinimum == 0 {
						continue
					}
					at, ok, _ := pol.BankAtStreak(streak, n)
					series := "on the board"
					if r.Turn.FarklePenalty.Count > 0 {
						series = farklesInARow(streak)
					}
					if entry {
						at, ok, _ = pol.EntryBankAt(streak, n)
						series = "to get on the board, " + farklesInARow(streak)
					}
					if !ok || at >= r.Game.Target {
						continue
					}
					want++
					found := false
					for _, p := range pts {
						found = found || p.Series == series && p.X == n && p.Y == at
					}
					if !found {
						t.Errorf("%s: no point %d dice → %d in %q", name, n, at, series)
					}
				}
			}
		}
		if len(pts) != want {
			t.Errorf("%s: %d points drawn, the solver has %d thresholds", name, len(pts), want)
		}
		msg, err := chromedp.Run(ctx, chromedp.Text("#status"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, "No exact two-player values for "+name) {
			t.Errorf("%s: status %q", name, msg)
		}
	}
	webtest.Shot(t, ctx, "explore-preset-without-duel")
}

// farklesInARow is the explorer's name of a streak of farkles.
func farklesInARow(n int) string {
	if n == 1 {
		return "1 farkle in a row"
	}
	return webtest.Itoa(n) + " farkles in a row"
}

// diceWord is the explorer's name of a number of dice: "1 die", "2 dice".
func diceWord(n int) string {
	if n == 1 {
		return "1 die"
	}
	return webtest.Itoa(n) + " dice"
}
