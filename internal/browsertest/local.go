package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Eval runs JavaScript in the page, awaiting a promise, and returns its
// value; an error fails the test.
func Eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// OnEveryPage has js run in every page the tab opens from now on, before
// the page's own scripts (a stub, a watch); an error fails the test.
func OnEveryPage(t testing.TB, ctx context.Context, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (page.AddScriptToEvaluateOnNewDocumentResult, error) {
		return cdp.Call(c, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
	}); err != nil {
		t.Fatal(err)
	}
}

// WaitJS polls js (awaiting a promise) until it gives true, or fails the
// test after d saying what was awaited.
func WaitJS(t testing.TB, ctx context.Context, js string, d time.Duration, what string) {
	t.Helper()
	end := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not within %s (last error %v)", what, d, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Offline cuts the tab's network, or gives it back, with the DevTools
// protocol's offline mode: its requests, its service worker's fetches and
// navigator.onLine.
func Offline(t testing.TB, ctx context.Context, off bool) {
	t.Helper()
	_, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(c, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		if _, err := cdp.Call(c, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			EmulateOfflineServiceWorker: &off,
			MatchedNetworkConditions:    []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}},
		}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(c, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return chromedp.Void{}, err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Block has the tab's requests to addresses matching patterns fail (URL
// pattern syntax, absolute: "*://*:*/api/me/games*"), as a network error;
// none gives every address back.
func Block(t testing.TB, ctx context.Context, patterns ...string) {
	t.Helper()
	ps := make([]*network.BlockPattern, len(patterns))
	for i, p := range patterns {
		ps[i] = &network.BlockPattern{URLPattern: p, Block: true}
	}
	_, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(c, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(c, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: ps})
		return chromedp.Void{}, err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// AppKept is JavaScript that is true once a service worker controls the
// page and its cache holds the engine of the local games: the page will
// open, and play, offline.
const AppKept = `(async () => {
  if (!navigator.serviceWorker.controller) return false;
  for (const k of await caches.keys()) {
    if (await (await caches.open(k)).match('/static/farkle.wasm')) return true;
  }
  return false;
})()`

// LocalGame is a local game (/local) as the page shows it.
type LocalGame struct {
	Phase, Step, Mine string
	Version           int
	Bank, Throw       bool
	Total             string
}

const readLocal = `(() => {
  const g = document.getElementById('game');
  if (!g) return {phase: '', step: '', mine: '', version: -1};
  const b = (id) => { const e = document.getElementById(id); return !!e && !e.disabled; };
  return {phase: g.dataset.phase, step: g.dataset.step, mine: g.dataset.mine, version: Number(g.dataset.version),
    bank: b('bank'), throw: b('throw'), total: (document.getElementById('turn-total') || {}).textContent || ''};
})()`

// ReadLocal reads the local game the page shows.
func ReadLocal(t testing.TB, ctx context.Context) LocalGame {
	return Eval[LocalGame](t, ctx, readLocal)
}

// NewLocalGame fills the form of /local for Ann against a steady bot to
// target points and starts the game.
func NewLocalGame(t testing.TB, ctx context.Context, target string) {
	t.Helper()
	startLocal(t, ctx, target, chromedp.SetValue(".seat-kind", "steady"))
}

// NewHotSeat fills the form of /local for Ann and a friend at the same
// phone, to target points, and starts the game.
func NewHotSeat(t testing.TB, ctx context.Context, target, friend string) {
	t.Helper()
	startLocal(t, ctx, target, chromedp.SetValue(".seat-kind", ""), chromedp.SendKeys(".friend-name", friend))
}

// startLocal fills the form of /local for Ann to target points, the
// opponent as its actions say, and starts the game.
func startLocal(t testing.TB, ctx context.Context, target string, opponent ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	steps := append([]chromedp.Action[chromedp.Void]{
		chromedp.WaitVisible("#local-form"),
		chromedp.SetValue("#local-name", "Ann"),
		chromedp.SetValue("#local-target", target),
	}, opponent...)
	if err := chromedp.Do(ctx, append(steps, Click("#local-start"), chromedp.WaitVisible("#game .scoreboard"))...); err != nil {
		t.Fatal(err)
	}
}

// PlayLocal plays the page's local game for the person at the phone: a
// roll-off throw, else the best choice of the hint (its button), until the
// game is over, after steps decisions, or at the deadline; it returns the
// game then.
func PlayLocal(t testing.TB, ctx context.Context, steps int, deadline time.Time) LocalGame {
	t.Helper()
	var g LocalGame
	for done := 0; time.Now().Before(deadline); {
		g = ReadLocal(t, ctx)
		if g.Phase == "over" || done >= steps {
			return g
		}
		if g.Mine != "yes" {
			time.Sleep(40 * time.Millisecond)
			continue
		}
		before := g.Version
		if g.Phase != "play" {
			if err := chromedp.Do(ctx, Click("#roll")); err != nil {
				t.Fatal(err)
			}
		} else {
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := chromedp.Do(wctx, Click("#hint"), chromedp.WaitVisible("#hint-choices .play-hint"))
			cancel()
			if err != nil {
				html, _ := chromedp.Run(ctx, chromedp.OuterHTML("#game .play"))
				t.Fatalf("at %+v the hint gives no choice to play: %v\n%s", g, err, html)
			}
			if err := chromedp.Do(ctx, Click("#hint-choices li:first-child .play-hint")); err != nil {
				t.Fatal(err)
			}
		}
		done++
		for time.Now().Before(deadline) {
			if g = ReadLocal(t, ctx); g.Version != before {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return g
}
