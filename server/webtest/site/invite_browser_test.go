package site

import (
	"context"
	"encoding/json"
	"fmt"
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

// TestBrowserDeclineAndBlock: Bea, an account, finds three invitations on
// her home page, one from Ann and two from Cy, each with Accept, Decline and
// Block, in English and in Norwegian, on a desktop and on phones (360 and
// 390 pixels wide) with nothing out of its box. She declines Ann's: the
// line goes, a line says so, and Ann's table has an ordinary free seat. She
// blocks Cy from one of Cy's: both of Cy's go, a line says so, Cy is among
// her blocks, and Cy's tables still keep their seat for her (Cy is not
// told). After a reload no invitation is left.
func TestBrowserDeclineAndBlock(t *testing.T) {
	t.Parallel()
	for vi, code := range []string{"en", "nb"} {
		t.Run(code, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			cat := lang.Get(code)
			ts := servertest.StartFile(t, "", server.Options{})
			ctx := servertest.Context(t, 2*time.Minute)
			var b context.Context
			if code == "nb" {
				b = webtest.NorwegianBrowser(t, 1100, 900)
			} else {
				b = webtest.Browser(t, 1100, 900)
			}
			bea := servertest.NewPlayer(t, ts, "Bea")
			servertest.MakeAccount(t, ts.DB, bea, "Bea")
			webtest.AsPlayer(t, b, ts, bea)
			ann, cy := servertest.NewPlayer(t, ts, "Ann"), servertest.NewPlayer(t, ts, "Cy")
			annTable := servertest.IDOf(t, servertest.Invite(t, ts, ann, "Bea"))
			cyTables := []string{servertest.IDOf(t, servertest.Invite(t, ts, cy, "Bea")), servertest.IDOf(t, servertest.Invite(t, ts, cy, "bea"))}

			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`#invitations li[data-table="`+annTable+`"] .decline-invite`)); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, b, "three invitations", `document.querySelectorAll('#invitations li.my-game').length === 3`)
			for _, sel := range []string{".accept-invite", ".decline-invite", ".block-inviter"} {
				if n, err := chromedp.Run(b, chromedp.Evaluate[int](`document.querySelectorAll('#invitations li.my-game `+sel+`').length`)); err != nil || n != 3 {
					t.Fatalf("%s buttons: %d %v, want one on each invitation", sel, n, err)
				}
			}
			if got, want := webtest.Text(t, b, `#invitations li[data-table="`+annTable+`"] .decline-invite`), cat.Msg("web.invite.decline"); got != want {
				t.Errorf("the Decline button reads %q, want %q", got, want)
			}
			if got, want := webtest.Text(t, b, `#invitations li[data-table="`+annTable+`"] .block-inviter`), cat.Msg("web.invite.block"); got != want {
				t.Errorf("the Block button reads %q, want %q", got, want)
			}
			webtest.Settled(t, b)
			webtest.Shot(t, b, "invitations-"+code)
			for _, w := range []int64{360, 390} {
				if err := chromedp.Do(b, chromedp.EmulateViewport(w, 800, chromedp.EmulateMobile)); err != nil {
					t.Fatal(err)
				}
				webtest.Settled(t, b)
				webtest.Shot(t, b, fmt.Sprintf("invitations-%s-%d", code, w))
				over, err := chromedp.Run(b, chromedp.Evaluate[[]string](webtest.Overflowing))
				if err != nil {
					t.Fatal(err)
				}
				if wide, err := chromedp.Run(b, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`)); err != nil || wide {
					over = append(over, "the page is wider than the screen")
				}
				if len(over) > 0 {
					t.Errorf("%d pixels wide: out of its box: %q", w, over)
				}
			}
			if err := chromedp.Do(b, chromedp.EmulateViewport(1100, 900)); err != nil {
				t.Fatal(err)
			}

			// Decline Ann's.
			if err := chromedp.Do(b, browsertest.Click(`#invitations li[data-table="`+annTable+`"] .decline-invite`)); err != nil {
				t.Fatal(err)
			}
			declined := cat.Msg("web.invite.declined", "name", "Ann")
			webtest.WaitPage(t, b, "the decline said", fmt.Sprintf(`[...document.querySelectorAll('#invitations .invite-done')].some((e) => e.textContent === %q) && !document.querySelector('#invitations li[data-table="%s"]')`, declined, annTable))
			var tb struct{ Seats []map[string]any }
			if err := ann.Do(ctx, "GET", "/api/tables/"+annTable, nil, &tb); err != nil || tb.Seats[1]["invited"] != nil || tb.Seats[1]["free"] != true {
				t.Fatalf("Ann's table after the decline: %+v %v", tb, err)
			}

			// Block Cy from one of Cy's invitations: both go.
			if err := chromedp.Do(b, browsertest.Click(`#invitations li[data-table="`+cyTables[0]+`"] .block-inviter`)); err != nil {
				t.Fatal(err)
			}
			blocked := cat.Msg("web.invite.blocked", "name", "Cy")
			webtest.WaitPage(t, b, "the block said", fmt.Sprintf(`[...document.querySelectorAll('#invitations .invite-done')].some((e) => e.textContent === %q) && document.querySelectorAll('#invitations li.my-game').length === 0`, blocked))
			if got, want := webtest.Text(t, b, "#invitations h2"), cat.Msg("web.pace.invitations", "n", 0); got != want {
				t.Errorf("the heading after the decline and the block: %q, want %q", got, want)
			}
			webtest.Shot(t, b, "invitations-done-"+code)
			type blockJSON struct{ Player, Name string }
			blocks, err := chromedp.Run(b, chromedp.Evaluate[[]blockJSON](`fetch('/api/me/blocks').then((r) => r.json())`, chromedp.EvalAwaitPromise))
			if err != nil || len(blocks) != 1 || blocks[0].Player != cy.ID || blocks[0].Name != "Cy" {
				t.Fatalf("Bea's blocks: %+v %v", blocks, err)
			}
			for _, id := range cyTables {
				var raw json.RawMessage
				if err := cy.Do(ctx, "GET", "/api/tables/"+id, nil, &raw); err != nil {
					t.Fatal(err)
				}
				if s := servertest.SeatOf(t, string(raw), 1); s["invited"] != true {
					t.Fatalf("Cy's table %s after the block: seat %v, want still kept for Bea", id, s)
				}
			}
			if err := chromedp.Do(b, chromedp.Reload(), chromedp.WaitVisible("#play-now")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, b, "the games listed", `!!document.getElementById('my-games') && document.getElementById('my-games').dataset.loaded === 'yes'`)
			if n, err := chromedp.Run(b, chromedp.Evaluate[int](`document.querySelectorAll('#invitations li').length`)); err != nil || n != 0 {
				t.Fatalf("invitations after a reload: %d %v", n, err)
			}
		})
	}
}
