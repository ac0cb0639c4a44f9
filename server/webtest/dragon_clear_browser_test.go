package webtest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
)

// clearShot saves a screenshot of this file's tests in $DRAGON_SHOTS, or
// in the test's artifact directory with -artifacts (browsertest.KeepShots),
// to look at; otherwise it takes none.
func clearShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if !browsertest.KeepShots() {
		return
	}
	dir := os.Getenv("DRAGON_SHOTS")
	if dir == "" {
		dir = t.ArtifactDir()
	}
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// brawlFrame is what the page shows of a brawl being shown.
type brawlFrame struct {
	Show     string   // data-show: the step, "" when no brawl is shown
	Label    string   // the text under the brawl's throw
	Soldiers []string // the scoreboard's soldiers by seat
	Log      string   // the log's text
	Mine     string
	Phase    string
}

const readBrawl = `(() => {
  const g = document.getElementById('game');
  const l = document.getElementById('brawl-label');
  return {show: g ? g.dataset.show || '' : '', label: l ? l.textContent : '', mine: g ? g.dataset.mine : '', phase: g ? g.dataset.phase : '',
    soldiers: [...document.querySelectorAll('.scoreboard td.num')].map((td) => td.dataset.soldiers),
    log: [...document.querySelectorAll('.log li')].map((li) => li.textContent).join('\n')};
})()`

// TestBrowserDragonBrawlStepByStep: a brawl is shown throw by throw (the
// challenger's, the defender's, the outcome) at the bots' pace, with the
// log and the soldiers catching up only with the outcome; S skips it. The
// page itself records what it shows at each step (a MutationObserver: the
// last of each step, as a player saw it before the next), so the test
// needs not catch each step's 700 ms from outside, which it missed under
// load; with -artifacts it takes a screenshot of each step it catches.
func TestBrowserDragonBrawlStepByStep(t *testing.T) {
	t.Parallel()
	ctx := StartDragonPage(t, 1280, 1000, OneActionBrawls(t))
	var f brawlFrame
	read := func() {
		var err error
		if f, err = chromedp.Run(ctx, chromedp.Evaluate[brawlFrame](readBrawl)); err != nil {
			t.Fatal(err)
		}
	}
	read()
	before := f.Soldiers
	browsertest.Eval[bool](t, ctx, `(() => {
  window.__steps = {};
  new MutationObserver(() => { const f = `+readBrawl+`; if (f.show !== '') window.__steps[f.show] = f; })
    .observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  return true;
})()`)
	if err := chromedp.Do(ctx, browsertest.Click(`button[data-kind="brawl"]`)); err != nil {
		t.Fatal(err)
	}
	shot := map[string]bool{}
	deadline := time.Now().Add(time.Minute)
	for read(); ; read() {
		if browsertest.Eval[bool](t, ctx, `'2' in window.__steps`) && f.Show == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the brawl's show did not end within a minute: steps seen %s", browsertest.Eval[string](t, ctx, `JSON.stringify(Object.keys(window.__steps))`))
		}
		if f.Show != "" && !shot[f.Show] && browsertest.KeepShots() {
			shot[f.Show] = true
			clearShot(t, ctx, "dragon-brawl-"+f.Show)
		}
		time.Sleep(20 * time.Millisecond)
	}
	steps := browsertest.Eval[map[string]brawlFrame](t, ctx, `window.__steps`)
	labels := map[string]string{}
	for show, f := range steps {
		labels[show] = f.Label
		step, _ := strconv.Atoi(show)
		if step < 2 && (strings.Join(f.Soldiers, ",") != strings.Join(before, ",") || strings.Contains(f.Log, "brawl (") || strings.Contains(f.Log, "brawl to a tie")) {
			t.Fatalf("step %d tells the outcome before it is shown: soldiers %v (before %v), log:\n%s", step, f.Soldiers, before, f.Log)
		}
		// The log goes as far as the throw shown.
		lines := strings.Split(f.Log, "\n")
		if last := lines[len(lines)-1]; step < 2 && !strings.HasPrefix(last, []string{"Ann threw", "Smart bot threw"}[step]) {
			t.Fatalf("at step %d the log ends with %q:\n%s", step, last, f.Log)
		}
	}
	for step, want := range map[string]*regexp.Regexp{
		"0": regexp.MustCompile(`^Ann throws for the brawl: \d`),
		"1": regexp.MustCompile(`^Smart bot answers with \d.*, against \d`),
		"2": regexp.MustCompile(`wins the brawl|brawl to a tie`),
	} {
		if !want.MatchString(labels[step]) {
			t.Errorf("step %s of the brawl reads %q, want %s (all: %v)", step, labels[step], want, labels)
		}
	}
	if !strings.Contains(f.Log, "brawl") {
		t.Fatalf("after the show: show %q, log:\n%s", f.Show, f.Log)
	}
	// The next brawl is skipped with S: the outcome is there at once.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#game[data-mine="yes"][data-phase="choose"][data-show=""]`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, browsertest.Click(`button[data-kind="brawl"]`), chromedp.WaitVisible("#brawl-show"), chromedp.KeyEvent("s")); err != nil {
		t.Fatal(err)
	}
	read()
	if f.Show != "" {
		t.Fatalf("S did not skip the brawl: step %s shown", f.Show)
	}
}

// TestBrowserDragonPreviewIsWhatIsAdded: on the phone, the soldiers the
// page says a keep recruits are the soldiers the pool then gains (the
// game's own figure, card bonuses included); a keep forced by the Dragon,
// when one comes up, is chosen, explained and cannot be unchosen.
func TestBrowserDragonPreviewIsWhatIsAdded(t *testing.T) {
	t.Parallel()
	ctx := StartDragonPage(t, 390, 844, nil)
	number := regexp.MustCompile(`^Recruits ([\d,]+) soldiers`)
	checked, forced := 0, 0
	deadline := time.Now().Add(40 * time.Second)
	begun := time.Now()
	for time.Now().Before(deadline) && (checked < 3 || forced == 0 && time.Since(begun) < 15*time.Second) {
		d, err := chromedp.Run(ctx, chromedp.Evaluate[DragonPageData](ReadDragon))
		if err != nil {
			t.Fatal(err)
		}
		if d.Mine != "yes" || d.Show != "" { // a brawl being shown redraws the page at its pace
			time.Sleep(15 * time.Millisecond)
			continue
		}
		click := func(sel string) {
			if err := chromedp.Do(ctx, browsertest.Click(sel, chromedp.NodeVisible)); err != nil {
				t.Fatalf("click %s: %v", sel, err)
			}
		}
		before := d.Version
		event, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById('event') || {textContent: ''}).textContent`))
		switch {
		case d.Phase == "choose":
			click(`button[data-kind="recruit"]`)
		case d.Phase == "keep" && d.Mode == "recruit" && d.Keep == false && len(d.Keeps) > 0 && strings.TrimSpace(event) == "Blank":
			for _, i := range PickKeep(d.Faces, d.Keeps, false) {
				click(`.die-btn[data-i="` + strconv.Itoa(i) + `"]`)
			}
			sel, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('selection').textContent`))
			m := number.FindStringSubmatch(sel)
			if m == nil {
				t.Fatalf("the preview reads %q", sel)
			}
			want, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			pool, _ := strconv.Atoi(strings.ReplaceAll(d.Pool, ",", ""))
			if checked == 0 {
				clearShot(t, ctx, "dragon-preview-phone")
			}
			click("#keep")
			for time.Now().Before(deadline) {
				if d, _ = chromedp.Run(ctx, chromedp.Evaluate[DragonPageData](ReadDragon)); d.Version != before {
					break
				}
				time.Sleep(15 * time.Millisecond)
			}
			if got, _ := strconv.Atoi(strings.ReplaceAll(d.Pool, ",", "")); d.Mine == "yes" && got-pool != want {
				t.Fatalf("the preview said %q, the pool went from %d to %d", sel, pool, got)
			}
			checked++
			continue
		case d.Phase == "keep" && d.Mode == "recruit" && strings.TrimSpace(event) == "Dragon!" && d.Keep:
			// The forced keep: chosen for the player, explained, and a
			// click on a chosen die does not unchoose it.
			chosen := `[...document.querySelectorAll('.die-btn.sel')].length`
			n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](chosen))
			click(".die-btn.sel")
			m, _ := chromedp.Run(ctx, chromedp.Evaluate[int](chosen))
			sel, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('selection').textContent`))
			if n == 0 || m != n || !strings.HasPrefix(sel, "The Dragon eats") {
				t.Fatalf("the forced keep: %d dice chosen, %d after a click, the line reads %q", n, m, sel)
			}
			forced++
			click("#keep")
		case d.Phase == "keep" && d.Keep:
			click("#keep")
		case d.Phase == "keep" && len(d.Keeps) > 0:
			for _, i := range PickKeep(d.Faces, d.Keeps, d.Mode == "battle") {
				click(`.die-btn[data-i="` + strconv.Itoa(i) + `"]`)
			}
			click("#keep")
		case d.Phase == "keep":
			click(`button[data-kind="accept"]`)
		case d.Phase == "roll" || d.Phase == "evaded":
			if HasKind(d.Kinds, "stop") && checked > 0 {
				click("#stop")
			} else {
				click("#roll")
			}
		case d.Phase == "discard":
			click(`button[data-kind="discard"]`)
		case d.Phase == "brawl": // defending with a card the bot's brawl
			click("#pass")
		case d.Phase == "over":
			t.Skip("the game ended before three keeps were checked")
		}
		waited := time.Now()
		for time.Now().Before(deadline) {
			if d, _ = chromedp.Run(ctx, chromedp.Evaluate[DragonPageData](ReadDragon)); d.Version != before {
				break
			}
			time.Sleep(15 * time.Millisecond)
		}
		if time.Since(waited) > 2*time.Second {
			t.Logf("waited %v after %+v (event %q)", time.Since(waited), d, event)
		}
	}
	if checked == 0 {
		t.Fatal("no recruiting keep on a Blank was checked")
	}
	t.Logf("%d previews checked, %d forced keeps under the Dragon", checked, forced)
}
