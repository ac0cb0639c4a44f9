package site

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserAccountFromScratch: a first visit to /account (no guest, no
// game) makes an account there directly, with a passkey, and shows its
// recovery code.
func TestBrowserAccountFromScratch(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	site := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1) // a passkey's RP ID must be a domain name
	ctx := webtest.Browser(t, 390, 844)
	webtest.Authenticator(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible("#create-account")); err != nil {
		t.Fatal(err)
	}
	if me := webtest.WhoAmI(t, ctx); me.Status != 200 || me.ID != "" {
		t.Fatalf("before: %+v, want no player", me)
	}
	webtest.Shot(t, ctx, "account-new")
	if err := chromedp.Do(ctx, chromedp.SendKeys("#account-name", "Tessa Fresh"), browsertest.Click("#create-account"), chromedp.WaitVisible("#recovery-code")); err != nil {
		t.Fatal(err)
	}
	me := webtest.WhoAmI(t, ctx)
	if me.Name != "Tessa Fresh" || !me.Account {
		t.Fatalf("after: %+v, want the account Tessa Fresh", me)
	}
}
