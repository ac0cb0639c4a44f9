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
// window.__release(); window.__served says the held answer has come, and
// window.__pending counts the requests whose answers the page has not
// read yet (as JSON, as the pages read them), each read counted a task
// after it, when what the page did with it is done.
const holdFetch = `(() => {
  const f = window.fetch;
  let release;
  const held = new Promise((r) => { release = r; });
  window.__release = release;
  window.__served = false;
  window.__pending = 0;
  window.fetch = (u, o) => {
    const hold = String(u).includes(window.__hold || '\u0000');
    window.__pending++;
    return (hold ? held.then(() => f(u, o)) : f(u, o)).then((r) => {
      if (hold) window.__served = true;
      const json = r.json.bind(r);
      r.json = () => json().finally(() => setTimeout(() => window.__pending--, 0));
      return r;
    }, (e) => { window.__pending--; throw e; });
  };
})()`

// afterRelease releases the held answer and waits until it has come and
// the page has read every answer it asked for since (and one animation
// frame more); it returns what the page shows then: its address and
// whether the settings page is there, as it was (a page drawn again
// would lose what the player had typed in it).
const afterRelease = `new Promise((done) => {
  document.getElementById('anim-speed').__kept = true; // the same element after: the page was not drawn again
  window.__release();
  const check = () => {
    if (!window.__served || window.__pending > 0) { setTimeout(check, 10); return; }
    requestAnimationFrame(() => done(location.pathname + ' ' + (document.getElementById('anim-speed') ? (document.getElementById('anim-speed').__kept ? 'settings' : 'settings drawn again') : 'other: ' + document.getElementById('main').innerText.slice(0, 80))));
  };
  check();
})`

// TestBrowserLeavingAPageStillWaiting: a player who leaves a page before
// its answers came (the header's settings link is there at once; the
// home page waits for the bots' list, the lobby for the tables, and so
// on) stays on the page they went to when the old page's answers come;
// the old page once drew itself over it (CI's TestBrowserSettings, its
// home page slow under load, lost the settings page it had gone to).
func TestBrowserLeavingAPageStillWaiting(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	for _, c := range []struct{ name, path, hold string }{
		{"home", "/", "/api/bots"}, {"lobby", "/lobby", "/api/tables?status=playing"}, {"history", "/history", "/api/tables?status=over"},
		{"leaderboard", "/leaderboard", "/api/leaderboard"}, {"player", "/players/bot:steady", "/api/players/"}, {"tournaments", "/tournaments", "/api/tournaments"},
	} {
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
