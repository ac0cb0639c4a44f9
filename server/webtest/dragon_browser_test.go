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

// TestBrowserPlaysDragonFarkle creates a Dragon Farkle table against the
// smart bot from the home page and plays it by clicking: actions, dice,
// keep, throw and stop, the hint; to the end when it ends in time.
func TestBrowserPlaysDragonFarkle(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 10 * time.Millisecond})
	ctx := Browser(t, 1280, 1000)
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
	var d DragonPageData
	var err error
	read := func() {
		if d, err = chromedp.Run(ctx, chromedp.Evaluate[DragonPageData](ReadDragon)); err != nil {
			t.Fatal(err)
		}
	}
	// The page redraws when messages come, so a node found by
	// chromedp.Click may be gone by the time it is clicked: click what the
	// page shows at the moment, waiting a little for it to come back.
	click := func(sel string) {
		for end := time.Now().Add(5 * time.Second); !ClickNow(t, ctx, sel); {
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
			Shot(t, ctx, "dragon-over")
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
			Shot(t, ctx, "dragon-battle")
			battleShot = true
		}
		switch d.Phase {
		case "choose":
			if HasKind(d.Kinds, "battle") {
				click(`button[data-kind="battle"]`)
			} else {
				click(`button[data-kind="recruit"]`)
			}
		case "keep":
			if !HasKind(d.Kinds, "keep") && HasKind(d.Kinds, "accept") {
				click(`button[data-kind="accept"]`)
				break
			}
			pick := PickKeep(d.Faces, d.Keeps, d.Mode == "battle")
			for _, i := range pick {
				click(`.die-btn[data-i="` + strconv.Itoa(i) + `"]`)
				diceClicks++
			}
			read()
			if !d.Keep {
				Shot(t, ctx, "dragon-failed")
				sel, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('selection').textContent + ' | ' + [...document.querySelectorAll('.die-btn.sel')].map((b) => b.getAttribute('aria-label')).join(',')`))
				t.Logf("selection: %s", sel)
				t.Fatalf("after selecting %v of %v (%s) the Keep button is disabled", pick, d.Faces, d.Mode)
			}
			if shots == 0 && diceClicks >= 6 {
				if err := chromedp.Do(ctx, browsertest.Click("#hint"), chromedp.WaitVisible("#hint-box li"), chromedp.Sleep(100*time.Millisecond)); err != nil {
					t.Fatal(err)
				}
				Shot(t, ctx, "dragon-table")
				shots++
			}
			click("#keep")
		case "roll", "evaded":
			pool, _ := strconv.Atoi(strings.ReplaceAll(d.Pool, ",", ""))
			if HasKind(d.Kinds, "stop") && (pool >= 1000 || pool >= 300 && len(d.Faces) <= 2) {
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
		Shot(t, ctx, "dragon-table")
	}
	if d.Phase != "over" {
		t.Logf("the game did not end in time; %d actions clicked (version %d)", myActions, d.Version)
		return
	}
	// The end screen's heading, read in one step of the page's own (the
	// page redraws on each message: a node found, then read, may be gone).
	WaitPage(t, ctx, "the end screen's heading", `((document.querySelector('#end h2') || {}).textContent || '') !== ''`)
	heading, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#end h2').textContent`))
	if err != nil || heading == "" {
		t.Fatalf("end screen heading %q: %v", heading, err)
	}
	Shot(t, ctx, "dragon-over")
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
	Shot(t, ctx, "dragon-new")
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
	ctx := Browser(t, 390, 844)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-dragon"),
		chromedp.SendKeys("#name", "Bea"),
		browsertest.Click("#play-dragon"),
		chromedp.WaitVisible(".odds-chart .curve"),
	); err != nil {
		t.Fatal(err)
	}
	var d DragonPageData
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		d, _ = chromedp.Run(ctx, chromedp.Evaluate[DragonPageData](ReadDragon))
		if d.Show != "" { // a brawl being shown redraws the page at its pace
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if d.Mine == "yes" && d.Phase == "choose" {
			ClickNow(t, ctx, `button[data-kind="recruit"]`)
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
					ClickNow(t, ctx, `button[data-kind="`+kind+`"]`)
					break
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d.Phase != "keep" || len(d.Faces) == 0 {
		t.Fatalf("no throw to keep on the phone: %+v", d)
	}
	Shot(t, ctx, "dragon-phone")
}
