package site

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserDragonWinsTable: the leaderboard's wins table follows its
// tab: under Farkle the ordinary games' players with points per turn,
// under Dragon Farkle the Dragon Farkle games' players only, with
// soldiers a game and the most soldiers. In English and Norwegian, at
// phone width.
func TestBrowserDragonWinsTable(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := servertest.Context(t, 2*time.Minute)
	p := servertest.NewPlayer(t, ts, "Ann")
	farkleGame, err := p.CreateTable(ctx, servertest.ShortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	dragonGame, err := p.CreateTable(ctx, "dragon", map[string]string{"type": "bot", "level": "smart"}, map[string]string{"type": "bot", "level": "random"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{farkleGame.ID, dragonGame.ID} {
		for servertest.GetInfo(t, ctx, p.Client, id).Status != "over" {
			time.Sleep(20 * time.Millisecond) // polling the API: bots play
		}
	}
	// players reads the wins table's kind, its headings and its players.
	const read = `(() => { const t = document.querySelector('#wins-board table'); return t ? [t.dataset.kind,
	  [...t.querySelectorAll('th')].map((e) => e.innerText).join('|'), [...t.querySelectorAll('td.player a')].map((a) => a.getAttribute('href')).sort().join(' ')] : []; })()`
	for vi, c := range []struct{ lang, ppt, soldiers string }{{"en", "Points per turn", "Soldiers a game"}, {"nb", "Poeng per tur", "Soldater per spill"}} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			b := webtest.Browser(t, 390, 844)
			webtest.OpenIn(t, b, ts.URL+"/leaderboard", c.lang)
			if err := chromedp.Do(b, chromedp.WaitVisible("#wins-board table")); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(b, chromedp.Evaluate[[]string](read))
			if err != nil || len(got) != 3 || got[0] != "farkle" || !strings.Contains(got[1], c.ppt) || got[2] != "/players/bot:cautious /players/bot:steady" {
				t.Fatalf("the Farkle tab's wins table: %q %v", got, err)
			}
			if err := chromedp.Do(b, browsertest.Click(`#rating-board [role=tab]:nth-child(2)`)); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, b, "the Dragon Farkle wins table", `!!document.querySelector('#wins-board table[data-kind=dragon]')`)
			got, err = chromedp.Run(b, chromedp.Evaluate[[]string](read))
			if err != nil || len(got) != 3 || !strings.Contains(got[1], c.soldiers) || strings.Contains(got[1], c.ppt) || got[2] != "/players/bot:random /players/bot:smart" {
				t.Fatalf("the Dragon Farkle tab's wins table: %q %v, want the Dragon Farkle bots with %q", got, err, c.soldiers)
			}
			webtest.Shot(t, b, "dragon-wins-"+c.lang)
			webtest.WantFits(t, b, "the leaderboard's Dragon Farkle tab")
		})
	}
}
