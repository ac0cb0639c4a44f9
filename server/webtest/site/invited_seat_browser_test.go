package site

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserInvitedSeatOnTablePage: Ann invites Bea (an account) to an
// ordinary table and to a Dragon Farkle table. On each table's own page
// the kept seat reads as the lobby has it, Bea marked invited, never "free
// seat"; the page says the seat waits for her. Cy, a stranger, is offered
// no seat and told only the invited player can take it (the server refuses
// him the seat too, and keeps it).
// Bea herself takes it and the game starts with her name, the invited mark
// gone. In English and Norwegian, at 1280 and 390 pixels with nothing out
// of its box.
func TestBrowserInvitedSeatOnTablePage(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"farkle", "dragon"} {
		for vi, code := range []string{"en", "nb"} {
			t.Run(kind+"-"+code, func(t *testing.T) {
				testflags.SkipVariantUnlessLong(t, vi)
				cat := lang.Get(code)
				ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour})
				var b = webtest.Browser(t, 1280, 800)
				if code == "nb" {
					b = webtest.NorwegianBrowser(t, 1280, 800)
				}
				ann, bea, cy := servertest.NewPlayer(t, ts, "Ann"), servertest.NewPlayer(t, ts, "Bea"), servertest.NewPlayer(t, ts, "Cy")
				servertest.MakeAccount(t, ts.DB, bea, "Bea")
				body := map[string]any{"pace": "1d", "rules": servertest.ShortRules, "seats": []map[string]string{{"type": "me"}, {"type": "invite", "name": "Bea"}}}
				if kind == "dragon" {
					body = map[string]any{"rules": "dragon", "seats": []map[string]string{{"type": "me"}, {"type": "invite", "name": "Bea"}}}
				}
				id := servertest.IDOf(t, servertest.Call(t, ts, ann.Token, "POST", "/api/tables", body))

				// Cy, a stranger: Bea's seat by her name, no seat offered.
				webtest.AsPlayer(t, b, ts, cy)
				if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible(".scoreboard .invited-seat")); err != nil {
					t.Fatal(err)
				}
				webtest.WaitPage(t, b, "the waiting card", `!!document.querySelector('.waiting .kept-note')`)
				if got, want := webtest.Text(t, b, ".scoreboard .invited-seat"), "Bea"+cat.Msg("tag.invited"); got != want {
					t.Errorf("the kept seat reads %q, want %q", got, want)
				}
				if got := webtest.Text(t, b, ".scoreboard"); strings.Contains(got, cat.Msg("seat.free")) {
					t.Errorf("the scoreboard %q says %q of the kept seat", got, cat.Msg("seat.free"))
				}
				if got, want := webtest.Text(t, b, ".waiting .kept-note"), cat.Msg("web.seatKeptNote", "name", "Bea"); got != want {
					t.Errorf("the waiting card says %q, want %q", got, want)
				}
				if got, want := webtest.Text(t, b, "#kept-only"), cat.Msg("web.seatKeptWatch"); got != want {
					t.Errorf("to a stranger: %q, want %q", got, want)
				}
				if n, err := chromedp.Run(b, chromedp.Evaluate[int](`document.querySelectorAll('#take-seat').length`)); err != nil || n != 0 {
					t.Errorf("a stranger is offered a seat: %d take buttons, %v", n, err)
				}
				webtest.Settled(t, b)
				webtest.Shot(t, b, fmt.Sprintf("invited-%s-%s-1280", kind, code))
				if err := chromedp.Do(b, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
					t.Fatal(err)
				}
				webtest.Settled(t, b)
				webtest.Shot(t, b, fmt.Sprintf("invited-%s-%s-390", kind, code))
				webtest.WantFits(t, b, "the waiting table at 390 pixels")
				if err := chromedp.Do(b, chromedp.EmulateViewport(1280, 800)); err != nil {
					t.Fatal(err)
				}

				// The server refuses Cy the seat too, and keeps it.
				if a := servertest.Call(t, ts, cy.Token, "POST", "/api/tables/"+id+"/join", nil); a.Status != 409 {
					t.Fatalf("Cy's join: %v, want 409", a)
				}
				if s := servertest.SeatOf(t, servertest.Call(t, ts, ann.Token, "GET", "/api/tables/"+id, nil).Body, 1); s["invited"] != true || s["free"] != true {
					t.Fatalf("after Cy's try the seat is %v, want still kept for Bea", s)
				}

				// Bea takes her seat: the game starts, her name unmarked.
				webtest.AsPlayer(t, b, ts, bea)
				if err := chromedp.Do(b, chromedp.Reload(), chromedp.WaitVisible("#take-seat"), browsertest.Click("#take-seat")); err != nil {
					t.Fatal(err)
				}
				webtest.WaitPage(t, b, "Bea seated", `!document.querySelector('.waiting') && !document.querySelector('.scoreboard .invited-seat') && [...document.querySelectorAll('.scoreboard .name')].some((e) => e.textContent === 'Bea')`)
				webtest.Settled(t, b)
				webtest.Shot(t, b, fmt.Sprintf("invited-%s-%s-taken", kind, code))
			})
		}
	}
}
