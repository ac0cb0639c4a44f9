package site

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// holdFetch, run before the page's scripts, holds the answer of every
// request whose address contains window.__hold until the test calls
// window.__release(); window.__served says the held answer has come.
const holdFetch = `(() => {
  const f = window.fetch;
  let release;
  const held = new Promise((r) => { release = r; });
  window.__release = release;
  window.__served = false;
  window.fetch = (u, o) => {
    if (!String(u).includes(window.__hold || '\u0000')) return f(u, o);
    return held.then(() => f(u, o)).then((r) => { window.__served = true; return r; });
  };
})()`

// afterRelease releases the held answer and waits until the page has
// changed #main after it, and one animation frame more (the router's
// work after a draw is done in the same task); it returns what the page
// shows then: its address and whether the settings page is there.
const afterRelease = `new Promise((done) => {
  const main = document.getElementById('main');
  const mo = new MutationObserver(() => {
    mo.disconnect();
    requestAnimationFrame(() => done(location.pathname + ' ' + (document.getElementById('anim-speed') ? 'settings' : 'other: ' + main.innerText.slice(0, 80))));
  });
  mo.observe(main, {childList: true});
  window.__release();
})`

// TestBrowserLeavingAPageStillWaiting: a player who leaves a page before
// its answers came (the header's settings link is there at once, the
// home page waits for the bots' list, the lobby for the tables) stays on
// the page they went to when the old page's answers come; the old page
// once drew itself over it (CI's TestBrowserSettings, its home page slow
// under load, lost the settings page it had gone to).
func TestBrowserLeavingAPageStillWaiting(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	for _, c := range []struct{ name, path, hold string }{{"home", "/", "/api/bots"}, {"lobby", "/lobby", "/api/tables?status=playing"}} {
		t.Run(c.name, func(t *testing.T) {
			b := webtest.Browser(t, 390, 844)
			browsertest.OnEveryPage(t, b, holdFetch+`; window.__hold = `+strconv.Quote(c.hold))
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+c.path), browsertest.Click("header a.gear"), chromedp.WaitVisible("#anim-speed")); err != nil {
				t.Fatal(err)
			}
			if served, err := chromedp.Run(b, chromedp.Evaluate[bool](`window.__served`)); err != nil || served {
				t.Fatalf("the held answer came before it was released (%v): the test shows nothing", err)
			}
			got, err := chromedp.Run(b, chromedp.Evaluate[string](afterRelease, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if got != "/settings settings" {
				t.Fatalf("after %s's answer came, the page shows %q, want the settings page it went to", c.path, got)
			}
		})
	}
}
