package webtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

func TestBrowserPlaysAGameAgainstABot(t *testing.T) {
	t.Parallel()
	r := rules.MustPreset("classic")
	r.Game.Target = 1500
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, QuickRules: r, Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}})
	ctx := Browser(t, 1280, 900)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-now"),
		chromedp.WaitReady(`#level option`),
	); err != nil {
		t.Fatal(err)
	}
	Shot(t, ctx, "home")
	if err := chromedp.Do(ctx,
		chromedp.SendKeys("#name", "Ann <b>"),
		browsertest.Click("#play-now"),
		chromedp.WaitVisible("#game .scoreboard"),
	); err != nil {
		t.Fatal(err)
	}
	var g GameData
	var err error
	clicks, midShot := 0, false
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if g, err = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); err != nil {
			t.Fatal(err)
		}
		if g.Phase == "over" {
			break
		}
		if g.Mine != "yes" {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		before := g.Version
		switch {
		case g.Phase != "play":
			if err := chromedp.Do(ctx, browsertest.Click("#roll")); err != nil {
				t.Fatal(err)
			}
		case g.Step == "keep":
			for _, i := range PickDice(g.Faces) {
				sel := `.die-btn[data-i="` + Itoa(i) + `"]`
				if err := chromedp.Do(ctx, browsertest.Click(sel)); err != nil {
					t.Fatal(err)
				}
				clicks++
			}
			if g, err = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); err != nil {
				t.Fatal(err)
			}
			if !midShot && clicks > 3 {
				if err := chromedp.Do(ctx, browsertest.Click("#hint"), chromedp.WaitVisible(".hint li")); err != nil {
					t.Fatal(err)
				}
				Shot(t, ctx, "table-selection")
				midShot = true
			}
			button := "#throw"
			if g.Bank && Atoi(g.Total) >= 300 {
				button = "#bank"
			}
			if !g.Bank && !g.Throw {
				t.Fatalf("after selecting %v of %v neither throw nor bank is enabled", PickDice(g.Faces), g.Faces)
			}
			if err := chromedp.Do(ctx, browsertest.Click(button)); err != nil {
				t.Fatal(err)
			}
		default:
			// After "keep, throw" the page sends the throw by itself: give
			// it a moment before acting on the choose step.
			time.Sleep(150 * time.Millisecond)
			if g2, _ := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); g2.Version != before {
				continue
			}
			button := "#throw"
			if g.Bank {
				button = "#bank"
			}
			if err := chromedp.Do(ctx, browsertest.Click(button)); err != nil {
				t.Fatal(err)
			}
		}
		// Wait for the game to move on.
		for time.Now().Before(deadline) {
			if g, err = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); err != nil {
				t.Fatal(err)
			}
			if g.Version != before {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if g.Phase != "over" {
		t.Fatalf("the game did not end in time (at version %d)", g.Version)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#end"), chromedp.WaitVisible("#end table.analysis"), chromedp.Sleep(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue("#download", "href"))
	if err != nil {
		t.Fatal(err)
	}
	href := attr.Value
	heading := PageText(t, ctx, "#end h2")
	Shot(t, ctx, "game-over")
	if !strings.HasSuffix(href, "/record") || heading == "" {
		t.Fatalf("end screen: download %q heading %q", href, heading)
	}
	if clicks == 0 {
		t.Fatal("no die was clicked")
	}
	// The name typed with markup shows as text.
	me, err := chromedp.Run(ctx, chromedp.Text("#me a"))
	if err != nil {
		t.Fatal(err)
	}
	if me != "Ann <b>" {
		t.Fatalf("name shown as %q", me)
	}
	// The other pages, as a player would visit them after the game.
	if err := chromedp.Do(ctx, browsertest.Click(`a[href^="/replay/"]`), chromedp.WaitVisible(".replay-board table"), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	Shot(t, ctx, "replay")
	for _, pg := range []struct{ path, wait, name string }{
		{"/history", ".tables li", "history"},
		{"/leaderboard", "table.stats tbody tr", "leaderboard"},
		{"/new", "#create", "new-table"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+pg.path), chromedp.WaitVisible(pg.wait), chromedp.Sleep(100*time.Millisecond)); err != nil {
			t.Fatalf("%s: %v", pg.path, err)
		}
		Shot(t, ctx, pg.name)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.stats tbody tr").length`))
	if err == nil && rows != 0 {
		t.Log("new-table page has no stats table")
	}
}

// TestBrowserWaitsForAFriendAndSurvivesARestart opens a table for a
// friend, joins it from a second browser by the link, then restarts the
// server on the same port and database: both pages reconnect by
// themselves and show the same game.
func TestBrowserWaitsForAFriendAndSurvivesARestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f.db")
	ts := servertest.StartFile(t, path, server.Options{BotDelay: time.Hour})
	ann := Browser(t, 1280, 800)
	if err := chromedp.Do(ann,
		chromedp.Navigate(ts.URL+"/new"),
		chromedp.WaitVisible("#create"),
		chromedp.SendKeys("#new-name", "Ann"),
		browsertest.Click(`button[aria-label="remove seat 2"]`),
		browsertest.Click(`.row.gap button`), // + Friend
		browsertest.Click("#create"),
		chromedp.WaitVisible("input.link"),
	); err != nil {
		t.Fatal(err)
	}
	Shot(t, ann, "waiting-for-a-friend")
	link, err := chromedp.Run(ann, chromedp.Evaluate[string](`document.querySelector("input.link").value`))
	if err != nil || !strings.Contains(link, "/t/") {
		t.Fatalf("link %q %v", link, err)
	}
	bea := Browser(t, 390, 844)
	// Bea finds the table in the lobby (Ann's link leads to the same page).
	if err := chromedp.Do(bea,
		chromedp.Navigate(ts.URL+"/lobby"),
		chromedp.WaitVisible(`.tables a[href$="`+link[strings.LastIndex(link, "/"):]+`"]`),
	); err != nil {
		t.Fatal(err)
	}
	Shot(t, bea, "phone-lobby")
	if err := chromedp.Do(bea,
		browsertest.Click(`.tables a[href$="`+link[strings.LastIndex(link, "/"):]+`"]`),
		chromedp.WaitVisible("#take-seat"),
		chromedp.SendKeys("#join-name", "Bea"),
		browsertest.Click("#take-seat"),
		chromedp.WaitVisible("#game .play:not(.waiting)"),
	); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ann, chromedp.WaitVisible("#game .play:not(.waiting)")); err != nil {
		t.Fatal(err)
	}
	// Whoever starts the roll-off rolls.
	for _, b := range []context.Context{ann, bea} {
		g, _ := chromedp.Run(b, chromedp.Evaluate[GameData](ReadGame))
		if g.Mine == "yes" {
			if err := chromedp.Do(b, browsertest.Click("#roll")); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	waitVersion := func(b context.Context, v int) GameData {
		var g GameData
		for range 500 { // 10 s
			g, _ = chromedp.Run(b, chromedp.Evaluate[GameData](ReadGame))
			if g.Version >= v {
				return g
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("the page stayed at version %d, want %d", g.Version, v)
		return g
	}
	before := waitVersion(ann, 1)
	waitVersion(bea, 1)

	// Restart on the same address and database.
	addr := strings.TrimPrefix(ts.URL, "http://")
	ts.Stop()
	ts2 := servertest.StartAt(t, addr, path, server.Options{BotDelay: time.Hour})
	_ = ts2
	for _, b := range []context.Context{ann, bea} {
		if err := chromedp.Do(b, chromedp.Sleep(100*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		var g GameData
		for range 750 { // the page reconnects by itself (15 s at most)
			if g, _ = chromedp.Run(b, chromedp.Evaluate[GameData](ReadGame)); g.Online == "yes" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if g.Online != "yes" {
			t.Fatal("the page did not reconnect")
		}
		if g.Phase != before.Phase || g.Version != before.Version {
			t.Fatalf("after the restart a page shows %+v, before %+v", g, before)
		}
	}
	// And play goes on: the one to act acts.
	for _, b := range []context.Context{ann, bea} {
		var g GameData
		for range 100 {
			if g, _ = chromedp.Run(b, chromedp.Evaluate[GameData](ReadGame)); g.Mine != "" {
				break
			}
		}
		if g.Mine == "yes" {
			if err := chromedp.Do(b, browsertest.Click("#roll")); err != nil {
				t.Fatal(err)
			}
			waitVersion(ann, before.Version+1)
			waitVersion(bea, before.Version+1)
			Shot(t, bea, "phone-after-restart")
			return
		}
	}
	t.Fatal("after the restart nobody could act")
}

func TestBrowserPhoneAndRulesForm(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour})
	ctx := Browser(t, 390, 844)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/new"),
		chromedp.WaitVisible("#create"),
		chromedp.SendKeys("#new-name", "Bea"),
		browsertest.Click("#custom"),
		chromedp.SetValue(`input[name="game.target"]`, "0"),
		browsertest.Click("#create"),
		chromedp.WaitVisible(".field.bad"),
	); err != nil {
		t.Fatal(err)
	}
	fa, err := chromedp.Run(ctx, chromedp.AttributeValue(".field.bad", "data-field"))
	if err != nil {
		t.Fatal(err)
	}
	field := fa.Value
	if field != "game.target" {
		t.Fatalf("the form marked %q, want game.target", field)
	}
	Shot(t, ctx, "phone-rules-error")
	if err := chromedp.Do(ctx,
		chromedp.SetValue(`input[name="game.target"]`, "3000"),
		browsertest.Click("#create"),
		chromedp.WaitVisible("#game .scoreboard"),
		chromedp.WaitVisible(".die-btn, #roll, #throw"),
	); err != nil {
		t.Fatal(err)
	}
	// Play one throw with the keyboard: T throws.
	g, _ := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
	if g.Mine == "yes" && g.Phase == "play" && g.Step == "throw" {
		if err := chromedp.Do(ctx, chromedp.KeyEvent("t")); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 500 && g.Step == "throw"; i++ {
			time.Sleep(20 * time.Millisecond)
			g, _ = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		}
		if g.Step == "throw" {
			t.Fatal("the T key did not throw")
		}
	}
	Shot(t, ctx, "phone-table")
}
