package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
)

// watchWasm collects the paths of the WebAssembly modules a tab asks for
// (not its service worker, whose fetches are another target's).
func watchWasm(t *testing.T, ctx context.Context) *browsertest.Events {
	return browsertest.Watch(t, ctx, func(ev any) (string, bool) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			if u, err := url.Parse(e.Request.URL); err == nil && strings.HasSuffix(u.Path, ".wasm") {
				return u.Path, true
			}
		}
		return "", false
	})
}

// The engine of the local games is fetched only where a local game needs
// it: the home page and a server's table do not ask for it (the service
// worker keeps it for offline play, on its own), /local does. A local
// game played offline (Ann and a friend) by a player of this browser is kept in the player's
// history by itself when the network is back (no click): the page's
// "online" event uploads it. On the player's page the game is marked
// "local · unrated", in English and Norwegian, on a desktop and phones.
func TestBrowserLocalGameKeptOnReconnect(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := browsertest.NewWithin(t, 390, 844, 5*time.Minute)
	wasm := watchWasm(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-local")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the service worker keeping the engine")
	if got := wasm.Seen(); len(got) != 0 {
		t.Fatalf("the home page fetched %v", got)
	}
	// A player of this browser, at a server's table, opened afresh.
	PlayNowAs(t, ctx, ts, "Ann")
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	if got, eng := wasm.Seen(), browsertest.Eval[bool](t, ctx, `'farkleEngine' in globalThis || !!document.querySelector('script[src$="wasm_exec.js"]')`); len(got) != 0 || eng {
		t.Fatalf("a server's table fetched %v (engine loaded: %v)", got, eng)
	}
	me := browsertest.Eval[string](t, ctx, `fetch('/api/me').then((r) => r.json()).then((m) => m.id)`)

	browsertest.Offline(t, ctx, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/local")); err != nil {
		t.Fatal(err)
	}
	browsertest.NewHotSeat(t, ctx, "1000", "Bea") // no bot to wait for: a quicker game
	if got := wasm.Seen(); len(got) != 1 || got[0] != "/static/farkle.wasm" {
		t.Fatalf("a local game fetched %v, want the engine once", got)
	}
	if g := browsertest.PlayLocal(t, ctx, 1<<30, time.Now().Add(3*time.Minute)); g.Phase != "over" {
		t.Fatalf("the game did not end: %+v", g)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#kept-line")); err != nil {
		t.Fatal(err)
	}
	en := lang.Get("en")
	if line := browsertest.Eval[string](t, ctx, `document.getElementById('kept-line').textContent`); line != en.Msg("web.local.waitNetwork") {
		t.Fatalf("offline, the end screen says %q", line)
	}
	commitment := browsertest.Eval[string](t, ctx, `JSON.parse(localStorage.getItem('farkle.local.history'))[0].id`)

	// The network back: kept with no click.
	browsertest.Offline(t, ctx, false)
	browsertest.WaitJS(t, ctx, `!!document.querySelector('#kept-line .kept.ok')`, 30*time.Second, "the game kept by itself on reconnecting")
	var st struct {
		History []struct {
			ID         string
			Local      bool
			Status     string
			Commitment string
		}
	}
	stats := browsertest.Eval[string](t, ctx, `fetch('/api/players/`+me+`/stats').then((r) => r.text())`)
	if err := json.Unmarshal([]byte(stats), &st); err != nil {
		t.Fatal(err)
	}
	kept := browsertest.Eval[string](t, ctx, `JSON.parse(localStorage.getItem('farkle.local.history'))[0].kept`)
	if len(st.History) != 1 || !st.History[0].Local || st.History[0].ID != kept || st.History[0].Status != "over" {
		t.Fatalf("Ann's history after reconnecting: %s (the page kept it as %q, commitment %s)", stats, kept, commitment)
	}

	// The player's page marks it, in each language and size.
	for _, code := range []string{"en", "nb"} {
		browsertest.Eval[bool](t, ctx, `(localStorage.setItem('lang', '`+code+`'), true)`)
		want := lang.Get(code).Msg("web.local.mark")
		for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}, {360, 740}} {
			var vp []chromedp.EmulateViewportOption
			if size.w < 600 {
				vp = append(vp, chromedp.EmulateMobile)
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h, vp...), chromedp.Navigate(ts.URL+"/players/"+me), chromedp.WaitVisible(".tables .local-mark")); err != nil {
				t.Fatal(err)
			}
			marks := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('.tables li')].map((li) => { const m = li.querySelector('.local-mark'); return (m ? m.textContent : '') + '|' + li.querySelector('a[href^="/replay/"]').getAttribute('href'); })`)
			if len(marks) != 1 || marks[0] != want+"|/replay/"+kept {
				t.Fatalf("%s: the player's games read %q, want %q marking /replay/%s", code, marks, want, kept)
			}
			if w := browsertest.Eval[int](t, ctx, `document.documentElement.scrollWidth`); int64(w) > size.w {
				t.Errorf("%s at %d px: the page is %d px wide", code, size.w, w)
			}
			Shot(t, ctx, fmt.Sprintf("player-local-%d-%s", size.w, code))
		}
	}
}
