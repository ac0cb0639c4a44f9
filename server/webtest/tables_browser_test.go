package webtest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

// clockSeconds reads the countdown of the page, -1 without one.
const clockSeconds = `(() => { const e = document.getElementById('clock-time'); return e ? parseInt(e.textContent, 10) : -1; })()`

// TestBrowserShowsTheTurnClock plays "play now" at desktop and phone width
// without acting: the countdown shows and goes down, and when it runs out
// the server acts for the player (the version moves without a click).
func TestBrowserShowsTheTurnClock(t *testing.T) {
	t.Parallel()
	for vi, size := range []struct {
		name   string
		w, h   int64
		button string
	}{{"desktop", 1280, 900, "#play-now"}, {"phone", 390, 844, "#play-now"}, {"dragon", 1280, 900, "#play-dragon"}} {
		t.Run(size.name, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			ts := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, TurnClock: 4 * time.Second})
			ctx := Browser(t, size.w, size.h)
			if err := chromedp.Do(ctx,
				chromedp.Navigate(ts.URL+"/"),
				chromedp.WaitVisible("#play-now"),
				chromedp.WaitReady(`#level option`),
				chromedp.SendKeys("#name", "Ann"),
				browsertest.Click(size.button),
				chromedp.WaitVisible("#clock-time"),
			); err != nil {
				t.Fatal(err)
			}
			first, err := chromedp.Run(ctx, chromedp.Evaluate[int](clockSeconds))
			if err != nil || first < 1 || first > 4 {
				t.Fatalf("clock shows %d s, %v (want 1 to 4)", first, err)
			}
			Shot(t, ctx, "clock-"+size.name)
			deadline := time.Now().Add(20 * time.Second)
			lower := false
			for !lower && time.Now().Before(deadline) {
				s, err := chromedp.Run(ctx, chromedp.Evaluate[int](clockSeconds))
				if err != nil {
					t.Fatal(err)
				}
				lower = s >= 0 && s < first
				time.Sleep(50 * time.Millisecond) // polling the page, with a deadline
			}
			if !lower {
				t.Fatal("the countdown did not go down")
			}
			g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
			if err != nil {
				t.Fatal(err)
			}
			v0 := g.Version
			for g.Version == v0 && time.Now().Before(deadline) {
				if g, err = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); err != nil {
					t.Fatal(err)
				}
				time.Sleep(50 * time.Millisecond) // polling the page, with a deadline
			}
			if g.Version == v0 {
				t.Fatal("the server did not act when the clock ran out")
			}
		})
	}
}

// TestBrowserShowsAFailedTable opens a table whose bot broke, and the
// lobby listing it.
func TestBrowserShowsAFailedTable(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	close(release)
	ts := servertest.StartFile(t, "", server.Options{Cast: servertest.BotsCast(func(level string, r rules.Rules) (bot.Strategy, error) {
		if level == "expert" {
			return servertest.Panicky{Release: release}, nil
		}
		return bot.New(level, r)
	})})
	c := servertest.Host(t, ts)
	ctx0 := servertest.Context(t, time.Minute)
	expert := map[string]string{"type": "bot", "level": "expert"}
	tb, err := c.CreateTable(ctx0, servertest.ShortRules, expert, expert) // the first roll-off breaks it
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for servertest.GetInfo(t, ctx0, c, tb.ID).Status != "failed" {
		if time.Now().After(deadline) {
			t.Fatal("the table did not fail")
		}
		time.Sleep(10 * time.Millisecond) // polling the API, with a deadline
	}
	ctx := Browser(t, 1280, 900)
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(wctx, chromedp.Navigate(ts.URL+"/t/"+tb.ID), chromedp.WaitVisible("#stopped")); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("%v; the page says %q", err, body)
	}
	stopped, err := chromedp.Run(ctx, chromedp.Text("#stopped"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stopped, "stopped") || !strings.Contains(stopped, "internal error in the bot") {
		t.Fatalf("the table page says %q", stopped)
	}
	Shot(t, ctx, "table-failed")
	lctx, cancel2 := context.WithTimeout(ctx, 20*time.Second)
	defer cancel2()
	if err := chromedp.Do(lctx, chromedp.Navigate(ts.URL+"/lobby"), chromedp.WaitVisible(".reason")); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("%v; the lobby says %q", err, body)
	}
	lobby, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lobby, "Stopped by the server") || !strings.Contains(lobby, "Failed: internal error in the bot") {
		t.Fatalf("the lobby says %q", lobby)
	}
	Shot(t, ctx, "lobby-failed")
}
