package site

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// TestBrowserGuestsShownApart: an account named Tessa and a guest named
// Tessa both play; the leaderboard by wins and by rating, and the history,
// mark the guest "(guest)" and neither the account nor the bot. In
// English and Norwegian, at phone width.
func TestBrowserGuestsShownApart(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{RatingBoardGames: 1, BotDelay: time.Millisecond})
	ctx := servertest.Context(t, 2*time.Minute)
	account, guest := servertest.NewPlayer(t, ts, "Tessa"), servertest.NewPlayer(t, ts, "Tessa")
	for _, p := range []*servertest.Player{account, guest} {
		var tb wsclient.Table
		body := map[string]any{"rules": "classic", "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}
		if err := p.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
			t.Fatal(err)
		}
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		if err := p.PlayToEnd(ctx); err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	// One of them makes an account afterwards (its games and ratings are
	// read with the account's flag when shown).
	cred, _ := json.Marshal(map[string]any{"id": "k1"})
	if err := ts.Store.CreateAccount(context.Background(), store.Account{PlayerID: account.ID, Name: "Tessa", RecoveryHash: "r"},
		store.Passkey{ID: "k1", PlayerID: account.ID, Label: "key", Credential: cred}, store.Session{TokenHash: "s-" + account.ID, Device: "test"}); err != nil {
		t.Fatal(err)
	}
	// marks reads, in a part of the page, the names and whether each is
	// marked a guest.
	const marks = `((sel) => [...document.querySelectorAll(sel + ' .name')].map((e) => e.innerText))`
	for vi, c := range []struct{ lang, tag string }{{"en", "Tessa (guest)"}, {"nb", "Tessa (gjest)"}} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			bctx := webtest.Browser(t, 390, 844)
			webtest.SignInBrowser(t, bctx, ts.URL, guest.Token)
			webtest.OpenIn(t, bctx, ts.URL+"/leaderboard", c.lang)
			if err := chromedp.Do(bctx, chromedp.WaitVisible("table.leaderboard"), chromedp.WaitVisible("#rating-board table")); err != nil {
				t.Fatal(err)
			}
			for _, sel := range []string{"table.leaderboard", "#rating-board table"} {
				names, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](marks+`(`+webtest.JsString(sel)+`)`))
				if err != nil {
					t.Fatal(err)
				}
				if webtest.Count(names, c.tag) != 1 || webtest.Count(names, "Tessa") != 1 {
					t.Errorf("%s names %q: want one %q and one Tessa (the account), the bot unmarked", sel, names, c.tag)
				}
			}
			webtest.Shot(t, bctx, "guests-leaderboard-"+c.lang)
			if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/history"), chromedp.WaitVisible("ul.tables li")); err != nil {
				t.Fatal(err)
			}
			names, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](marks+`('ul.tables')`))
			if err != nil {
				t.Fatal(err)
			}
			if webtest.Count(names, c.tag) != 1 || webtest.Count(names, "Tessa") != 1 {
				t.Errorf("the history's names %q: want one %q and one Tessa", names, c.tag)
			}
			webtest.Shot(t, bctx, "guests-history-"+c.lang)
		})
	}
}
