package site

import (
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
// signed in; once the server answers, Try again shows the player. At
// phone width, in Norwegian and English.
func TestBrowserHeaderNotConnected(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	p := servertest.NewPlayer(t, ts, "Tessa")
	for vi, code := range []string{"nb", "en"} {
		t.Run(code, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			b := webtest.Browser(t, 360, 740)
			webtest.SignInBrowser(t, b, ts.URL, p.Token)
			webtest.OpenIn(t, b, ts.URL+"/", code)
			browsertest.Block(t, b, "*://*:*/api/me")
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#me #me-error")); err != nil {
				t.Fatal(err)
			}
			type header struct {
				Text   string
				SignIn bool
			}
			h := browsertest.Eval[header](t, b, `({text: document.getElementById('me-error').textContent, signIn: !!document.getElementById('signin-link')})`)
			if want := lang.Get(code).Msg("web.meFailed"); h.Text != want || h.SignIn {
				t.Fatalf("the header without an answer: %+v, want %q and no sign-in link", h, want)
			}
			webtest.Shot(t, b, "header-not-connected-"+code+"-360")
			webtest.WantFits(t, b, "the header not connected")
			browsertest.Block(t, b)
			if err := chromedp.Do(b, browsertest.Click("#me-retry"), chromedp.WaitVisible("#me .name")); err != nil {
				t.Fatal(err)
			}
			if name := browsertest.Eval[string](t, b, `document.querySelector('#me .name').textContent`); name != "Tessa" {
				t.Fatalf("after trying again the header shows %q, want Tessa", name)
			}
		})
	}
}
