package server_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

// TestBrowserHintPlaysAChoice: the page numbers the hint's choices best
// first and its Play button sends the first one as the server gave it.
func TestBrowserHintPlaysAChoice(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Game.Target = 1500
	ts := start(t, "", server.Options{BotDelay: 20 * time.Millisecond, QuickRules: r, Advisor: pointsAdvisor{}})
	ctx := browser(t, 1280, 900)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-now"),
		chromedp.SendKeys("#name", "Ann"),
		chromedp.Click("#play-now"),
		chromedp.WaitVisible("#game .scoreboard"),
	); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[gameData](readGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Phase == "over" {
			t.Fatal("the game ended before a keep of several choices")
		}
		if g.Mine != "yes" {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		if g.Phase != "play" {
			clickNow(t, ctx, "#roll") // the roll-off may have moved on since the read
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err := chromedp.Do(ctx, chromedp.Click("#hint"), chromedp.WaitVisible(".hint li")); err != nil {
			t.Fatal(err)
		}
		items, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.hint li')].map((l) => l.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		if len(items) < 2 {
			// One choice says nothing of the order: play it and go on.
			if err := chromedp.Do(ctx, chromedp.Click(".hint li .play-hint")); err != nil {
				t.Fatal(err)
			}
			waitVersion(t, ctx, g.Version)
			continue
		}
		prev := -1.0
		for i, it := range items {
			_, after, _ := strings.Cut(it, ": ")
			num, _, _ := strings.Cut(after, " points")
			v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
			if err != nil {
				t.Fatalf("choice %q: %v", it, err)
			}
			if i > 0 && v > prev {
				t.Fatalf("choices not best first: %q", items)
			}
			prev = v
		}
		if err := chromedp.Do(ctx, chromedp.Click(".hint li:first-child .play-hint")); err != nil {
			t.Fatal(err)
		}
		waitVersion(t, ctx, g.Version)
		if msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.play .error') || {}).textContent || ''`)); msg != "" {
			t.Fatalf("the choice was refused: %s", msg)
		}
		return
	}
	t.Fatal("no hint with several choices in two minutes")
}

// waitVersion waits until the page shows a state after version.
func waitVersion(t *testing.T, ctx context.Context, version int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[gameData](readGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Version > version {
			return
		}
	}
	t.Fatalf("the page stayed at version %d after playing the hint", version)
}
