package site

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/server/wsclient"
)

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
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 5 * time.Millisecond, Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}})
	ctx := servertest.Context(t, 5*time.Minute)
	me := servertest.NewPlayer(t, ts, "Bartholomew-Quincy")
	defer me.Close()
	// Finished games of each kind, played by bots.
	over, err := me.CreateTable(ctx, servertest.ShortRules, servertest.TwoBots...)
	if err != nil {
		t.Fatal(err)
	}
	dragonOver, err := me.CreateTable(ctx, "dragon", map[string]string{"type": "bot", "level": "smart"}, map[string]string{"type": "bot", "level": "random"})
	if err != nil {
		t.Fatal(err)
	}
	// The player's own tables: against a bot (ordinary and Dragon
	// Farkle), waiting for a friend, at its own pace.
	live, err := me.CreateTable(ctx, "classic", servertest.MeBot...)
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
	other := servertest.NewPlayer(t, ts, "Wilhelmina-Anastasia")
	if _, err := other.CreateTable(ctx, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"}); err != nil {
		t.Fatal(err)
	}
	if err := me.Do(ctx, "POST", "/api/me/follows", map[string]string{"player": other.ID}, nil); err != nil {
		t.Fatal(err)
	}
	var tr servertest.Tournament
	entrants := []map[string]string{{"type": "bot", "level": "steady"}, {"type": "bot", "level": "cautious"}, {"type": "bot", "level": "bold"}, {"type": "bot", "level": "reckless"}}
	if err := me.Do(ctx, "POST", "/api/tournaments", map[string]any{"name": "Midsummer Farkle Classic", "format": "swiss", "rules": servertest.ShortRules, "size": 4, "entrants": entrants}, &tr); err != nil {
		t.Fatal(err)
	}
	tr = servertest.WaitTournament(t, ctx, me.Client, tr.ID, func(tr servertest.Tournament) bool { return tr.Status == "over" })
	for _, id := range []string{over.ID, dragonOver.ID} {
		for servertest.GetInfo(t, ctx, me.Client, id).Status != "over" {
			time.Sleep(20 * time.Millisecond) // polling the API: bots play
		}
	}
	pages := []webtest.SitePage{
		{Name: "home", Path: "/", Ready: "#play-now"},
		{Name: "lobby", Path: "/lobby", Ready: ".tables li"},
		{Name: "table", Path: "/t/" + live.ID, Ready: "#game .scoreboard"},
		{Name: "dragon-table", Path: "/t/" + dragonLive.ID, Ready: "#game"},
		{Name: "waiting-table", Path: "/t/" + waiting.ID, Ready: "#game"},
		{Name: "pace-table", Path: "/t/" + paced.ID, Ready: "#game .scoreboard"},
		{Name: "game-over", Path: "/t/" + over.ID, Ready: "#end table.analysis"}, // with its analysis
		{Name: "dragon-over", Path: "/t/" + dragonOver.ID, Ready: "#end table.analysis"},
		{Name: "tournament-game", Path: "/replay/" + tr.Rounds[0][0].Table, Ready: "#tour-back"},
		{Name: "new-table", Path: "/new", Ready: "#create"},
		{Name: "replay", Path: "/replay/" + over.ID, Ready: ".replay-board table"},
		{Name: "dragon-replay", Path: "/replay/" + dragonOver.ID, Ready: ".replay-board table"},
		{Name: "history", Path: "/history", Ready: ".tables li"},
		{Name: "leaderboard", Path: "/leaderboard", Ready: "#rating-board"},
		{Name: "player", Path: "/players/" + me.ID, Ready: ".tiles"},
		{Name: "bot", Path: "/players/bot:steady", Ready: ".tiles"},
		{Name: "other-player", Path: "/players/" + other.ID, Ready: "#challenge"},
		{Name: "lobby-friends", Path: "/lobby", Ready: "#friends .tables li"},
		{Name: "account", Path: "/account", Ready: "#main h1"},
		{Name: "tournaments", Path: "/tournaments", Ready: "#t-create"},
		{Name: "tournament", Path: "/tournaments/" + tr.ID, Ready: "#t-standings"},
		{Name: "explorer", Path: "/explore", Ready: "#lang"}, // made once the page has its words: #setup is in the HTML, in English until then
		{Name: "local", Path: "/local", Ready: "#main h1"},
		webtest.ModerationPage(t, ts, me), // moderation_browser_test.go: me becomes a moderator
		{Name: "settings", Path: "/settings", Ready: "#anim-speed"},
	}
	english := webtest.EnglishPhrases(t)
	// Norwegian at 390 px first: without -long it is the one run, and it
	// checks the words too.
	for si, size := range []struct{ w, h int64 }{{390, 844}, {360, 740}} {
		for li, lang := range []string{"nb", "en"} {
			t.Run(lang+"-"+itoa3(size.w), func(t *testing.T) {
				testflags.SkipVariantUnlessLong(t, si*2+li)
				b := browsertest.NewWithin(t, size.w, size.h, 8*time.Minute) // some 25 pages, each checked word by word in Norwegian
				browsertest.OnEveryPage(t, b, watchShownAt)
				webtest.SignInBrowser(t, b, ts.URL, me.Token)
				webtest.OpenIn(t, b, ts.URL+"/", lang)
				if who := webtest.WhoAmI(t, b); who.ID != me.ID {
					t.Fatalf("the browser is %+v, want %s", who, me.ID)
				}
				drawn := 0
				for _, pg := range pages {
					if checkFits(t, b, ts.URL, pg, lang+"-"+itoa3(size.w)) {
						drawn++
					}
					if pg.Name == "new-table" { // the house rules' fields, shown on demand
						if err := chromedp.Do(b, browsertest.Click("#custom"), chromedp.WaitVisible(`.rules-form select`)); err != nil {
							t.Fatal(err)
						}
						webtest.Shot(t, b, "new-table-house-rules-"+lang+"-"+itoa3(size.w))
						webtest.WantFits(t, b, "the new-table form's house rules")
					}
					if lang == "nb" && size.w == 390 {
						webtest.CheckNorwegian(t, b, pg, english)
						if pg.Name == "leaderboard" {
							webtest.CheckRatingTabs(t, b, pg, english)
						}
					}
				}
				if drawn < len(pages)/2 { // the watch of html.ready works: else every page's moves would be left
					t.Errorf("only %d of %d pages marked themselves drawn (html.ready) by the time they were checked", drawn, len(pages))
				}
				// A browser without a player (the cookie forgotten: signing
				// out would end the player for the other runs): the sign-in
				// page, and an account made from scratch.
				if _, err := chromedp.Run(b, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
					return cdp.Call(c, tg, network.ClearBrowserCookies, cdp.Empty{})
				}); err != nil {
					t.Fatal(err)
				}
				for _, pg := range []webtest.SitePage{{Name: "signin", Path: "/signin", Ready: "#main h1"}, {Name: "account-new", Path: "/account", Ready: "#create-account"}} {
					checkFits(t, b, ts.URL, pg, lang+"-"+itoa3(size.w))
					if lang == "nb" && size.w == 390 {
						webtest.CheckNorwegian(t, b, pg, english)
					}
				}
			})
		}
	}
}

// pageShifts lists the layout shifts since the page loaded (the browser's
// Layout Instability API) that moved the header or the main part whole,
// or all that moved more than the footer where together they score 0.05
// or more (the footer moving down as the content comes is left: 0.02 to
// 0.07 on a phone; a table's chat pushed down by its game scored 0.17 to
// 0.24, the front page's "Play now" pushed down by its bots' words 0.47).
//
// A page that took longer than style.css's 1.5 s to draw itself was
// shown unfinished by design (a slow answer, a loaded machine) and moves
// once when its words come: the shifts until a frame after it marked
// itself drawn (watchShownAt) are left then.
const pageShifts = `new Promise((done) => {
	const whole = (n) => n && (n.id === 'main' || n.closest && n.closest('header'));
	const foot = (n) => n && n.classList && n.classList.contains('foot');
	const text = (e) => e.value.toFixed(3) + ' at ' + Math.round(e.startTime) + ' ms: ' + e.sources.map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?').join(', ');
	const at = window.shownAt || {}, drawn = Math.max(at['top-ready'] || 0, at.ready || performance.now()); // not drawn yet: shown by the fallback all along
	const after = drawn > 1500 ? drawn + 200 : 0;
	const found = (l) => {
		const more = l.getEntries().filter((e) => e.startTime > after && e.sources.some((s) => !foot(s.node)));
		const moved = more.reduce((sum, e) => sum + e.value, 0) >= 0.05 ? more : more.filter((e) => e.sources.some((s) => whole(s.node)));
		return moved.map(text);
	};
	new PerformanceObserver((l) => done(found(l))).observe({type: 'layout-shift', buffered: true});
	setTimeout(() => done([]), 300); // no shift at all: the observer is never called
})`

// watchShownAt, run before a page's scripts, keeps in window.shownAt when
// the page marked its header and its content drawn (html.top-ready,
// html.ready), in ms since it began to load.
const watchShownAt = `(() => { const at = {}; window.shownAt = at;
	new MutationObserver(() => { const c = document.documentElement.classList;
		for (const k of ['top-ready', 'ready']) if (c.contains(k) && !(k in at)) at[k] = performance.now(); })
		.observe(document, { attributes: true, subtree: true, attributeFilter: ['class'] }); })()`

// checkFits opens the page, waits for it, saves its screenshot and fails
// the test on anything wider than the phone; it reports whether the page
// had marked itself drawn (html.ready) when its moves were read.
func checkFits(t *testing.T, ctx context.Context, base string, pg webtest.SitePage, tag string) bool {
	t.Helper()
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(wait, chromedp.Navigate(base+pg.Path), chromedp.WaitVisible(pg.Ready)); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('main') ? document.getElementById('main').textContent.slice(0, 200) : ''`))
		t.Errorf("%s (%s): %v; the page says %q", pg.Name, pg.Path, err, text)
		return false
	}
	webtest.Settled(t, ctx)
	// Nothing moved the header or the page as a whole once shown (the
	// header filled in and the words changing language did, by a line or
	// three, under the reader's finger), nor much else (pageShifts).
	drawn := browsertest.Eval[bool](t, ctx, `!!(window.shownAt && window.shownAt.ready)`) // the local game's page loads its module first: on a loaded machine it may not be yet
	if moved, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](pageShifts, chromedp.EvalAwaitPromise)); err != nil || len(moved) > 0 {
		t.Errorf("%s: the page moved as it loaded: %q (%v)", pg.Name, moved, err)
	}
	if pg.Name == "explorer" { // this server has no explorer: the charts' kept places go with the error
		if kept := browsertest.Eval[int](t, ctx, `document.querySelectorAll('.x-wait').length`); kept != 0 {
			t.Errorf("explorer: %d charts' places kept after the answer failed", kept)
		}
	}
	webtest.Shot(t, ctx, pg.Name+"-"+tag)
	// Every page's menu leads to the explorer and back to the site.
	if menu, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('nav a')].map((a) => a.getAttribute('href'))`)); err != nil || !slices.Contains(menu, "/explore") || !slices.Contains(menu, "/leaderboard") {
		t.Errorf("%s: the menu leads to %q (%v), want the explorer and the site's pages", pg.Name, menu, err)
	}
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](webtest.TooWide))
	if err != nil {
		t.Fatal(err)
	}
	if len(wide) > 0 {
		t.Errorf("%s (%s) is wider than the phone: %q", pg.Name, pg.Path, wide)
	}
	webtest.WantChoicesFit(t, ctx, pg.Name+" ("+pg.Path+")")
	return drawn
}

func itoa3(n int64) string {
	return string(rune('0'+n/100)) + string(rune('0'+n/10%10)) + string(rune('0'+n%10))
}
