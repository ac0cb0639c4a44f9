package site

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/server/wsclient"
)

// TestBrowserInviteReplacesASeat: in the new-table form that starts as
// "you and a bot", naming a friend to invite shows the friend in the bot's
// seat (two seats, not three), the table made has those two seats, and the
// lobby does not offer the seat kept for the friend to anyone else.
func TestBrowserInviteReplacesASeat(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := webtest.Browser(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady("#level option"), chromedp.SendKeys("#name", "Tessa"),
		chromedp.Navigate(ts.URL+"/new"), chromedp.WaitVisible("#create"), chromedp.WaitVisible("#seat-list li")); err != nil {
		t.Fatal(err)
	}
	seatsNow := func() []string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#seat-list li')].map((li) => li.textContent.replace('✕', '').trim())`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := seatsNow(); len(s) != 2 || strings.Contains(strings.Join(s, "|"), "Ola") {
		t.Fatalf("the form starts with the seats %q", s)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys("#invite", "Ola")); err != nil {
		t.Fatal(err)
	}
	s := seatsNow()
	if len(s) != 2 || s[1] != "Ola (invited)" {
		t.Fatalf("with Ola invited the seats read %q: want two, the second Ola's", s)
	}
	webtest.Shot(t, ctx, "invite-form")
	if err := chromedp.Do(ctx, browsertest.Click("#create")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ctx, "the new table", `location.pathname.startsWith('/t/')`)
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	id := loc[strings.LastIndex(loc, "/")+1:]
	other := servertest.NewPlayer(t, ts, "Someone")
	var tb wsclient.Table
	if err := other.Do(ctx, "GET", "/api/tables/"+id, nil, &tb); err != nil {
		t.Fatal(err)
	}
	if len(tb.Seats) != 2 {
		t.Fatalf("the table made has %d seats, want 2", len(tb.Seats))
	}
	// Someone else's lobby lists no seat to join.
	b2 := webtest.Browser(t, 390, 844)
	webtest.SignInBrowser(t, b2, ts.URL, other.Token)
	if err := chromedp.Do(b2, chromedp.Navigate(ts.URL+"/lobby"), chromedp.WaitVisible("#main h2")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, b2, "the lobby's lists", `document.querySelectorAll('#main h2').length >= 2`)
	if n, err := chromedp.Run(b2, chromedp.Evaluate[int](`document.querySelectorAll('a[href="/t/`+id+`"]').length`)); err != nil || n != 0 {
		t.Fatalf("another player's lobby offers the invited table %d times (%v)", n, err)
	}
}
