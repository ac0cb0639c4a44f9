package webtest

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
)

type dragonPageData struct {
	Phase, Mode, Mine string
	Version           int
	Faces             []int
	Kinds             []string // the data-kind of every enabled button
	Pool              string
	Keep              bool    // the Keep button is enabled
	Keeps             [][]int // the legal keeps (data-keeps)
	Show              string  // the step of a brawl being shown (data-show), "" for none
}

const readDragon = `(() => {
  const g = document.getElementById('game');
  if (!g) return {phase: '', mode: '', mine: '', version: -1, faces: [], kinds: [], pool: '', keep: false};
  const k = document.getElementById('keep');
  return {phase: g.dataset.phase, mode: g.dataset.mode, mine: g.dataset.mine, version: Number(g.dataset.version),
    faces: [...document.querySelectorAll('.die-btn')].map((d) => Number(d.dataset.face)),
    kinds: [...document.querySelectorAll('button[data-kind]:not(:disabled)')].map((b) => b.dataset.kind),
    pool: (document.getElementById('pool') || {}).textContent || '', keep: !!k && !k.disabled, keeps: JSON.parse(g.dataset.keeps || '[]'), show: g.dataset.show || ''};
})()`

func hasKind(kinds []string, k string) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// pickKeep returns the indices of the dice of a legal keep: in battle the
// one of fewest dice (the cheapest), else the one of most dice.
func pickKeep(faces []int, keeps [][]int, battle bool) []int {
	var best []int
	for _, k := range keeps {
		if best == nil || battle && len(k) < len(best) || !battle && len(k) > len(best) {
			best = k
		}
	}
	used := make([]bool, len(faces))
	var out []int
	for _, f := range best {
		for i, g := range faces {
			if g == f && !used[i] {
				used[i] = true
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// TestBrowserPlaysDragonFarkle creates a Dragon Farkle table against the
// smart bot from the home page and plays it by clicking: actions, dice,
// keep, throw and stop, the hint; to the end when it ends in time.
func TestBrowserPlaysDragonFarkle(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 10 * time.Millisecond})
	ctx := browser(t, 1280, 1000)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-dragon"),
		chromedp.SendKeys("#name", "Ann"),
		browsertest.Click("#play-dragon"),
		chromedp.WaitVisible("#game .scoreboard"),
		chromedp.WaitVisible(".odds-chart .curve"),
	); err != nil {
		t.Fatal(err)
	}
	var d dragonPageData
	var err error
	read := func() {
		if d, err = chromedp.Run(ctx, chromedp.Evaluate[dragonPageData](readDragon)); err != nil {
			t.Fatal(err)
		}
	}
	// The page redraws when messages come, so a node found by
	// chromedp.Click may be gone by the time it is clicked: click what the
	// page shows at the moment, waiting a little for it to come back.
	click := func(sel string) {
		for end := time.Now().Add(5 * time.Second); !clickNow(t, ctx, sel); {
			if time.Now().After(end) {
				t.Fatalf("click %s: not on the page", sel)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	myActions, diceClicks, shots, games := 0, 0, 0, 1
	battleShot := false
	deadline := time.Now().Add(75 * time.Second)
	for time.Now().Before(deadline) {
		read()
		if d.Phase == "over" && myActions < 10 {
			// The bot slew the dragon early: a rematch from the end screen.
			games++
			shot(t, ctx, "dragon-over")
			before := d.Version
			if err := chromedp.Do(ctx, browsertest.Click("#rematch")); err != nil {
				t.Fatal(err)
			}
			for time.Now().Before(deadline) && (d.Phase == "over" || d.Version == before && d.Phase != "choose") {
				time.Sleep(20 * time.Millisecond)
				read()
			}
			continue
		}
		if d.Phase == "over" {
			break
		}
		if d.Mine != "yes" || d.Show != "" { // a brawl being shown redraws the page at its pace
			time.Sleep(20 * time.Millisecond)
			continue
		}
		before := d.Version
		if d.Mode == "battle" && d.Phase == "keep" && !battleShot {
			shot(t, ctx, "dragon-battle")
			battleShot = true
		}
		switch d.Phase {
		case "choose":
			if hasKind(d.Kinds, "battle") {
				click(`button[data-kind="battle"]`)
			} else {
				click(`button[data-kind="recruit"]`)
			}
		case "keep":
			if !hasKind(d.Kinds, "keep") && hasKind(d.Kinds, "accept") {
				click(`button[data-kind="accept"]`)
				break
			}
			pick := pickKeep(d.Faces, d.Keeps, d.Mode == "battle")
			for _, i := range pick {
				click(`.die-btn[data-i="` + strconv.Itoa(i) + `"]`)
				diceClicks++
			}
			read()
			if !d.Keep {
				shot(t, ctx, "dragon-failed")
				sel, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('selection').textContent + ' | ' + [...document.querySelectorAll('.die-btn.sel')].map((b) => b.getAttribute('aria-label')).join(',')`))
				t.Logf("selection: %s", sel)
				t.Fatalf("after selecting %v of %v (%s) the Keep button is disabled", pick, d.Faces, d.Mode)
			}
			if shots == 0 && diceClicks >= 6 {
				if err := chromedp.Do(ctx, browsertest.Click("#hint"), chromedp.WaitVisible("#hint-box li"), chromedp.Sleep(100*time.Millisecond)); err != nil {
					t.Fatal(err)
				}
				shot(t, ctx, "dragon-table")
				shots++
			}
			click("#keep")
		case "roll", "evaded":
			pool, _ := strconv.Atoi(strings.ReplaceAll(d.Pool, ",", ""))
			if hasKind(d.Kinds, "stop") && (pool >= 1000 || pool >= 300 && len(d.Faces) <= 2) {
				click("#stop")
			} else {
				click("#roll")
			}
		case "discard":
			click(`button[data-kind="discard"]`)
		case "brawl": // Ann defends with a card: she stands by her throw
			click("#pass")
		default:
			t.Fatalf("unknown phase %q", d.Phase)
		}
		myActions++
		for time.Now().Before(deadline) {
			read()
			if d.Version != before {
				break
			}
			time.Sleep(15 * time.Millisecond)
		}
	}
	if myActions < 10 || diceClicks == 0 {
		t.Fatalf("played %d actions with %d dice clicks", myActions, diceClicks)
	}
	if shots == 0 {
		shot(t, ctx, "dragon-table")
	}
	if d.Phase != "over" {
		t.Logf("the game did not end in time; %d actions clicked (version %d)", myActions, d.Version)
		return
	}
	// The end screen's heading, read in one step of the page's own (the
	// page redraws on each message: a node found, then read, may be gone).
	waitPage(t, ctx, "the end screen's heading", `((document.querySelector('#end h2') || {}).textContent || '') !== ''`)
	heading, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#end h2').textContent`))
	if err != nil || heading == "" {
		t.Fatalf("end screen heading %q: %v", heading, err)
	}
	shot(t, ctx, "dragon-over")
	t.Logf("%d games, %d clicked actions (a battle: %v); the last: %s", games, myActions, battleShot, heading)
	dragonForm(t, ctx, ts)
}

// dragonForm creates a Dragon Farkle table from the create-table form:
// two bots of dragon levels and a friend's seat, which waits.
func dragonForm(t *testing.T, ctx context.Context, ts *servertest.Server) {
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/new"),
		chromedp.WaitVisible("#create"),
		chromedp.SetValue("#preset", "dragon"),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const p = document.getElementById('preset'); p.dispatchEvent(new Event('change'));
	  [...document.querySelectorAll('button')].find((b) => b.textContent === '+ Friend').click(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(`select[aria-label="bot level of seat 2"]`),
		chromedp.Sleep(100*time.Millisecond),
	); err != nil {
		t.Fatal(err)
	}
	level, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('select[aria-label="bot level of seat 2"]').value`))
	if err != nil || level != "smart" {
		t.Fatalf("the bot seat of a dragon table offers %q (%v), want smart", level, err)
	}
	shot(t, ctx, "dragon-new")
	if err := chromedp.Do(ctx, browsertest.Click("#create"), chromedp.WaitVisible("#take-seat, .play.waiting")); err != nil {
		t.Fatal(err)
	}
	phase, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('game').dataset.phase`))
	if err != nil || phase != "waiting" {
		t.Fatalf("the new dragon table with a friend's seat is at %q (%v), want waiting", phase, err)
	}
}

// TestBrowserDragonOnAPhone opens a dragon table on a phone-sized screen
// and recruits once with the keyboard-free buttons.
func TestBrowserDragonOnAPhone(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 10 * time.Millisecond})
	ctx := browser(t, 390, 844)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-dragon"),
		chromedp.SendKeys("#name", "Bea"),
		browsertest.Click("#play-dragon"),
		chromedp.WaitVisible(".odds-chart .curve"),
	); err != nil {
		t.Fatal(err)
	}
	var d dragonPageData
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		d, _ = chromedp.Run(ctx, chromedp.Evaluate[dragonPageData](readDragon))
		if d.Show != "" { // a brawl being shown redraws the page at its pace
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if d.Mine == "yes" && d.Phase == "choose" {
			clickNow(t, ctx, `button[data-kind="recruit"]`)
		}
		if d.Mine == "yes" && d.Phase == "keep" && len(d.Faces) > 0 {
			break
		}
		// The dice are random: a throw that evaded the dragon or farkled has
		// nothing to keep, so throw again (or accept) until one has; a brawl
		// the bot challenged Ann to is passed.
		if d.Mine == "yes" && d.Phase != "choose" {
			for _, kind := range []string{"roll", "accept", "pass"} { // pass: defending a brawl with a card
				if slices.Contains(d.Kinds, kind) {
					clickNow(t, ctx, `button[data-kind="`+kind+`"]`)
					break
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d.Phase != "keep" || len(d.Faces) == 0 {
		t.Fatalf("no throw to keep on the phone: %+v", d)
	}
	shot(t, ctx, "dragon-phone")
}

// clickNow clicks the element sel if the page shows it now. A polling
// loop reads the page and then clicks: by then the game may have moved on
// (the page not yet redrawn after the last click, a bot's move), and
// chromedp.Click would wait for an element that never comes back.
// It reports whether it clicked.
func clickNow(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	js := `(() => { const b = document.querySelector(` + strconv.Quote(sel) + `); if (!b || b.disabled) return false; b.click(); return true; })()`
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	if err != nil {
		t.Fatal(err)
	}
	return clicked
}
