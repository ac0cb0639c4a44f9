package site

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserCrossSiteFormChangesNothing replays the attack on a real
// browser: the victim has a guest on the game (at 127.0.0.1); a page of
// another site (at localhost) auto-submits a text/plain form to POST
// /api/players, which once replaced the victim's only token. The victim's
// cookie and player must be unchanged afterwards.
func TestBrowserCrossSiteFormChangesNothing(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := webtest.Browser(t, 1000, 800)
	const forged = `<!doctype html><title>Free dice</title>
<form id="f" method="POST" action="%s/api/players" enctype="text/plain">
<input name='{"name":"Mallory' value='"}'>
</form>
<script>document.getElementById('f').submit();</script>`
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, forged, ts.URL)
	}))
	defer evil.Close()
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1) // another site than 127.0.0.1

	type me struct {
		Status int    `json:"status"`
		ID     string `json:"id"`
		Name   string `json:"name"`
	}
	const whoAmI = `fetch('/api/me').then(async (r) => ({status: r.status, ...(await r.json())}))`
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch('/api/players', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({name: 'Victim'})}).then((r) => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != http.StatusCreated {
		t.Fatalf("the victim's guest: HTTP %d, %v", status, err)
	}
	before, err := chromedp.Run(ctx, chromedp.Evaluate[me](whoAmI, chromedp.EvalAwaitPromise))
	if err != nil || before.Status != 200 || before.Name != "Victim" {
		t.Fatalf("the victim's guest: %+v %v", before, err)
	}
	cookie := func() string {
		got, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (network.GetCookiesResult, error) {
			return cdp.Call(c, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{ts.URL}})
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, ck := range got.Cookies {
			if ck.Name == server.CookieName {
				return ck.Value
			}
		}
		return ""
	}
	tokenBefore := cookie()
	if tokenBefore == "" {
		t.Fatal("the victim has no cookie")
	}

	// The victim visits the other site; its form posts itself to the game.
	if err := chromedp.Do(ctx, chromedp.Navigate(evilURL+"/")); err != nil {
		t.Fatal(err)
	}
	// The form submits itself: wait for the tab to land on the game's answer.
	var text string
	deadline := time.Now().Add(20 * time.Second)
	for text == "" {
		if time.Now().After(deadline) {
			t.Fatalf("the forged form never got the game's answer (the tab shows %q)", text)
		}
		time.Sleep(50 * time.Millisecond) // polling the tab
		text, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`location.href.startsWith(`+"`"+ts.URL+"`"+`) && document.body ? document.body.innerText : ''`))
	}
	if !strings.Contains(text, "cross-site request refused") {
		t.Errorf("the forged form's answer: %q, want the cross-site refusal", text)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	after, err := chromedp.Run(ctx, chromedp.Evaluate[me](whoAmI, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Fatalf("after the forged form the victim is %+v, was %+v", after, before)
	}
	if tok := cookie(); tok != tokenBefore {
		t.Fatalf("the victim's cookie changed: %q, was %q", tok, tokenBefore)
	}
}

// TestBrowserKeepsTheGuestUntilSignOut: once the browser has a guest, the
// name field shows it read-only and a new table keeps it; only "Sign out"
// (after the browser's confirmation) lets another name start.
func TestBrowserKeepsTheGuestUntilSignOut(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour})
	ctx := webtest.Browser(t, 1000, 800)
	type me struct {
		Status int    `json:"status"`
		ID     string `json:"id"`
		Name   string `json:"name"`
	}
	const whoAmI = `fetch('/api/me').then(async (r) => ({status: r.status, ...(await r.json())}))`
	playNow := func(name string) me {
		t.Helper()
		steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(ts.URL + "/"), chromedp.WaitVisible("#play-now"), chromedp.WaitReady("#level option")}
		if name != "" {
			steps = append(steps, chromedp.SendKeys("#name", name))
		}
		steps = append(steps, browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard"))
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
		m, err := chromedp.Run(ctx, chromedp.Evaluate[me](whoAmI, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ann := playNow("Ann")
	if ann.Name != "Ann" {
		t.Fatalf("first guest: %+v", ann)
	}
	// Back home: the field shows Ann, read-only; typing into it changes nothing.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	field, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const f = document.getElementById('name'); return f.value + '|' + f.readOnly; })()`))
	if err != nil || field != "Ann|true" {
		t.Fatalf("the name field with a guest: %q %v, want Ann, read-only", field, err)
	}
	if again := playNow("Bob"); again != ann {
		t.Fatalf("a second table made the guest %+v, was %+v", again, ann)
	}
	// Sign out, confirming: the next table starts a new guest.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#sign-out"),
		chromedp.Evaluate[chromedp.Void](`window.confirm = () => true; undefined`),
		browsertest.Click("#sign-out"),
		chromedp.WaitNotPresent("#sign-out"),
	); err != nil {
		t.Fatal(err)
	}
	bob := playNow("Bob")
	if bob.Name != "Bob" || bob.ID == ann.ID {
		t.Fatalf("after sign out: %+v (Ann was %+v)", bob, ann)
	}
}
