package webtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
)

// oneDie are rules of one die: two throws in three farkle and every keep is
// hot dice, so a short game shows both moments.
func oneDie(target int) rules.Rules {
	r := rules.MustPreset("classic")
	r.Dice, r.Game.Target = 1, target
	r.Turn.FarklePenalty.Count = 0
	return r
}

const readMoment = `(() => ({
  farkle: (document.getElementById('farkle') || {}).textContent || '',
  dead: document.querySelectorAll('#farkle .die.dead').length,
  hot: (document.getElementById('hot') || {}).textContent || '',
  log: [...document.querySelectorAll('.logbox .log li')].map((l) => l.textContent),
  scoreRight: [...document.querySelectorAll('.scoreboard tbody tr')].map((r) => Math.round(r.children[1].getBoundingClientRect().right)),
  streaks: [...document.querySelectorAll('.scoreboard td.streak')].map((c) => c.textContent),
  version: Number((document.getElementById('game') || {dataset: {}}).dataset.version),
}))()`

// playOneDieTurn acts once on a one-die table when it is the page's turn:
// the roll-off, a keep of a scoring die and a throw (or a bank once the
// turn holds bankAt), or a throw. It reports whether it acted.
func playOneDieTurn(t *testing.T, ctx context.Context, bankAt int) bool {
	t.Helper()
	g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
	if err != nil {
		t.Fatal(err)
	}
	if g.Mine != "yes" || g.Phase == "over" {
		return false
	}
	switch {
	case g.Phase != "play":
		return ClickNow(t, ctx, "#roll")
	case g.Step == "keep" && len(g.Faces) == 1 && (g.Faces[0] == 1 || g.Faces[0] == 5):
		if !ClickNow(t, ctx, ".die-btn") {
			return false
		}
		g, _ = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if g.Bank && Atoi(g.Total) >= bankAt {
			return ClickNow(t, ctx, "#bank")
		}
		return ClickNow(t, ctx, "#throw")
	case g.Step == "choose" || g.Step == "throw":
		if g.Bank && Atoi(g.Total) >= bankAt {
			return ClickNow(t, ctx, "#bank")
		}
		return ClickNow(t, ctx, "#throw")
	}
	return false
}

// TestBrowserFarkleAndHotDice plays a one-die game against a bot: hot dice
// are announced through the throw of all the dice again; a farkle leaves
// its dead dice on the table with "Farkle!" until the next player throws
// (here the bot; at least a second and a half); the score column stays put
// when a streak shows; a watcher sees no Throw, Bank or Hint, only the
// odds, and no rematch; at the end the analysis names turns and links into
// the replay, which marks the dice kept; a rematch starts a new game.
func TestBrowserFarkleAndHotDice(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 700 * time.Millisecond, QuickRules: oneDie(200), Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}})
	ctx := Browser(t, 1280, 900)
	PlayNowAs(t, ctx, ts, "Ann")
	tableURL, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	// A watcher, on a phone.
	watcher := Browser(t, 390, 844)
	if err := chromedp.Do(watcher, chromedp.Navigate(tableURL), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	sawHot, sawFarkle := false, false
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) && !(sawHot && sawFarkle) {
		m, err := chromedp.Run(ctx, chromedp.Evaluate[Moment](readMoment))
		if err != nil {
			t.Fatal(err)
		}
		if m.Hot != "" && !sawHot {
			if !strings.HasPrefix(m.Hot, "Hot dice!") {
				t.Fatalf("hot dice show %q", m.Hot)
			}
			Settled(t, ctx)
			Shot(t, ctx, "hot-dice")
			sawHot = true
		}
		g, _ := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if g.Phase == "over" {
			// The bot won before both moments came: a rematch, watched too.
			if tableURL, err = rematchFrom(t, ctx, tableURL); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(watcher, chromedp.Navigate(tableURL), chromedp.WaitVisible("#game .scoreboard")); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if m.Farkle != "" && strings.Contains(m.Farkle, "Ann farkles") && !sawFarkle {
			checkFarkle(t, ctx, watcher, m)
			sawFarkle = true
			continue
		}
		if !playOneDieTurn(t, ctx, 300) {
			time.Sleep(30 * time.Millisecond)
		}
	}
	if !sawHot || !sawFarkle {
		t.Fatalf("in the game: hot dice seen %v, Ann's farkle seen %v", sawHot, sawFarkle)
	}
	// To the end of the game (Ann banks 100 at a time now).
	for time.Now().Before(deadline) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Phase == "over" {
			break
		}
		if !playOneDieTurn(t, ctx, 100) {
			time.Sleep(30 * time.Millisecond)
		}
	}
	checkEnd(t, ctx, watcher, ts)
}

// checkFarkle checks the page just after Ann's farkle: the dead die with
// "Farkle!", held until the bot's first throw; the score cells aligned
// with the streak shown; the watcher's buttons.
func checkFarkle(t *testing.T, ctx, watcher context.Context, m Moment) {
	t.Helper()
	if !strings.HasPrefix(m.Farkle, "Farkle!") || m.Dead != 1 {
		t.Fatalf("after the farkle the table shows %q with %d dead dice, want Farkle! and the die thrown", m.Farkle, m.Dead)
	}
	// Ann's streak shows: 1× after her first farkle, 2× after her second
	// when the polling of a loaded machine missed the first's moment.
	if len(m.ScoreRight) != 2 || m.ScoreRight[0] != m.ScoreRight[1] || m.Streaks[0] != "1× farkle" && m.Streaks[0] != "2× farkle" {
		t.Fatalf("scoreboard: score cells end at %v, streaks %q: want one edge, and Ann's streak of farkles", m.ScoreRight, m.Streaks)
	}
	Settled(t, ctx)
	Shot(t, ctx, "farkle")
	w, err := chromedp.Run(watcher, chromedp.Evaluate[map[string]string](`(() => ({
	  buttons: [...document.querySelectorAll('#game .buttons button')].map((b) => b.id + (b.disabled ? ':disabled' : '')).join(' '),
	  farkle: (document.getElementById('farkle') || {}).textContent || '',
	}))()`))
	if err != nil {
		t.Fatal(err)
	}
	if w["buttons"] != "hint" {
		t.Fatalf("the watcher's buttons: %q, want only the odds (hint), enabled", w["buttons"])
	}
	Settled(t, watcher)
	Shot(t, watcher, "watcher-phone")
	farkleHeld(t, ctx, m, "Ann")
}

// farkleHeld checks that who's farkle, m as the page drew it, stays until
// the next throw (the bot's); then it goes. The bot's throw is the next
// action: the page's version, read in the same step as the banner, tells
// whether it came (a count of the log's lines would not: the page shows
// only its last 80).
func farkleHeld(t *testing.T, ctx context.Context, m Moment, who string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
		now, err := chromedp.Run(ctx, chromedp.Evaluate[Moment](readMoment))
		if err != nil {
			t.Fatal(err)
		}
		if now.Version == m.Version {
			if !strings.Contains(now.Farkle, who+" farkles") {
				t.Fatalf("before the next throw the farkle went: %q", now.Farkle)
			}
			continue
		}
		if !strings.Contains(now.Farkle, who+" farkles") {
			return // gone after the bot's throw (or the bot's own farkle shows)
		}
	}
	t.Fatalf("%s's farkle still shows long after the next throw", who)
}

// checkEnd checks the end screen: the analysis speaks of turns and links
// into the replay, which marks the dice kept; the watcher has no rematch;
// Rematch starts a new game.
func checkEnd(t *testing.T, ctx, watcher context.Context, ts *servertest.Server) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#end .worst li a.replay-link"), chromedp.WaitVisible("#rematch")); err != nil {
		t.Fatal(err)
	}
	worst, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#end .worst li')].map((l) => l.textContent + '|' + l.querySelector('a').getAttribute('href'))`))
	if err != nil {
		t.Fatal(err)
	}
	Shot(t, ctx, "game-over")
	for _, w := range worst {
		text, href, _ := strings.Cut(w, "|")
		if strings.HasPrefix(text, "Action") || !(strings.Contains(text, "’s turn") || strings.HasPrefix(text, "The roll-off")) || !strings.Contains(href, "?action=3") {
			t.Fatalf("a costly moment reads %q linking %q: want its turn and a link to action 3", text, href)
		}
	}
	wb, err := chromedp.Run(watcher, chromedp.Evaluate[string](`(document.querySelector('#end') ? 'end' : 'no end') + ' ' + [...document.querySelectorAll('#end button')].map((b) => b.id).join(' ')`))
	if err != nil || wb != "end " {
		t.Fatalf("the watcher's end screen: %q %v, want no button", wb, err)
	}
	// The replay at a keep marks the die kept.
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname.split('/').pop()`))
	if err != nil {
		t.Fatal(err)
	}
	var rp struct {
		Steps []struct {
			Action struct {
				Type string
				Dice []int
			}
		}
	}
	if err := servertest.Host(t, ts).Do(ctx, "GET", "/api/tables/"+id+"/replay", nil, &rp); err != nil {
		t.Fatal(err)
	}
	keepAt := -1
	for i, s := range rp.Steps {
		if s.Action.Type == "keep" {
			keepAt = i
			break
		}
	}
	if keepAt < 0 {
		t.Fatal("no keep in the game")
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/replay/"+id+"?action="+strconv.Itoa(keepAt+1)), chromedp.WaitVisible(".replay-dice .die.kept")); err != nil {
		t.Fatal(err)
	}
	head, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('replay-at').textContent + '|' + document.querySelectorAll('.replay-dice .die.kept').length`))
	if err != nil || !strings.HasSuffix(head, "action "+strconv.Itoa(keepAt+1)+" of "+strconv.Itoa(len(rp.Steps))+"|1") || !strings.Contains(head, "’s turn") {
		t.Fatalf("the replay at action %d: %q %v, want its turn, the action and one die marked kept", keepAt+1, head, err)
	}
	Shot(t, ctx, "replay-keep")
	// Rematch: a new table, playing at once against the same bot.
	if _, err := rematchFrom(t, ctx, ts.URL+"/t/"+id); err != nil {
		t.Fatal(err)
	}
}

// rematchFrom clicks Rematch at the end of the game at url and returns
// the new table's address once its game is on.
func rematchFrom(t *testing.T, ctx context.Context, url string) (string, error) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible("#rematch")); err != nil {
		return "", err
	}
	if !ClickNow(t, ctx, "#rematch") {
		return "", errors.New("no Rematch button")
	}
	old := url[strings.LastIndex(url, "/"):]
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
		p, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, location.pathname, (document.getElementById('game') || {dataset: {}}).dataset.phase || '']`))
		if len(p) == 3 && strings.HasPrefix(p[1], "/t/") && p[1] != "/t"+old && p[2] != "" && p[2] != "over" && p[2] != "waiting" {
			return p[0], nil
		}
	}
	return "", errors.New("after Rematch no new game began")
}

// TestBrowserReducedMotion: the dice tumble in on a throw, unless the
// reader asked for less motion.
func TestBrowserReducedMotion(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour})
	ctx := Browser(t, 800, 600)
	const probe = `(() => {
	  const a = document.createElement('div'); a.className = 'throw-area rolling';
	  a.innerHTML = '<button class="die-btn"><svg class="die"></svg></button>';
	  document.body.appendChild(a);
	  const n = getComputedStyle(a.querySelector('.die')).animationName;
	  a.remove(); return n;
	})()`
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	for _, reduce := range []string{"no-preference", "reduce"} {
		_, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
			return cdp.Call(c, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: reduce}}})
		})
		if err != nil {
			t.Fatal(err)
		}
		name, err := chromedp.Run(ctx, chromedp.Evaluate[string](probe))
		want := map[string]string{"no-preference": "tumble", "reduce": "none"}[reduce]
		if err != nil || name != want {
			t.Fatalf("prefers-reduced-motion %s: the dice's animation is %q (%v), want %q", reduce, name, err, want)
		}
	}
}

// TestBrowserPhoneFits: at 390×844 a new visitor's page logs no error
// (GET /api/me answers null), the six dice of a throw stand on one row,
// the page is no wider than the phone; offline on its turn the page says
// so; the leaderboard fits.
func TestBrowserPhoneFits(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, QuickRules: rules.MustPreset("classic")})
	ctx := Browser(t, 390, 844)
	var mu sync.Mutex
	var errs []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdplog.EventEntryAdded); ok && e.Entry.Level == cdplog.EntryLevelError {
			mu.Lock()
			errs = append(errs, e.Entry.Text+" "+e.Entry.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, cdplog.Enable, cdp.Empty{})
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now"), chromedp.WaitReady("#level option")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(errs) > 0 {
		t.Fatalf("a new visitor's home page logged errors: %q", errs)
	}
	mu.Unlock()
	if err := chromedp.Do(ctx, chromedp.SendKeys("#name", "Bartholomew Quincy-Adams"), browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	type row struct {
		Tops  []int `json:"tops"`
		Width int   `json:"width"`
	}
	if g := UntilMyKeep(t, ctx); len(g.Faces) != 6 { // the page's first throw of a turn
		t.Fatalf("the first throw of the page's turn has %d dice", len(g.Faces))
	}
	r, err := chromedp.Run(ctx, chromedp.Evaluate[row](`({tops: [...document.querySelectorAll('.die-btn')].map((d) => Math.round(d.getBoundingClientRect().top)), width: document.documentElement.scrollWidth})`))
	if err != nil {
		t.Fatal(err)
	}
	for _, top := range r.Tops {
		if top != r.Tops[0] {
			t.Fatalf("the six dice stand at %v: not one row", r.Tops)
		}
	}
	if r.Width > 390 {
		t.Fatalf("the table page is %d px wide on a 390 px phone", r.Width)
	}
	Settled(t, ctx)
	Shot(t, ctx, "phone-six-dice")
	// Offline on its turn: the page says so, not that someone else plays.
	ts.Stop()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("status").textContent.includes("offline")`)); err != nil {
		status, _ := chromedp.Run(ctx, chromedp.Text("#status"))
		t.Fatalf("offline on its turn the page says %q (%v)", status, err)
	}
	status, _ := chromedp.Run(ctx, chromedp.Text("#status"))
	if !strings.HasPrefix(status, "Your turn") {
		t.Fatalf("offline on its turn the page says %q", status)
	}
	Shot(t, ctx, "phone-offline")
}

// TestBrowserLeaderboardOnAPhone: the leaderboard, with the longest name a
// player may have, fits a 390 px phone.
func TestBrowserLeaderboardOnAPhone(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := servertest.Context(t, time.Minute)
	long := servertest.NewPlayer(t, ts, "Bartholomew Quincy-Adams")
	servertest.JoinNewTable(t, ctx, long.Client, servertest.ShortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "reckless"})
	defer long.Close()
	// A game played to its end (one resigned at once would be aborted:
	// in nobody's stats).
	if err := long.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	b := Browser(t, 390, 844)
	if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/leaderboard"), chromedp.WaitVisible("table.stats tbody tr")); err != nil {
		t.Fatal(err)
	}
	Shot(t, b, "phone-leaderboard")
	w, err := chromedp.Run(b, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, Math.ceil(document.querySelector('table.stats').getBoundingClientRect().right), document.querySelectorAll('table.stats tbody tr').length]`))
	if err != nil {
		t.Fatal(err)
	}
	if w[0] > 390 || w[1] > 390 || w[2] != 2 {
		t.Fatalf("the leaderboard on a 390 px phone: page %d px, table to %d px, %d rows (want 2)", w[0], w[1], w[2])
	}
}

// TestBrowserZalgoNameStaysOnItsLine: a name stored before names were
// bounded, with a flood of marks on every letter, is clipped to its line
// on the scoreboard: the rows keep the height of an ordinary name's.
func TestBrowserZalgoNameStaysOnItsLine(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour})
	zalgo := ""
	for _, r := range "Zalgo" {
		zalgo += string(r) + strings.Repeat("\u0336\u0322\u031b\u0358\u0353", 4)
	}
	tok := "zalgo-token"
	sum := sha256.Sum256([]byte(tok))
	if err := ts.DB.CreatePlayer(context.Background(), store.Player{ID: "zalgo", Name: zalgo, TokenHash: hex.EncodeToString(sum[:]), Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ctx := Browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	AsPlayer(t, ctx, ts, &servertest.Player{Token: tok})
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#me .name"), browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	// The marks are drawn only inside the name's box (it clips them), and
	// that box lies within its row, as high as the bot's row.
	type clip struct {
		Overflow        string
		Top, Bottom     int
		RowTop, RowBot  int
		RowH, OtherRowH int
	}
	c, err := chromedp.Run(ctx, chromedp.Evaluate[clip](`(() => { const n = document.querySelector('.scoreboard tbody tr:first-child .name');
	  const r = n.closest('tr').getBoundingClientRect(), b = n.getBoundingClientRect(), o = document.querySelector('.scoreboard tbody tr:last-child').getBoundingClientRect();
	  return {overflow: getComputedStyle(n).overflow, top: Math.floor(b.top), bottom: Math.ceil(b.bottom), rowTop: Math.floor(r.top), rowBot: Math.ceil(r.bottom),
	    rowH: Math.round(r.height), otherRowH: Math.round(o.height)}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	Settled(t, ctx)
	Shot(t, ctx, "zalgo")
	if c.Overflow != "hidden" || c.Top < c.RowTop || c.Bottom > c.RowBot || c.RowH > c.OtherRowH+2 {
		t.Fatalf("the Zalgo name: %+v; want it clipped (overflow hidden) to a box within its row, the row as high as the bot's", c)
	}
}

// TestBrowserNorwegian: the language switch shows the page in Norwegian
// Bokmål, kept across pages, numbers written as Norwegian writes them.
func TestBrowserNorwegian(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour, QuickRules: rules.MustPreset("classic")})
	ctx := Browser(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#lang")); err != nil {
		t.Fatal(err)
	}
	// The switch reloads the page in the language chosen.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById('lang'); s.value = 'nb'; setTimeout(() => s.dispatchEvent(new Event('change'))); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(30 * time.Millisecond) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.lang === 'nb' && !!document.getElementById('play-now')`))
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not turn Norwegian (%v)", err)
		}
	}
	home, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.getElementById('play-now').textContent, document.querySelector('nav a').textContent, document.querySelector('.foot').textContent]`))
	if err != nil || home[0] != "Spill nå mot en bot" || home[1] != "Nytt bord" || !strings.HasPrefix(home[2], "Rettferdige terninger") {
		t.Fatalf("the home page in Norwegian: %q %v", home, err)
	}
	Shot(t, ctx, "nb-home")
	if err := chromedp.Do(ctx, chromedp.SendKeys("#name", "Kari"), browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	page, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('.scoreboard p').textContent, document.getElementById('status').textContent, document.querySelector('.scoreboard h2').textContent]`))
	if err != nil || page[0] != "Mål 10\u00a0000" || !strings.Contains("Kast én terning: høyest begynner|Steady bot kaster om hvem som begynner…", page[1]) || page[2] != "Poeng" {
		t.Fatalf("the table in Norwegian: %q %v", page, err)
	}
	Settled(t, ctx)
	Shot(t, ctx, "nb-table")
}
