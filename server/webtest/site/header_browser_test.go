package site

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserHeaderNotConnected: when the page cannot learn who is playing
// (GET /api/me gets no answer), the header says it is not connected and
// offers to try again, instead of a sign-in link for a player who is
// signed in; once the server answers, Try again shows the player. When
// the server answers with an error (its database failing: here a table
// of its SQLite file renamed underneath it), the header says "server
// error" instead, with the server's text in its tooltip. And when
// only the player's list of games gets no answer, the home page says so
// (with Try again) instead of showing none. At phone widths, in Norwegian
// and English.
func TestBrowserHeaderNotConnected(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	p := servertest.NewPlayer(t, ts, "Tessa")
	for vi, v := range []struct {
		code  string
		width int64
	}{{"nb", 390}, {"en", 360}, {"nb", 360}, {"en", 390}} {
		tag := v.code + "-" + strconv.FormatInt(v.width, 10)
		t.Run(tag, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			c := lang.Get(v.code)
			b := webtest.Browser(t, v.width, 800)
			webtest.SignInBrowser(t, b, ts.URL, p.Token)
			webtest.OpenIn(t, b, ts.URL+"/", v.code)
			browsertest.Block(t, b, "*://*:*/api/me")
			// The header's first word, whichever it is: the test fails at
			// once on a sign-in link rather than waiting for the error.
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#me a, #me #me-error")); err != nil {
				t.Fatal(err)
			}
			type header struct {
				Text   string
				SignIn bool
			}
			h := browsertest.Eval[header](t, b, `({text: (document.getElementById('me-error') || {}).textContent || '', signIn: !!document.getElementById('signin-link')})`)
			if want := c.Msg("web.meFailed"); h.Text != want || h.SignIn {
				t.Fatalf("the header without an answer: %+v, want %q and no sign-in link", h, want)
			}
			webtest.Shot(t, b, "header-not-connected-"+tag)
			webtest.WantFits(t, b, "the header not connected")
			browsertest.Block(t, b)
			if err := chromedp.Do(b, browsertest.Click("#me-retry"), chromedp.WaitVisible("#me .name")); err != nil {
				t.Fatal(err)
			}
			if name := browsertest.Eval[string](t, b, `document.querySelector('#me .name').textContent`); name != "Tessa" {
				t.Fatalf("after trying again the header shows %q, want Tessa", name)
			}

			// The server answers, with an error.
			rename := func(from, to string) {
				t.Helper()
				if _, err := ts.DB.W.Exec(`ALTER TABLE ` + from + ` RENAME TO ` + to); err != nil {
					t.Fatal(err)
				}
			}
			rename("accounts", "accounts_gone")
			renamed := true
			defer func() {
				if renamed {
					rename("accounts_gone", "accounts")
				}
			}()
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#me a, #me #me-error")); err != nil {
				t.Fatal(err)
			}
			type failed struct {
				Text, Title string
				SignIn      bool
			}
			f := browsertest.Eval[failed](t, b, `(() => { const e = document.getElementById('me-error') || {}; return {text: e.textContent || '', title: e.title || '', signIn: !!document.getElementById('signin-link')}; })()`)
			if want := c.Msg("web.meServerFailed"); f.Text != want || f.SignIn || f.Title == "" || f.Title == c.Msg("err.network") {
				t.Fatalf("the header with the server failing: %+v, want %q, the server's text as its title and no sign-in link", f, want)
			}
			webtest.Shot(t, b, "header-server-error-"+tag)
			webtest.WantFits(t, b, "the header with the server failing")
			rename("accounts_gone", "accounts")
			renamed = false
			if err := chromedp.Do(b, browsertest.Click("#me-retry"), chromedp.WaitVisible("#me .name")); err != nil {
				t.Fatal(err)
			}

			browsertest.Block(t, b, "*://*:*/api/me/games*")
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, b, "the list of games", `['yes', 'error'].includes(document.getElementById('my-games').dataset.loaded)`)
			text := browsertest.Eval[string](t, b, `document.getElementById('my-games').textContent`)
			if want := c.Msg("web.pace.loadFailed", "reason", c.Msg("err.network")); !strings.Contains(text, want) || !strings.Contains(text, c.Msg("web.pace.retry")) {
				t.Fatalf("the home page with its games unreadable: %q, want %q and Try again", text, want)
			}
			webtest.Shot(t, b, "home-games-unread-"+tag)
			webtest.WantFits(t, b, "the home page with its games unreadable")
		})
	}
}
