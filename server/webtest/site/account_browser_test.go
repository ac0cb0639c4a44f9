package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/server/wsclient"
)

// TestBrowserAccountWithPasskeys drives the accounts in Chromium with a
// virtual authenticator: a guest (one click) becomes an account with a
// passkey and sees its recovery code once (stored hashed); it signs out and
// in again with the passkey, on a second browser holding a copy of the
// passkey too, and once with the recovery code, which signs the other
// browsers out. Refused: an assertion
// made on another origin, a replayed assertion, and the recovery code used
// a second time.
func TestBrowserAccountWithPasskeys(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	site := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1) // a passkey's RP ID must be a domain name
	ctx := webtest.Browser(t, 1100, 900)
	auth := webtest.Authenticator(t, ctx)

	// The guest path stays one click.
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now"),
		chromedp.SetValue("#name", "Ann"), browsertest.Click("#play-now")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx, "the table page", `location.pathname.startsWith('/t/')`)
	guest := webtest.WhoAmI(t, ctx)
	if guest.Status != 200 || guest.Name != "Ann" || guest.Account {
		t.Fatalf("the guest: %+v", guest)
	}

	// The guest becomes an account.
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible("#create-account"),
		chromedp.SetValue("#account-name", "Ann Passkey"), browsertest.Click("#create-account"), chromedp.WaitVisible("#recovery-code")); err != nil {
		t.Fatal(err)
	}
	code, err := chromedp.Run(ctx, chromedp.Text("#recovery-code"))
	if err != nil {
		t.Fatal(err)
	}
	// The copy button puts the code on the clipboard, or, where the page
	// may not write it, selects the code for the player to copy.
	if err := chromedp.Do(ctx, browsertest.Click("#recovery-copy")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx, "the code copied", `document.getElementById('recovery-copied').textContent !== ''`)
	type copyState struct{ Said, Selected string }
	cs, err := chromedp.Run(ctx, chromedp.Evaluate[copyState](`({said: document.getElementById('recovery-copied').textContent, selected: getSelection().toString().trim()})`))
	if err != nil || !(cs.Said == "Copied" || cs.Selected == code) {
		t.Fatalf("after the copy button: %+v %v (the code %q)", cs, err, code)
	}
	t.Logf("copy: %+v", cs)
	webtest.Shot(t, ctx, "account-recovery")
	acct := webtest.WhoAmI(t, ctx)
	if acct.ID != guest.ID || acct.Name != "Ann Passkey" || !acct.Account {
		t.Fatalf("after the passkey: %+v, was %+v", acct, guest)
	}
	stored, err := ts.DB.Account(context.Background(), acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(strings.ReplaceAll(code, "-", "")))
	if len(code) != 23 || stored.RecoveryHash == code || stored.RecoveryHash != hex.EncodeToString(sum[:]) {
		t.Fatalf("recovery code %q stored as %q: want its SHA-256, not the code", code, stored.RecoveryHash)
	}
	if err := chromedp.Do(ctx, browsertest.Click("#recovery-saved"), chromedp.WaitVisible("#passkeys li")); err != nil {
		t.Fatal(err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#passkeys li').length`)); n != 1 {
		t.Fatalf("%d passkeys listed, want 1", n)
	}
	// The passkey the server named "Passkey 1" reads in the page's language.
	for _, c := range []struct{ lang, want string }{{"nb", "Passnøkkel 1"}, {"en", "Passkey 1"}} {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`localStorage.setItem('lang', '`+c.lang+`')`), chromedp.Reload(), chromedp.WaitVisible("#passkeys li strong")); err != nil {
			t.Fatal(err)
		}
		if got := webtest.Texts(t, ctx, "#passkeys li strong"); len(got) != 1 || got[0] != c.want {
			t.Fatalf("%s: the passkey is listed as %q, want %q", c.lang, got, c.want)
		}
	}

	// Sign out, then in with the passkey.
	if err := chromedp.Do(ctx, browsertest.Click("#sign-out"), chromedp.WaitVisible("#signin-link")); err != nil {
		t.Fatal(err)
	}
	if me := webtest.WhoAmI(t, ctx); me.Status != 200 || me.ID != "" { // /api/me answers null to a visitor with no player
		t.Fatalf("after signing out: %+v", me)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/signin"), chromedp.WaitVisible("#signin-passkey"), browsertest.Click("#signin-passkey"),
		chromedp.WaitVisible("#account-link")); err != nil {
		t.Fatal(err)
	}
	if me := webtest.WhoAmI(t, ctx); me.ID != acct.ID || !me.Account {
		t.Fatalf("signed in with the passkey as %+v, want %+v", me, acct)
	}

	// A replayed assertion: the same answer again, to its own ceremony and
	// to a new one, is refused; the first use signs in.
	if status, msg := webtest.FetchStatus(t, ctx, "/api/account/signin/begin", `'{}'`); status != 200 {
		t.Fatalf("sign-in begin: %d %s", status, msg)
	}
	type replay struct{ First, Again, Fresh int }
	rp, err := chromedp.Run(ctx, chromedp.Evaluate[replay](`(async () => {
		const post = (p, b) => fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(b)}).then((r) => r.status);
		const begin = async () => (await fetch('/api/account/signin/begin', {method: 'POST', headers: {'Content-Type': 'application/json'}})).json();
		const b = await begin();
		const a = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(b.publicKey)});
		const cred = a.toJSON();
		const first = await post('/api/account/signin/finish', {ceremony: b.ceremony, credential: cred});
		const again = await post('/api/account/signin/finish', {ceremony: b.ceremony, credential: cred});
		const b2 = await begin();
		const fresh = await post('/api/account/signin/finish', {ceremony: b2.ceremony, credential: cred});
		return {first, again, fresh};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if rp.First != 200 || rp.Again != http.StatusConflict || rp.Fresh != http.StatusBadRequest {
		t.Fatalf("a replayed assertion: first %d, again %d, to a new ceremony %d; want 200, 409, 400", rp.First, rp.Again, rp.Fresh)
	}

	// An assertion made on another origin (same host name, so the
	// browser lets the passkey answer) is refused by the server.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><title>elsewhere</title><p>elsewhere</p>"))
	}))
	defer other.Close()
	api := wsclient.New(site)
	var begin struct {
		Ceremony  string         `json:"ceremony"`
		PublicKey map[string]any `json:"publicKey"`
	}
	pctx := servertest.Context(t, time.Minute)
	if err := api.Do(pctx, "POST", "/api/account/signin/begin", map[string]any{}, &begin); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/"), chromedp.WaitVisible("p")); err != nil {
		t.Fatal(err)
	}
	offsite, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(async (o) => (await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(o)})).toJSON())(`+mustJSON(t, begin.PublicKey)+`)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	err = api.Do(pctx, "POST", "/api/account/signin/finish", map[string]any{"ceremony": begin.Ceremony, "credential": offsite}, nil)
	var se *wsclient.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusBadRequest || !strings.Contains(se.Body, "refused") {
		t.Fatalf("an assertion made on another origin: %v, want 400 refused", err)
	}

	// Another device: a second browser holding a copy of the passkey.
	creds, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (webauthn.GetCredentialsResult, error) {
		return cdp.Call(c, tg, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: auth})
	})
	if err != nil || len(creds.Credentials) != 1 {
		t.Fatalf("the authenticator's credentials: %d, %v", len(creds.Credentials), err)
	}
	ctx2 := webtest.Browser(t, 1100, 900)
	auth2 := webtest.Authenticator(t, ctx2)
	if _, err := chromedp.Run(ctx2, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		// cdproto's Credential always sends a CMTG field this Chromium
		// refuses; the copy sends only what a passkey is.
		type credential struct {
			CredentialID         []byte  `json:"credentialId"`
			IsResidentCredential bool    `json:"isResidentCredential"`
			RpID                 string  `json:"rpId"`
			PrivateKey           []byte  `json:"privateKey"`
			UserHandle           []byte  `json:"userHandle"`
			SignCount            float64 `json:"signCount"`
		}
		type params struct {
			AuthenticatorID webauthn.AuthenticatorID `json:"authenticatorId"`
			Credential      credential               `json:"credential"`
		}
		k := creds.Credentials[0]
		add := cdp.Command[params, cdp.Empty]{Method: webauthn.CommandAddCredential}
		return cdp.Call(c, tg, add, params{auth2, credential{k.CredentialID, k.IsResidentCredential, k.RpID, k.PrivateKey, k.UserHandle, k.SignCount}})
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx2, chromedp.Navigate(site+"/signin"), chromedp.WaitVisible("#signin-passkey"), browsertest.Click("#signin-passkey"),
		chromedp.WaitVisible("#account-link")); err != nil {
		t.Fatal(err)
	}
	if me := webtest.WhoAmI(t, ctx2); me.ID != acct.ID {
		t.Fatalf("the second device signed in as %+v", me)
	}

	// The recovery code, on a third browser with no passkey: once.
	ctx3 := webtest.Browser(t, 1100, 900)
	if err := chromedp.Do(ctx3, chromedp.Navigate(site+"/signin"), chromedp.WaitVisible("#recover"),
		chromedp.SetValue("#recover-name", "ann passkey"), chromedp.SetValue("#recover-code", strings.ToLower(code)), browsertest.Click("#recover"),
		chromedp.WaitVisible("#recovery-code")); err != nil {
		t.Fatal(err)
	}
	next, _ := chromedp.Run(ctx3, chromedp.Text("#recovery-code"))
	if me := webtest.WhoAmI(t, ctx3); me.ID != acct.ID || next == code || len(next) != 23 {
		t.Fatalf("recovered as %+v with the next code %q (the first was %q)", me, next, code)
	}
	status, msg := webtest.FetchStatus(t, ctx3, "/api/account/recover", `JSON.stringify({name: 'Ann Passkey', code: '`+code+`'})`)
	if status != http.StatusNotFound || !strings.Contains(msg, "works once") {
		t.Fatalf("the recovery code used a second time: %d %q", status, msg)
	}
	// The recovery signed every other device out; the second browser
	// signs in again with its copy of the passkey (the first's copy is
	// behind on the signature counter now: it would be refused as a
	// clone).
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#me")); err != nil {
		t.Fatal(err)
	}
	for i, c := range []context.Context{ctx, ctx2} {
		if me := webtest.WhoAmI(t, c); me.ID != "" {
			t.Fatalf("browser %d after a recovery elsewhere: still %+v", i+1, me)
		}
	}
	if err := chromedp.Do(ctx2, chromedp.Navigate(site+"/signin"), chromedp.WaitVisible("#signin-passkey"), browsertest.Click("#signin-passkey"),
		chromedp.WaitVisible("#account-link")); err != nil {
		t.Fatal(err)
	}

	// The account page adds a passkey on a new authenticator (the old one
	// already holds one for the account, which the server excludes), and
	// removes the old one, but never the last.
	if _, err := chromedp.Run(ctx2, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, webauthn.RemoveVirtualAuthenticator, webauthn.RemoveVirtualAuthenticatorParams{AuthenticatorID: auth2})
	}); err != nil {
		t.Fatal(err)
	}
	webtest.Authenticator(t, ctx2)
	if err := chromedp.Do(ctx2, chromedp.Navigate(site+"/account"), chromedp.WaitVisible("#add-passkey"), browsertest.Click("#add-passkey")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx2, "a second passkey", `document.querySelectorAll('#passkeys li').length === 2`)
	keys, err := ts.DB.Passkeys(context.Background(), acct.ID)
	if err != nil || len(keys) != 2 {
		t.Fatalf("stored passkeys: %d, %v", len(keys), err)
	}
	if _, err := chromedp.Run(ctx2, chromedp.Evaluate[bool](`(window.confirm = () => true, true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx2, browsertest.Click(`#passkeys li[data-id="`+keys[0].ID+`"] .remove-passkey`)); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx2, "the old passkey removed", `document.querySelectorAll('#passkeys li').length === 1 && document.querySelector('.remove-passkey').disabled`)
	webtest.Shot(t, ctx2, "account-passkeys")
	if left, _ := ts.DB.Passkeys(context.Background(), acct.ID); len(left) != 1 || left[0].ID != keys[1].ID {
		t.Fatalf("passkeys left: %+v", left)
	}
	if err := chromedp.Do(ctx2, browsertest.Click("#sign-out"), chromedp.WaitVisible("#signin-link"), chromedp.Navigate(site+"/signin"),
		chromedp.WaitVisible("#signin-passkey"), browsertest.Click("#signin-passkey"), chromedp.WaitVisible("#account-link")); err != nil {
		t.Fatal(err)
	}
	if me := webtest.WhoAmI(t, ctx2); me.ID != acct.ID {
		t.Fatalf("signed in with the new passkey as %+v", me)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
