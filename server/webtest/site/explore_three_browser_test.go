package site

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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

// threeRow is a row of the explorer's three-player table as the page
// shows it.
type threeRow struct {
	Rules, Target, State, Start string
	Cells                       []string
	Bar                         bool // a progress bar
}

const readThree = `[...document.querySelectorAll('#three tbody tr')].map((e) => ({rules: e.dataset.rules, target: e.dataset.target,
  state: e.dataset.state, start: e.dataset.start || '', cells: [...e.children].map((c) => c.textContent.trim()), bar: !!e.querySelector('progress')}))`

// TestBrowserExplorerThreePlayers: the explorer's published numbers show
// the published three-player games as the server has their tables. The
// one a three-player solve left in the cache directory (cardgames with a
// third seat to 2,000, solved here) is "being prepared", with a progress
// bar, while the server reads it, then shows each seat's chance from the
// start, the orbits and the fair compensation as the table gives them;
// those larger than the server solves say so. On a desktop and on phones
// of 390 and 360 pixels, in English and Norwegian, nothing wider than the
// screen.
func TestBrowserExplorerThreePlayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	game := explore.ThreeGame{Preset: "cardgames", Target: 2000}
	th, err := solve.SolveThree(game.Rules(), solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := solve.SaveThree(dir, th); err != nil {
		t.Fatal(err)
	}
	want := explore.ThreeResultOf(th)
	tabs := solved.NewLimitedTables(dir, solved.Limits{NoWait: true, Solves: 1, Queue: 8, ThreeSolve: 1000})
	t.Cleanup(tabs.Close)
	reading, release := make(chan struct{}, 1), make(chan struct{})
	var released bool
	tabs.OnJob = func(kind string, r rules.Rules) {
		if kind == "three" {
			t.Errorf("a three-player solve of %s to %d started", r.Name, r.Game.Target)
		}
		if kind == "load3" {
			reading <- struct{}{}
			<-release
		}
	}
	defer func() {
		if !released {
			close(release)
		}
	}()
	srv := servertest.StartFile(t, "", server.Options{Explorer: server.NewExplorer(tabs)})
	for vi, v := range []struct {
		lang string
		w, h int64
	}{{"en", 1280, 900}, {"nb", 390, 844}, {"en", 360, 740}, {"nb", 1280, 900}, {"en", 390, 844}, {"nb", 360, 740}} {
		name := v.lang + "-" + strconv.FormatInt(v.w, 10)
		t.Run(name, func(t *testing.T) {
			if vi > 0 && !released {
				t.Skip("the first variant failed")
			}
			testflags.SkipVariantUnlessLong(t, vi)
			ctx := webtest.Browser(t, v.w, v.h)
			webtest.OpenIn(t, ctx, srv.URL+"/explore", v.lang)
			if err := chromedp.Do(ctx, browsertest.Click("#published-go")); err != nil {
				t.Fatal(err)
			}
			for end := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#three tbody tr') ? 'shown' : (document.querySelector('#published .error') || {}).textContent || ''`))
				if err != nil {
					t.Fatal(err)
				}
				if got == "shown" {
					break
				}
				if got != "" || time.Now().After(end) {
					t.Fatalf("the published numbers did not come: %q", got)
				}
			}
			rows := func() map[string]threeRow {
				got, err := chromedp.Run(ctx, chromedp.Evaluate[[]threeRow](readThree))
				if err != nil {
					t.Fatal(err)
				}
				out := map[string]threeRow{}
				for _, r := range got {
					out[r.Rules+"/"+r.Target] = r
				}
				if len(out) != len(explore.PublishedThree) {
					t.Fatalf("rows %+v, want one a published game", got)
				}
				return out
			}
			key := "cardgames/2000"
			if vi == 0 {
				// The table is being read: the page says so.
				select {
				case <-reading:
				case <-ctx.Done(): // the browser's time is up: say so, not hang the run
					t.Fatal("the server never started reading the three-player table")
				}
				for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					r := rows()[key]
					if r.State == "preparing" && r.Bar && strings.Contains(r.Cells[1], "its table is being prepared") {
						break
					}
					if time.Now().After(end) {
						t.Fatalf("while the table is read the row is %+v", r)
					}
				}
				webtest.Shot(t, ctx, "three-preparing-"+name)
				close(release)
				released = true
			}
			// Asked again while preparing: the figures once it is read.
			var r threeRow
			for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if r = rows()[key]; r.State == "ready" {
					break
				}
				if time.Now().After(end) {
					t.Fatalf("the row stays %+v", r)
				}
			}
			start := strings.Fields(r.Start)
			for i, s := range start {
				p, err := strconv.ParseFloat(s, 64)
				if err != nil || math.Abs(p-want.Start[i]) > 1e-12 {
					t.Errorf("seat %d: the page has %q, the table %v", i+1, s, want.Start[i])
				}
			}
			pct := func(p float64) string {
				s := strconv.FormatFloat(100*p, 'f', 2, 64)
				if v.lang == "nb" {
					return strings.Replace(s, ".", ",", 1) + "\u00a0%"
				}
				return s + "%"
			}
			wantStart := pct(want.Start[0]) + " / " + pct(want.Start[1]) + " / " + pct(want.Start[2])
			wantFair := "seat 2 +" + strconv.Itoa(want.Fair[1]) + ", seat 3 +" + strconv.Itoa(want.Fair[2]) + ": " + pct(want.FairWins[0])
			wantOrbits := strconv.Itoa(want.Orbits) + " (" + strconv.Itoa(want.Mixed)
			if v.lang == "nb" {
				wantFair = strings.NewReplacer("seat", "plass").Replace(wantFair)
			}
			if len(r.Cells) != 4 || r.Cells[1] != wantStart || !strings.HasPrefix(r.Cells[2], wantOrbits) || !strings.HasPrefix(r.Cells[3], wantFair) {
				t.Errorf("the row of %s: %q, want %q, %q…, %q…", key, r.Cells, wantStart, wantOrbits, wantFair)
			}
			// Those the server does not make say why.
			for k, r := range rows() {
				if k == key {
					continue
				}
				why := "too large for this server's budget"
				if v.lang == "nb" {
					why = "for stor for denne serverens budsjett"
				}
				if r.State != "unavailable" || !strings.Contains(r.Cells[1], why) {
					t.Errorf("%s: %+v, want unavailable: %s", k, r, why)
				}
			}
			webtest.WantFits(t, ctx, "the explorer's published numbers")
			if v.w >= 1280 {
				// the published claims are sentences: on a desktop their
				// table wraps them within its card, with nothing to scroll
				over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => { const s = document.querySelector('#published .x-scroll'); return s ? s.scrollWidth - s.clientWidth : -1; })()`))
				if err != nil || over != 0 {
					t.Errorf("the published claims' table is %d px wider than its card (-1: none) %v", over, err)
				}
			}
			if v.lang == "nb" {
				// the section's own words (the published two-player
				// claims above it are quoted in English)
				text := strings.ReplaceAll(webtest.Text(t, ctx, "#three"), "--players", "") // a command's flag
				for _, e := range webtest.EnglishPhrases(t) {
					if regexp.MustCompile(`(^|[^\pL])` + regexp.QuoteMeta(e) + `($|[^\pL])`).MatchString(text) {
						t.Errorf("the three-player numbers in Norwegian show English: %q in %q", e, text)
					}
				}
			}
			webtest.Chart(t, ctx, "pub-card", "three-"+name)
		})
	}
}
