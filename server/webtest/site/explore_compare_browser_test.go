package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// watchCompare wraps the page's fetch: each request for a comparison
// records whether the comparison shown meanwhile was greyed (and whether
// there was one), in window.__cmp; each request for the maps, whether the
// maps shown were greyed, in window.__map.
const watchCompare = `(() => {
  window.__cmp = [];
  window.__map = [];
  const f = window.fetch;
  window.fetch = (u, o) => {
    if (String(u).includes('/api/explore/compare')) {
      const shown = document.querySelector('#compare table');
      window.__cmp.push({shown: !!shown, greyed: document.getElementById('compare').classList.contains('x-stale')});
    }
    if (String(u).includes('/api/explore/map')) {
      window.__map.push({shown: !!document.querySelector('#win-map rect'), greyed: document.getElementById('win-card').classList.contains('x-stale')});
    }
    return f(u, o);
  };
  return true;
})()`

// TestBrowserExplorerComparesAgainWhilePreparing: the rule comparison of a
// rule set whose two-player table is still being prepared says so and asks
// again by itself, the answer shown greyed while the next is asked for,
// until the table is there: then it shows the first player's chance to
// win, the solver's. A position picked on the map greys the maps shown
// until its own come. The explorer's header has the site's menu and the
// language switch, which shows the page in Norwegian: all it draws then,
// in Norwegian words.
func TestBrowserExplorerComparesAgainWhilePreparing(t *testing.T) {
	t.Parallel()
	// Room for the duel tables of small rules, none for classic's: its
	// column says why, at once, and nothing solves it in the background.
	srv := servertest.StartExplorer(t, solved.Limits{Solves: 1, Queue: 8, DuelCache: 8 << 20})
	above, compared := servertest.ExploreRules(), servertest.ExploreRules()
	compared.Name, compared.Game.Target = "compare-me", 1500
	want, err := solve.SolveDuel(compared, solve.DuelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rawAbove, _ := json.Marshal(above)
	rawCompared, _ := json.Marshal(compared)
	ctx := webtest.Browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/explore?house="+url.QueryEscape(string(rawAbove))), chromedp.WaitVisible("#win-map rect")); err != nil {
		t.Fatal(err)
	}
	// The rules above become the compared ones, whose table nobody asked
	// for yet: the comparison is the first to.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](watchCompare)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue("#house", string(rawCompared)), browsertest.Click(`#compare-list input[value="classic"]`),
		browsertest.Click("#compare-go"), chromedp.WaitVisible("#compare-again")); err != nil {
		t.Fatal(err)
	}
	again, err := chromedp.Run(ctx, chromedp.Text("#compare-again"))
	if err != nil {
		t.Fatal(err)
	}
	if wantText := lang.Get("en").Msg("web.x.cmpAgain", "rules", "compare-me", "s", 2); again != wantText {
		t.Errorf("while the table is prepared the comparison says %q, want %q", again, wantText)
	}
	shotOf(t, ctx, "#cmp-card", "explore-compare-preparing")
	en := lang.Get("en")
	cell := fmt.Sprintf(`(() => {
	  const heads = [...document.querySelectorAll('#compare thead th')].map((th) => th.textContent);
	  const col = heads.indexOf('compare-me');
	  const row = [...document.querySelectorAll('#compare tbody tr')].find((tr) => tr.querySelector('th').textContent === %q);
	  return col > 0 && row ? row.children[col].textContent : '';
	})()`, en.Msg("web.x.pFirst"))
	wantCell := en.Pct(want.FirstPlayerWins(), 2)
	var got string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && got != wantCell; time.Sleep(50 * time.Millisecond) { // polling the page, with a deadline: it asks again after 2 s
		if got, err = chromedp.Run(ctx, chromedp.Evaluate[string](cell)); err != nil {
			t.Fatal(err)
		}
	}
	if got != wantCell {
		t.Fatalf("the comparison's first player for compare-me reads %q, want the solver's %q", got, wantCell)
	}
	shotOf(t, ctx, "#cmp-card", "explore-compare-ready")
	type ask struct{ Shown, Greyed bool }
	asks, err := chromedp.Run(ctx, chromedp.Evaluate[[]ask](`window.__cmp`))
	if err != nil {
		t.Fatal(err)
	}
	if len(asks) < 2 || len(asks) > 8 {
		t.Fatalf("the comparison was asked %d times, want again after the first, at most 8: %+v", len(asks), asks)
	}
	for i, a := range asks[1:] {
		if !a.Shown || !a.Greyed {
			t.Errorf("asking again (%d): the comparison shown %v, greyed %v; want the old answer greyed", i+2, a.Shown, a.Greyed)
		}
	}
	if greyed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('compare').classList.contains('x-stale')`)); err != nil || greyed {
		t.Errorf("the answer drawn is still greyed (%v)", err)
	}
	// A position picked on the map greys the maps shown until its own come.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#win-map rect').dispatchEvent(new MouseEvent('click', {bubbles: true}))`)); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx, "the maps of the position picked", `window.__map.length === 1 && !!document.querySelector('#position li.best') && !document.getElementById('win-card').classList.contains('x-stale')`)
	if m, err := chromedp.Run(ctx, chromedp.Evaluate[[]ask](`window.__map`)); err != nil || len(m) != 1 || !m[0].Shown || !m[0].Greyed {
		t.Errorf("asking for a position's maps: %+v %v; want the maps shown greyed meanwhile", m, err)
	}
	// The header: the site's menu and the language switch.
	menu, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('header nav a')].map((a) => a.getAttribute('href'))`))
	if err != nil || len(menu) < 7 {
		t.Fatalf("the explorer's menu leads to %q (%v)", menu, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById('lang'); s.value = 'nb'; return s.dispatchEvent(new Event('change')); })()`)); err != nil {
		t.Fatal(err)
	}
	title := lang.Get("nb").Msg("web.x.title")
	webtest.WaitPage(t, ctx, "the explorer in Norwegian", fmt.Sprintf(`document.querySelector('h1').textContent === %q`, title))
	// Everything it draws, in Norwegian: the maps, the position, a
	// comparison.
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#win-map rect"), chromedp.WaitVisible("#position li.best"), browsertest.Click(`#compare-list input[value="classic"]`),
		browsertest.Click("#compare-go"), chromedp.WaitVisible("#compare table")); err != nil {
		t.Fatal(err)
	}
	webtest.CheckNorwegian(t, ctx, webtest.SitePage{Name: "explorer", Path: "/explore", Ready: "#compare table"}, webtest.EnglishPhrases(t))
	// Why classic has no exact values, in Norwegian: the server's English
	// reason (asked here of the API) in the catalogue's words.
	var cmp []struct {
		Name     string
		DuelNote string `json:"duel_note"`
	}
	if err := servertest.ClientWithToken(t, srv.URL, "").Do(servertest.Context(t, time.Minute), "POST", "/api/explore/compare", map[string]any{"rules": []string{"classic", "pocket-farkel"}}, &cmp); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^its table would need (\S+ \S+), more than the .+ of (\S+ \S+)$`).FindStringSubmatch(cmp[0].DuelNote)
	if m == nil {
		t.Fatalf("classic's reason %q: not the one the page reads", cmp[0].DuelNote)
	}
	nb := lang.Get("nb")
	fair := fmt.Sprintf(`(() => {
	  const col = [...document.querySelectorAll('#compare thead th')].map((th) => th.textContent).indexOf('classic');
	  const row = [...document.querySelectorAll('#compare tbody tr')].find((tr) => tr.querySelector('th').textContent === %q);
	  return col > 0 && row ? row.children[col].textContent : '';
	})()`, nb.Msg("cli.explore.cmp.fair"))
	// its sizes with the Norwegian decimal mark, as the command line's
	wantWhy := nb.Msg("web.why.need", "need", solved.SizeIn(nb, m[1]), "limit", solved.SizeIn(nb, m[2]))
	if !strings.Contains(wantWhy, ",") {
		t.Fatalf("the sizes of %q have no decimal mark to check", cmp[0].DuelNote)
	}
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](fair)); err != nil || got != wantWhy {
		t.Errorf("classic's fair compensation in Norwegian reads %q (%v), want %q", got, err, wantWhy)
	}
	shotOf(t, ctx, "#cmp-card", "explore-compare-nb")
}

// shotOf saves a screenshot of the element sel alone (a card of a long
// page), as shot does of the page, when screenshots are kept
// (browsertest.KeepShots).
func shotOf(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	if !browsertest.KeepShots() {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(sel))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
