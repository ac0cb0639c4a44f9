package site

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// cookieToken returns the browser's token cookie for the site.
func cookieToken(t *testing.T, ctx context.Context) string {
	t.Helper()
	res, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(c, tg, network.GetCookies, network.GetCookiesParams{})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cookies {
		if c.Name == server.CookieName {
			return c.Value
		}
	}
	return ""
}

// TestBrowserSessions drives the sessions of an account in Chromium: the
// guest's cookie is replaced when it makes an account (the old token no
// longer works); the account page lists the devices signed in (this one
// marked, named from its User-Agent), one is signed out with its button,
// and "sign out everywhere else" ends the rest but this one, in English
// and in Norwegian, on a desktop and on phones 360 and 390 px wide.
func TestBrowserSessions(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	site := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	for vi, lang := range []string{"en", "nb"} {
		t.Run(lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			var ctx context.Context
			if lang == "nb" {
				ctx = webtest.NorwegianBrowser(t, 1100, 900)
			} else {
				ctx = webtest.Browser(t, 1100, 900)
			}
			webtest.Authenticator(t, ctx)
			name := "Sessions " + lang
			if err := chromedp.Do(ctx, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now"),
				chromedp.SetValue("#name", name), browsertest.Click("#play-now")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "the table page", `location.pathname.startsWith('/t/')`)
			guestTok := cookieToken(t, ctx)
			if err := chromedp.Do(ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible("#create-account"),
				browsertest.Click("#create-account"), chromedp.WaitVisible("#recovery-code"), browsertest.Click("#recovery-saved"),
				chromedp.WaitVisible("#sessions li")); err != nil {
				t.Fatal(err)
			}
			acct := webtest.WhoAmI(t, ctx)
			if tok := cookieToken(t, ctx); tok == "" || tok == guestTok || !acct.Account {
				t.Fatalf("after making the account the cookie is %q (the guest's was %q), me %+v", tok, guestTok, acct)
			}
			if p, err := ts.DB.PlayerByToken(context.Background(), servertest.SHA(guestTok)); err == nil {
				t.Fatalf("the guest's token still reaches %+v after its account was made", p)
			}
			// Two more devices signed in (the store's, as a phone and the
			// terminal client would be).
			for _, d := range []string{"phone", "terminal"} {
				servertest.AccountSession(t, ts, acct.ID, "tok-"+lang+"-"+d, d)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible("#signout-everywhere")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "three sessions", `document.querySelectorAll('#sessions li').length === 3`)
			cur := webtest.Texts(t, ctx, "#sessions li.current strong")
			if len(cur) != 1 || !strings.Contains(cur[0], "Chrome") {
				t.Fatalf("this device is listed as %q, want one named from its User-Agent (Chrome)", cur)
			}
			webtest.Shot(t, ctx, "sessions-"+lang)
			webtest.PhoneShot(t, ctx, "sessions-"+lang+"-390")
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile)); err != nil {
				t.Fatal(err)
			}
			webtest.Settled(t, ctx)
			webtest.Shot(t, ctx, "sessions-"+lang+"-360")
			if over, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](webtest.Overflowing)); len(over) > 0 {
				t.Errorf("text out of its box 360 px wide: %q", over)
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 900)); err != nil {
				t.Fatal(err)
			}

			// The phone's button signs it out.
			phone, _, err := ts.DB.SessionByToken(context.Background(), servertest.SHA("tok-"+lang+"-phone"))
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, browsertest.Click(`#sessions li[data-id="`+phone.ID+`"] .end-session`)); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "two sessions", `document.querySelectorAll('#sessions li').length === 2`)
			if _, err := ts.DB.PlayerByToken(context.Background(), servertest.SHA("tok-"+lang+"-phone")); err == nil {
				t.Fatal("the phone's session still works after its button ended it")
			}

			// Everywhere else: the terminal's ends, this one goes on.
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.confirm = () => true, true)`)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, browsertest.Click("#signout-everywhere")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "one session left and the note", `document.querySelectorAll('#sessions li').length === 1 && document.querySelector('#sessions-note').textContent !== ''`)
			note := webtest.Texts(t, ctx, "#sessions-note")
			want := map[string]string{"en": "Signed out on 1 other device.", "nb": "Logget ut på 1 annen enhet."}[lang]
			if len(note) != 1 || note[0] != want {
				t.Fatalf("the note after signing out everywhere: %q, want %q", note, want)
			}
			webtest.Shot(t, ctx, "sessions-everywhere-"+lang)
			if _, err := ts.DB.PlayerByToken(context.Background(), servertest.SHA("tok-"+lang+"-terminal")); err == nil {
				t.Fatal("the terminal's session still works after signing out everywhere")
			}
			if me := webtest.WhoAmI(t, ctx); me.ID != acct.ID {
				t.Fatalf("this browser after signing out everywhere else: %+v", me)
			}
		})
	}
}
