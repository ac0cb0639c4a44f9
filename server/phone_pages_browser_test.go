package server_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// tooWide lists the elements of the page that stand out of the viewport
// (wider than it, or past its right or left edge), outermost first: an
// element inside a box that scrolls or clips (a wide table in its own
// scroller) counts only if that box itself stands out. The page as a
// whole scrolling sideways is named too.
const tooWide = `(() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const clipped = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true; } return false; };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  const bad = new Set();
  for (const e of document.querySelectorAll('body *')) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || (r.right <= vw + 1 && r.left >= -1)) continue;
    if (clipped(e)) continue;
    let p = e.parentElement; while (p && !bad.has(p)) p = p.parentElement;
    bad.add(e);
    if (p) continue; // inside an element already named
    out.push(name(e) + ' ' + Math.round(r.left) + '..' + Math.round(r.right) + ' "' + (e.textContent || '').trim().slice(0, 40) + '"');
  }
  if (document.documentElement.scrollWidth > vw + 1) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px');
  return out;
})()`

// sitePage is a page of the site and how to tell it is drawn.
type sitePage struct {
	name, path, ready string
}

// TestBrowserEveryPageFitsAPhone visits every page of the site (the lobby,
// a table of each kind and state, the new-table form, replays, the
// analysis, history, the leaderboard with its ratings, a player's own
// page, another's (Follow, Challenge) and a bot's, the lobby's friends,
// the account and sign-in, the tournaments and one, the explorer, the
// settings, the moderators' page) at 360×740 and 390×844 in English and
// Norwegian, with long
// names and a seed in the way, and fails on any element wider than the
// phone.
func TestBrowserEveryPageFitsAPhone(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{BotDelay: 5 * time.Millisecond, Cast: advising(pointsAdvisor{}), Analyzer: pointsAdvisor{}})
	ctx := ctxT(t, 5*time.Minute)
	me := newPlayer(t, ts, "Bartholomew-Quincy")
	defer me.Close()
	// Finished games of each kind, played by bots.
	over, err := me.CreateTable(ctx, shortRules, bots2...)
	if err != nil {
		t.Fatal(err)
	}
	dragonOver, err := me.CreateTable(ctx, "dragon", map[string]string{"type": "bot", "level": "smart"}, map[string]string{"type": "bot", "level": "random"})
	if err != nil {
		t.Fatal(err)
	}
	// The player's own tables: against a bot (ordinary and Dragon
	// Farkle), waiting for a friend, at its own pace.
	live, err := me.CreateTable(ctx, "classic", meBot...)
	if err != nil {
		t.Fatal(err)
	}
	dragonLive, err := me.CreateTable(ctx, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "smart"})
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := me.CreateTable(ctx, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	var paced wsclient.Table
	if err := me.Do(ctx, "POST", "/api/tables", map[string]any{"rules": "classic", "pace": "1d", "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}, &paced); err != nil {
		t.Fatal(err)
	}
	// Another player, followed, with an open game: their page offers
	// Follow and Challenge; the lobby lists them among friends.
	other := newPlayer(t, ts, "Wilhelmina-Anastasia")
	if _, err := other.CreateTable(ctx, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"}); err != nil {
		t.Fatal(err)
	}
	if err := me.Do(ctx, "POST", "/api/me/follows", map[string]string{"player": other.ID}, nil); err != nil {
		t.Fatal(err)
	}
	var tr tourJSON
	entrants := []map[string]string{{"type": "bot", "level": "steady"}, {"type": "bot", "level": "cautious"}, {"type": "bot", "level": "bold"}, {"type": "bot", "level": "reckless"}}
	if err := me.Do(ctx, "POST", "/api/tournaments", map[string]any{"name": "Midsummer Farkle Classic", "format": "swiss", "rules": shortRules, "size": 4, "entrants": entrants}, &tr); err != nil {
		t.Fatal(err)
	}
	tr = waitTour(t, ctx, me.Client, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
	for _, id := range []string{over.ID, dragonOver.ID} {
		for getInfo(t, ctx, me.Client, id).Status != "over" {
			time.Sleep(20 * time.Millisecond) // polling the API: bots play
		}
	}
	pages := []sitePage{
		{"home", "/", "#play-now"},
		{"lobby", "/lobby", ".tables li"},
		{"table", "/t/" + live.ID, "#game .scoreboard"},
		{"dragon-table", "/t/" + dragonLive.ID, "#game"},
		{"waiting-table", "/t/" + waiting.ID, "#game"},
		{"pace-table", "/t/" + paced.ID, "#game .scoreboard"},
		{"game-over", "/t/" + over.ID, "#end table.analysis"}, // with its analysis
		{"dragon-over", "/t/" + dragonOver.ID, "#end table.analysis"},
		{"tournament-game", "/replay/" + tr.Rounds[0][0].Table, "#tour-back"},
		{"new-table", "/new", "#create"},
		{"replay", "/replay/" + over.ID, ".replay-board table"},
		{"dragon-replay", "/replay/" + dragonOver.ID, ".replay-board table"},
		{"history", "/history", ".tables li"},
		{"leaderboard", "/leaderboard", "#rating-board"},
		{"player", "/players/" + me.ID, ".tiles"},
		{"bot", "/players/bot:steady", ".tiles"},
		{"other-player", "/players/" + other.ID, "#challenge"},
		{"lobby-friends", "/lobby", "#friends .tables li"},
		{"account", "/account", "#main h1"},
		{"tournaments", "/tournaments", "#t-create"},
		{"tournament", "/tournaments/" + tr.ID, "#t-standings"},
		{"explorer", "/explore", "#setup"},
		{"local", "/local", "#main h1"},
		moderationPage(t, ts, me), // moderation_browser_test.go: me becomes a moderator
		{"settings", "/settings", "#anim-speed"},
	}
	english := englishPhrases(t)
	for _, size := range []struct{ w, h int64 }{{360, 740}, {390, 844}} {
		for _, lang := range []string{"en", "nb"} {
			t.Run(lang+"-"+itoa3(size.w), func(t *testing.T) {
				b := browsertest.NewWithin(t, size.w, size.h, 8*time.Minute) // some 25 pages, each checked word by word in Norwegian
				signInBrowser(t, b, ts.URL, me.Token)
				openIn(t, b, ts.URL+"/", lang)
				if who := whoAmI(t, b); who.ID != me.ID {
					t.Fatalf("the browser is %+v, want %s", who, me.ID)
				}
				for _, pg := range pages {
					checkFits(t, b, ts.URL, pg, lang+"-"+itoa3(size.w))
					if lang == "nb" && size.w == 390 {
						checkNorwegian(t, b, pg, english)
						if pg.name == "leaderboard" {
							checkRatingTabs(t, b, pg, english)
						}
					}
				}
				// A browser without a player (the cookie forgotten: signing
				// out would end the player for the other runs): the sign-in
				// page, and an account made from scratch.
				if _, err := chromedp.Run(b, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
					return cdp.Call(c, tg, network.ClearBrowserCookies, cdp.Empty{})
				}); err != nil {
					t.Fatal(err)
				}
				for _, pg := range []sitePage{{"signin", "/signin", "#main h1"}, {"account-new", "/account", "#create-account"}} {
					checkFits(t, b, ts.URL, pg, lang+"-"+itoa3(size.w))
					if lang == "nb" && size.w == 390 {
						checkNorwegian(t, b, pg, english)
					}
				}
			})
		}
	}
}

// checkFits opens the page, waits for it, saves its screenshot and fails
// the test on anything wider than the phone.
func checkFits(t *testing.T, ctx context.Context, base string, pg sitePage, tag string) {
	t.Helper()
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(wait, chromedp.Navigate(base+pg.path), chromedp.WaitVisible(pg.ready)); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('main') ? document.getElementById('main').textContent.slice(0, 200) : ''`))
		t.Errorf("%s (%s): %v; the page says %q", pg.name, pg.path, err, text)
		return
	}
	settled(t, ctx)
	shot(t, ctx, pg.name+"-"+tag)
	// Every page's menu leads to the explorer and back to the site.
	if menu, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('nav a')].map((a) => a.getAttribute('href'))`)); err != nil || !slices.Contains(menu, "/explore") || !slices.Contains(menu, "/leaderboard") {
		t.Errorf("%s: the menu leads to %q (%v), want the explorer and the site's pages", pg.name, menu, err)
	}
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](tooWide))
	if err != nil {
		t.Fatal(err)
	}
	if len(wide) > 0 {
		t.Errorf("%s (%s) is wider than the phone: %q", pg.name, pg.path, wide)
	}
}

func itoa3(n int64) string {
	return string(rune('0'+n/100)) + string(rune('0'+n/10%10)) + string(rune('0'+n%10))
}
