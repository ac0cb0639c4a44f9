package site

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// holdFetch, run before the page's scripts, holds the answer of every
// request whose address contains window.__hold until the test calls
// window.__release(); window.__served says the held answer has come, and
// window.__pending counts the requests whose answers the page has not
// read yet (as JSON, as the pages read them), each read counted a task
// after it, when what the page did with it is done. window.__sockets
// counts the WebSockets the page opened.
const holdFetch = `(() => {
  const W = window.WebSocket;
  window.__sockets = 0;
  window.WebSocket = class extends W { constructor(...a) { window.__sockets++; super(...a); } };
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
}).then((shows) => shows + ' ' + window.__sockets + ' sockets')`

// TestBrowserLeavingAPageStillWaiting: a player who leaves a page before
// its answers came (the header's settings link is there at once; the
// home page waits for the bots' list, the lobby for the tables, and so
// on) stays on the page they went to when the old page's answers come;
// the old page once drew itself over it (CI's TestBrowserSettings, its
// home page slow under load, lost the settings page it had gone to). A
// table left while it was read opens no connection. On a phone of 390 px
// in English, and (long runs) of 360 px in Norwegian.
func TestBrowserLeavingAPageStillWaiting(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour}) // the table's bot never moves
	ann := servertest.NewPlayer(t, ts, "Ann")
	defer ann.Close()
	tb, err := ann.CreateTable(servertest.Context(t, time.Minute), "classic", servertest.MeBot...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path, hold string }{
		{"home", "/", "/api/bots"}, {"lobby", "/lobby", "/api/tables?status=playing"}, {"history", "/history", "/api/tables?status=over"},
		{"leaderboard", "/leaderboard", "/api/leaderboard"}, {"player", "/players/bot:steady", "/api/players/"}, {"tournaments", "/tournaments", "/api/tournaments"},
		{"table", "/t/" + tb.ID, "/api/tables/" + tb.ID},
	} {
		for vi, v := range []struct {
			lang string
			w, h int64
		}{{"en", 390, 844}, {"nb", 360, 740}} {
			t.Run(fmt.Sprintf("%s-%s-%d", c.name, v.lang, v.w), func(t *testing.T) {
				testflags.SkipVariantUnlessLong(t, vi)
				leaveWhileWaiting(t, ts.URL, c.path, c.hold, v.lang, v.w, v.h)
			})
		}
	}
}

// leaveWhileWaiting opens path in a browser of the language and size
// given, with the answers of hold held, goes to the settings, releases
// them and checks the settings page stays, as it was, with no WebSocket
// opened.
func leaveWhileWaiting(t *testing.T, base, path, hold, lang string, w, h int64) {
	t.Helper()
	b := webtest.Browser(t, w, h)
	browsertest.OnEveryPage(t, b, holdFetch+`; window.__hold = `+strconv.Quote(hold)+`; localStorage.setItem('lang', `+strconv.Quote(lang)+`)`)
	if err := chromedp.Do(b, chromedp.Navigate(base+path), browsertest.Click("header a.gear"), chromedp.WaitVisible("#anim-speed")); err != nil {
		t.Fatal(err)
	}
	if served, err := chromedp.Run(b, chromedp.Evaluate[bool](`window.__served`)); err != nil || served {
		t.Fatalf("the held answer came before it was released (%v): the test shows nothing", err)
	}
	got, err := chromedp.Run(b, chromedp.Evaluate[string](afterRelease, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got != "/settings settings 0 sockets" {
		t.Fatalf("after %s's answer came, the page shows %q, want the settings page it went to and no connection", path, got)
	}
	webtest.Shot(t, b, fmt.Sprintf("left-for-settings-%s-%d", lang, w))
}
