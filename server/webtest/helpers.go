package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
)

// Authenticator gives the browser a virtual passkey authenticator (the
// DevTools WebAuthn domain): resident keys, user verification, presence
// confirmed at once.
func Authenticator(t *testing.T, ctx context.Context) webauthn.AuthenticatorID {
	t.Helper()
	res, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (webauthn.AddVirtualAuthenticatorResult, error) {
		if _, err := cdp.Call(c, tg, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return webauthn.AddVirtualAuthenticatorResult{}, err
		}
		return cdp.Call(c, tg, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}})
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.AuthenticatorID
}

type MeJSON struct {
	Status  int    `json:"status"`
	ID      string `json:"id"`
	Name    string `json:"name"`
	Account bool   `json:"account"`
}

func WhoAmI(t *testing.T, ctx context.Context) MeJSON {
	t.Helper()
	me, err := chromedp.Run(ctx, chromedp.Evaluate[MeJSON](WhoAmIJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return me
}

// WaitPage polls the page until js is true.
func WaitPage(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: it never came", what)
		}
		time.Sleep(20 * time.Millisecond) // polling the page
	}
}

// PageText reads sel's text with one query and one read in the page, so
// that a draw replacing the node between the two cannot give "" (as
// chromedp.Text can), and reads again while it is empty, for 20 s.
func PageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	js := `(() => { const e = document.querySelector(` + strconv.Quote(sel) + `); return e ? e.innerText : '' })()`
	deadline := time.Now().Add(20 * time.Second)
	for {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		if s != "" || time.Now().After(deadline) {
			return s
		}
		time.Sleep(20 * time.Millisecond) // polling the page
	}
}

// FetchStatus runs a fetch in the page (a POST of body as JSON) and
// returns the status and the answer's error message.
func FetchStatus(t *testing.T, ctx context.Context, path, body string) (int, string) {
	t.Helper()
	type answer struct {
		Status int
		Error  string
	}
	a, err := chromedp.Run(ctx, chromedp.Evaluate[answer](`fetch(`+"`"+path+"`"+`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: `+body+`})
		.then(async (r) => ({status: r.status, error: (await r.json()).error || ''}))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return a.Status, a.Error
}

// Browser starts a headless Chromium of width×height for the test.
func Browser(t *testing.T, width, height int64) context.Context {
	return browsertest.New(t, width, height)
}

// Shot saves a screenshot of the page as name.png in the test's artifact
// directory, kept under the output directory, with `go test -artifacts`
// (browsertest.KeepShots); without it no screenshot is taken, as it would
// be removed unseen.
func Shot(t *testing.T, ctx context.Context, name string) {
	if !strings.HasSuffix(name, ".png") {
		name += ".png"
	}
	if !browsertest.KeepShots() {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: PNG
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

type GameData struct {
	Phase, Step, Mine string
	Online            string
	Version           int
	Faces             []int
	Bank, Throw       bool
	Total             string
}

const ReadGame = `(() => {
  const g = document.getElementById('game');
  if (!g) return {phase: '', step: '', mine: '', version: -1, faces: [], bank: false, throw: false, total: ''};
  const b = (id) => { const e = document.getElementById(id); return !!e && !e.disabled; };
  return {online: g.dataset.online, phase: g.dataset.phase, step: g.dataset.step, mine: g.dataset.mine, version: Number(g.dataset.version),
    faces: [...document.querySelectorAll('.die-btn')].map((d) => Number(d.dataset.face)),
    bank: b('bank'), throw: b('throw'), total: (document.getElementById('turn-total') || {}).textContent || ''};
})()`

// PickDice returns the indices of the dice to click under classic rules:
// every 1 and 5, and three of any other face thrown three or more times.
func PickDice(faces []int) []int {
	count := map[int]int{}
	for _, f := range faces {
		count[f]++
	}
	taken := map[int]int{}
	var out []int
	for i, f := range faces {
		if f == 1 || f == 5 || (count[f] >= 3 && taken[f] < 3) {
			out = append(out, i)
			taken[f]++
		}
	}
	return out
}

func Itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i))) }

func Atoi(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = n*10 + int(r-'0')
		}
	}
	return n
}

type DragonPageData struct {
	Phase, Mode, Mine string
	Version           int
	Faces             []int
	Kinds             []string // the data-kind of every enabled button
	Pool              string
	Keep              bool    // the Keep button is enabled
	Keeps             [][]int // the legal keeps (data-keeps)
	Show              string  // the step of a brawl being shown (data-show), "" for none
}

const ReadDragon = `(() => {
  const g = document.getElementById('game');
  if (!g) return {phase: '', mode: '', mine: '', version: -1, faces: [], kinds: [], pool: '', keep: false};
  const k = document.getElementById('keep');
  return {phase: g.dataset.phase, mode: g.dataset.mode, mine: g.dataset.mine, version: Number(g.dataset.version),
    faces: [...document.querySelectorAll('.die-btn')].map((d) => Number(d.dataset.face)),
    kinds: [...document.querySelectorAll('button[data-kind]:not(:disabled)')].map((b) => b.dataset.kind),
    pool: (document.getElementById('pool') || {}).textContent || '', keep: !!k && !k.disabled, keeps: JSON.parse(g.dataset.keeps || '[]'), show: g.dataset.show || ''};
})()`

func HasKind(kinds []string, k string) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// PickKeep returns the indices of the dice of a legal keep: in battle the
// one of fewest dice (the cheapest), else the one of most dice.
func PickKeep(faces []int, keeps [][]int, battle bool) []int {
	var best []int
	for _, k := range keeps {
		if best == nil || battle && len(k) < len(best) || !battle && len(k) > len(best) {
			best = k
		}
	}
	used := make([]bool, len(faces))
	var out []int
	for _, f := range best {
		for i, g := range faces {
			if g == f && !used[i] {
				used[i] = true
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// ClickNow clicks the element sel if the page shows it now. A polling
// loop reads the page and then clicks: by then the game may have moved on
// (the page not yet redrawn after the last click, a bot's move), and
// chromedp.Click would wait for an element that never comes back.
// It reports whether it clicked.
func ClickNow(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	js := `(() => { const b = document.querySelector(` + strconv.Quote(sel) + `); if (!b || b.disabled) return false; b.click(); return true; })()`
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	if err != nil {
		t.Fatal(err)
	}
	return clicked
}

// OneActionBrawls returns the seeds of a game in which Ann's first two
// decisions are brawls the bot settles in one action (neither side has a
// card usable on its throw), for the tests of how a brawl is shown.
func OneActionBrawls(t *testing.T) func() dice.Seed {
	t.Helper()
next:
	for i := range 2000 {
		s := dice.SeedFrom(fmt.Sprintf("one-action-brawl-%d", i))
		w := NewWebCardGame(t, s)
		for brawls := 0; brawls < 2; {
			if w.play.Game().Over() {
				continue next
			}
			seat, a := w.next()
			if seat != 0 {
				w.do(t, seat, a)
				continue
			}
			st := w.state()
			if st.Phase != dragon.PhaseChoose || w.g.Check(st, 0, dragon.Brawl(1)) != nil {
				continue next
			}
			ev := w.do(t, 0, dragon.Brawl(1))
			if !slices.ContainsFunc(ev, func(e dragon.Event) bool { return e.Kind == dragon.EvBrawl }) {
				continue next
			}
			brawls++
		}
		return func() dice.Seed { return s }
	}
	t.Fatal("no game whose first two brawls are settled at once")
	return nil
}

// StartDragonPage opens a Dragon Farkle table against the smart bot in a
// browser of the given size, on a server whose tables take their seeds
// from seeds (nil: random), and waits for the person's first choice.
func StartDragonPage(t *testing.T, width, height int64, seeds func() dice.Seed) context.Context {
	t.Helper()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 10 * time.Millisecond, Seeds: seeds})
	ctx := Browser(t, width, height)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-dragon"),
		chromedp.SendKeys("#name", "Ann"),
		browsertest.Click("#play-dragon"),
		chromedp.WaitVisible(".odds-chart .curve"),
		chromedp.WaitVisible(`#game[data-mine="yes"][data-phase="choose"]`),
	); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Chart scrolls the element into view and saves a screenshot of the
// viewport (an element screenshot would undo the phone's emulation), when
// screenshots are kept (browsertest.KeepShots).
func Chart(t *testing.T, ctx context.Context, id, name string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView("#"+id)); err != nil {
		t.Fatal(err)
	}
	if !browsertest.KeepShots() {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// WantFits fails the test on anything of the page wider than the phone.
func WantFits(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](TooWide))
	if err != nil {
		t.Fatal(err)
	}
	if len(wide) > 0 {
		t.Errorf("%s is wider than the phone: %q", what, wide)
	}
	WantChoicesFit(t, ctx, what)
}

// WantChoicesFit fails the test on a drop-down list of the page that cuts
// off one of its choices (ClippedOptions).
func WantChoicesFit(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](ClippedOptions))
	if err != nil {
		t.Fatal(err)
	}
	if len(cut) > 0 {
		t.Errorf("%s cuts off choices: %q", what, cut)
	}
}

func Count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func JsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// WaitVersion waits until the page shows a state after version.
func WaitVersion(t *testing.T, ctx context.Context, version int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Version > version {
			return
		}
	}
	t.Fatalf("the page stayed at version %d after playing the hint", version)
}

// OpenIn opens url in a page whose language is lang (the page's language
// switch keeps it in localStorage).
func OpenIn(t *testing.T, ctx context.Context, url, lang string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("#lang"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('lang', `+strconv.Quote(lang)+`)`),
		chromedp.Navigate(url), chromedp.WaitReady("#lang")); err != nil {
		t.Fatal(err)
	}
}

// WaitLeave waits until the page offers want ("Abort the game", "Resign")
// as a button that can be pressed: on the player's turn.
func WaitLeave(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) { // polling the page, with a deadline
		var err error
		if got, err = chromedp.Run(ctx, chromedp.Evaluate[string](LeaveText)); err != nil {
			t.Fatal(err)
		}
		if got == want {
			return
		}
	}
	t.Fatalf("the page offers %q, want %q", got, want)
}

// ModerationPage makes the player a moderator with a report, a mute and
// an audit log to show, and returns /moderate as a page of the site (for
// TestBrowserEveryPageFitsAPhone).
func ModerationPage(t *testing.T, ts *servertest.Server, me *servertest.Player) SitePage {
	t.Helper()
	servertest.MakeModerator(t, ts, me, "Bartholomew-Quincy")
	rude := servertest.NewPlayer(t, ts, "Quarrelsome-Longname")
	defer rude.Close()
	servertest.ModCall(t, me.Client, "POST", "/api/reports", map[string]any{"player": rude.ID, "reason": strings.Repeat("calls everyone names in every game ", 8)}, nil)
	if a := servertest.ModCall(t, me.Client, "POST", "/api/moderation/actions", map[string]any{"action": "mute", "player": rude.ID, "minutes": 60, "reason": "insults"}, nil); a.Status != 200 {
		t.Fatalf("a mute: %+v", a)
	}
	if a := servertest.ModCall(t, me.Client, "POST", "/api/moderation/actions", map[string]any{"action": "ban", "range": "2001:db8:1234::/48", "reason": "a flood of guests"}, nil); a.Status != 200 {
		t.Fatalf("a range ban: %+v", a)
	}
	return SitePage{"moderate", "/moderate", "#mod-audit li"}
}

// Settled waits until the page's animations have finished, for a
// screenshot that shows what a player sees once the dice have landed.
func Settled(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getAnimations().every((a) => a.playState !== 'running')`)); err != nil {
		t.Fatal(err)
	}
}

// PlayNowAs plays now against the default bot from the home page as name.
func PlayNowAs(t *testing.T, ctx context.Context, ts *servertest.Server, name string) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#play-now"),
		chromedp.SendKeys("#name", name),
		browsertest.Click("#play-now"),
		chromedp.WaitVisible("#game .scoreboard"),
	); err != nil {
		t.Fatal(err)
	}
}

// UntilMyKeep plays the page's roll-off and first throws until a throw is
// on the table for it to keep from, and returns the game then.
func UntilMyKeep(t *testing.T, ctx context.Context) GameData {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case g.Mine != "yes":
		case g.Phase != "play":
			ClickNow(t, ctx, "#roll")
		case g.Step == "throw":
			ClickNow(t, ctx, "#throw")
		case g.Step == "keep":
			return g
		}
	}
	t.Fatal("no throw to keep from on the page's turn")
	return GameData{}
}

// Moment is what the page shows of the farkle and hot-dice moments.
type Moment struct {
	Farkle     string   `json:"farkle"` // the text of #farkle, "" when none
	Dead       int      `json:"dead"`   // dead dice drawn
	Hot        string   `json:"hot"`
	Log        []string `json:"log"`
	ScoreRight []int    `json:"scoreRight"` // the right edge of each row's score cell
	Streaks    []string `json:"streaks"`
	Version    int      `json:"version"` // the game's version drawn, read with the rest in one step
}

// NorwegianBrowser is a Chromium whose language is Norwegian Bokmål, as a
// browser set up in Norway says (navigator.languages, Accept-Language and
// the locale): the page picks Norwegian by itself, with no switch.
func NorwegianBrowser(t *testing.T, width, height int64) context.Context {
	t.Helper()
	ctx := Browser(t, width, height)
	ua, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.userAgent`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		if _, err := cdp.Call(c, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "nb-NO,nb,no"}); err != nil {
			return cdp.Empty{}, err
		}
		return cdp.Call(c, tg, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: "nb_NO"})
	}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Texts returns the text of every element sel matches.
func Texts(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(`+strconv.Quote(sel)+`)].map((e) => e.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Text returns the text of the first element sel matches, "" if none.
func Text(t *testing.T, ctx context.Context, sel string) string {
	if all := Texts(t, ctx, sel); len(all) > 0 {
		return all[0]
	}
	return ""
}

// Overflowing lists the buttons, labels and headings of the page whose text
// runs out of their box or out of the screen: long Norwegian words on a
// phone.
const Overflowing = `(() => [...document.querySelectorAll('button, .button, label, h1, h2, h3, .status-line, summary, .tag, th')]
  .filter((e) => e.offsetParent !== null && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > document.documentElement.clientWidth + 1))
  .map((e) => e.tagName + (e.id ? '#' + e.id : '') + ' "' + e.textContent.trim().slice(0, 40) + '" ' + e.scrollWidth + '>' + e.clientWidth))()`

// PhoneShot shows the page on a phone (390×844), takes its screenshot as
// name, fails on any text out of its box, and goes back to the desktop.
func PhoneShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	Settled(t, ctx)
	Shot(t, ctx, name)
	over, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](Overflowing))
	if err != nil {
		t.Fatal(err)
	}
	if len(over) > 0 {
		t.Errorf("%s: text out of its box on a phone: %q", name, over)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
}

// EnglishPhrases returns the English catalogue's values that are not its
// Norwegian values: whole texts of five letters or more without
// placeholders, each of which on a Norwegian page means a text that did
// not go through the catalogue.
func EnglishPhrases(t *testing.T) []string {
	t.Helper()
	read := func(path string) map[string]string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var c struct{ Messages map[string]string }
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		return c.Messages
	}
	_, here, _, ok := runtime.Caller(0) // this file, whichever package's test calls it
	if !ok {
		t.Fatal("no source path for the catalogues")
	}
	dir := filepath.Join(filepath.Dir(here), "..", "..", "lang")
	en, nb := read(filepath.Join(dir, "en.json")), read(filepath.Join(dir, "nb.json"))
	seen := map[string]bool{}
	for _, v := range nb {
		seen[v] = true
	}
	var out []string
	for k, v := range en {
		v = strings.TrimSpace(v)
		if strings.ContainsAny(v, "{}") || utf8.RuneCountInString(v) < 5 || nb[k] == v || seen[v] || NotEnglish[v] || strings.HasPrefix(k, "cli.") {
			continue
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CheckNorwegian fails the test when the Norwegian page pg shows one of the
// English catalogue's values as a whole phrase.
func CheckNorwegian(t *testing.T, ctx context.Context, pg SitePage, english []string) {
	t.Helper()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, e := range english {
		if !strings.Contains(text, e) {
			continue
		}
		if regexp.MustCompile(`(^|[^\pL])` + regexp.QuoteMeta(e) + `($|[^\pL])`).MatchString(text) {
			found = append(found, e)
		}
	}
	if len(found) > 0 {
		t.Errorf("%s (%s) in Norwegian shows English: %q", pg.Name, pg.Path, found)
	}
}

// CheckRatingTabs opens each tab of the leaderboard's ratings (a family of
// games each) and fails the test on English in it.
func CheckRatingTabs(t *testing.T, ctx context.Context, pg SitePage, english []string) {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#rating-board [role=tab]').length`))
	if err != nil || n < 2 {
		t.Fatalf("the ratings have %d tabs (%v), want one a family", n, err)
	}
	for i := range n {
		sel := fmt.Sprintf(`#rating-board [role=tab]:nth-child(%d)`, i+1)
		if err := chromedp.Do(ctx, browsertest.Click(sel), chromedp.WaitVisible(sel+`[aria-selected=true]`)); err != nil {
			t.Fatal(err)
		}
		CheckNorwegian(t, ctx, SitePage{fmt.Sprintf("%s, ratings tab %d", pg.Name, i+1), pg.Path, pg.Ready}, english)
	}
}

// PressKeys plays one turn on a table page with the keyboard: T throws
// (or rolls off), digits pick dice, B banks at 250 or more. It returns
// when the page no longer waits on its player, and whether the game is
// over.
func PressKeys(t *testing.T, ctx context.Context) bool {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Phase == "over" {
			return true
		}
		if g.Mine != "yes" {
			return false
		}
		keys := "t"
		switch {
		case g.Phase != "play":
		case g.Step == "keep":
			keys = ""
			for _, i := range PickDice(g.Faces) {
				keys += fmt.Sprint(g.Faces[i]) // the keys choose by face
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
				t.Fatal(err)
			}
			picked, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)) // the total with the dice picked
			if err != nil {
				t.Fatal(err)
			}
			keys = "t"
			if picked.Bank && Atoi(picked.Total) >= 250 {
				keys = "b"
			}
		case g.Bank:
			keys = "b"
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
			t.Fatal(err)
		}
		// The game has moved on, and the page has nothing in flight: a
		// keep is followed by the throw or bank the page sends by itself.
		WaitPage(t, ctx, "the game to move on", fmt.Sprintf(`(() => { const g = document.getElementById('game'); return !g || (Number(g.dataset.version) !== %d && g.dataset.busy !== 'yes'); })()`, g.Version))
	}
	t.Fatal("the turn did not end within a minute")
	return false
}

// TooWide lists the elements of the page that stand out of the viewport
// (wider than it, or past its right or left edge), outermost first: an
// element inside a box that scrolls or clips (a wide table in its own
// scroller) counts only if that box itself stands out. The page as a
// whole scrolling sideways is named too.
const TooWide = `(() => {
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

// ClippedOptions lists the drop-down lists (select) of the page whose box
// is too narrow for one of their choices: the closed list shows the choice
// made on one line, and a choice longer than the box is cut off. Each
// choice's text is measured in the list's font, against the box less its
// padding, border and the arrow (20 px, Chromium's is about 16).
const ClippedOptions = `(() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const sel of document.querySelectorAll('select')) {
    if (!sel.getClientRects().length || getComputedStyle(sel).visibility === 'hidden') continue;
    const cs = getComputedStyle(sel);
    ctx.font = cs.font;
    const room = sel.getBoundingClientRect().width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
      - parseFloat(cs.borderLeftWidth) - parseFloat(cs.borderRightWidth) - 20;
    for (const o of sel.options) {
      const w = ctx.measureText(o.text).width;
      if (w > room) out.push('select' + (sel.id ? '#' + sel.id : '') + ': "' + o.text.slice(0, 60) + '" needs ' + Math.ceil(w) + ' px, has ' + Math.floor(room));
    }
  }
  return out;
})()`

// SitePage is a page of the site and how to tell it is drawn.
type SitePage struct {
	Name, Path, Ready string
}

// SignInBrowser gives the browser the player's token as its cookie.
func SignInBrowser(t *testing.T, ctx context.Context, url, token string) {
	t.Helper()
	_, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, network.SetCookie, network.SetCookieParams{Name: server.CookieName, Value: token, URL: url})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// AsPlayer gives the browser of ctx the cookie of p.
func AsPlayer(t *testing.T, ctx context.Context, ts *servertest.Server, p *servertest.Player) {
	t.Helper()
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, network.SetCookie, network.SetCookieParams{Name: server.CookieName, Value: p.Token, URL: ts.URL})
	}); err != nil {
		t.Fatal(err)
	}
}

// Stuck is a bot that does not move until released (at the test's end),
// then moves as Inner.
type Stuck struct {
	Release <-chan struct{}
	Inner   bot.Strategy
}

func (s Stuck) Choose(st engine.State) engine.Action {
	<-s.Release
	return s.Inner.Choose(st)
}

const WhoAmIJS = `fetch('/api/me').then(async (r) => ({status: r.status, ...(await r.json())}))`

func NewWebCardGame(t *testing.T, seed dice.Seed) *WebCardGame {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	p, _, err := game.Start(v, []string{"Ann", "Smart bot"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	if WebBrains.b == nil {
		WebBrains.g = v.Game()
		WebBrains.b = dragon.NewBrains(WebBrains.g)
	}
	return &WebCardGame{play: p, g: v.Game(), bot: dragon.NewBot(dragon.Smart, WebBrains.b), botSrc: dice.NewSource(seed.Derive("dragon-bots"))}
}

// LeaveText reads the page's way out of the game: the button's words, and
// whether it can be pressed.
const LeaveText = `(() => { const b = document.getElementById('leave'); return b ? (b.disabled ? 'disabled:' : '') + b.textContent : ''; })()`

// NotEnglish are English catalogue values that a Norwegian page may show
// all the same: names (of the game, of bots, of rule presets), which are
// the same in both languages, and the words Norwegian shares with English.
// The bots' levels are in their names ("Steady bot"), and a Norwegian menu
// gives the level's English name beside its own ("Stødig (Steady)").
var NotEnglish = map[string]bool{"Cautious": true, "Steady": true, "Reckless": true, "Expert": true, "Perfect": true, "Smart": true, "Simple": true, "Random": true}

// WebCardGame is a game of Ann (webCardPolicy) against the smart bot as
// the server plays it from seed: the same variant, the same source for
// the dice and for the bot's choices.
type WebCardGame struct {
	play   *game.Play
	g      *dragon.Game
	bot    *dragon.Bot
	botSrc dice.Source
	// what the game held so far: uses by a defender (by seat), hires by
	// Ann, and whether the game waited for the bot defending a brawl
	defended []int
	hired    bool
	botAsked bool
}

var WebBrains = struct {
	g *dragon.Game
	b *dragon.Brains
}{}

func (w *WebCardGame) state() dragon.State { return w.play.Game().(*game.DragonGame).State() }

// next returns the seat to act and its action.
func (w *WebCardGame) next() (int, dragon.Action) {
	s := w.state()
	seat := s.ToAct()
	v := w.g.View(s, seat)
	if seat == 1 {
		w.botAsked = w.botAsked || s.Phase == dragon.PhaseBrawl && s.Turn == 0
		return seat, w.bot.Choose(v, w.botSrc)
	}
	return seat, WebCardPolicy(v)
}

func (w *WebCardGame) do(t *testing.T, seat int, a dragon.Action) []dragon.Event {
	turn := w.state().Turn
	evs, err := w.play.Do(seat, a)
	if err != nil {
		t.Fatalf("%s by seat %d: %v", a, seat, err)
	}
	for _, e := range evs {
		e := e.(dragon.Event)
		switch {
		case e.Kind == dragon.EvUse && e.Seat != turn:
			w.defended = append(w.defended, e.Seat)
		case e.Kind == dragon.EvHire && e.Seat == 0:
			w.hired = true
		}
	}
	return DragonEvs(evs)
}

// WebCardPolicy is the person's play of TestBrowserDragonCards: attack
// with enough soldiers; hire a Companion in every third round and keep
// the new one; brawl the bot when it has more soldiers; in a brawl use the
// first usable card, then stand; keep the most dice (in battle the
// fewest; on a Rally, doubled); stop at 1000 or with two dice left;
// discard the first item.
func WebCardPolicy(v dragon.View) dragon.Action {
	legal := func(k dragon.ActionKind) []dragon.Action {
		var out []dragon.Action
		for _, a := range v.Legal {
			if a.Kind == k {
				out = append(out, a)
			}
		}
		return out
	}
	me := v.Players[v.Seat]
	switch v.Phase {
	case dragon.PhaseChoose:
		if b := legal(dragon.ActBattle); len(b) > 0 {
			return b[0]
		}
		if h := legal(dragon.ActHire); len(h) > 0 && v.Round%3 == 2 {
			return h[0]
		}
		if b := legal(dragon.ActBrawl); len(b) > 0 && v.Players[b[0].Target].Soldiers > me.Soldiers {
			return b[0]
		}
		return dragon.Recruit()
	case dragon.PhaseHire:
		return dragon.Dismiss(me.Companion.ID)
	case dragon.PhaseBrawl:
		if u := legal(dragon.ActUse); len(u) > 0 {
			return u[0]
		}
		return dragon.Pass()
	case dragon.PhaseKeep:
		var best *dragon.Action
		for _, a := range legal(dragon.ActKeep) {
			if best == nil || v.Mode == dragon.Battling && a.Keep.N() < best.Keep.N() || v.Mode != dragon.Battling && a.Keep.N() > best.Keep.N() {
				best = &a
			}
		}
		if best == nil {
			return dragon.Accept()
		}
		return *best
	case dragon.PhaseRoll, dragon.PhaseEvaded:
		if len(legal(dragon.ActStop)) > 0 && (v.Pool >= 1000 || v.Dice <= 2) {
			return dragon.Stop()
		}
		return dragon.Roll()
	case dragon.PhaseDiscard:
		return legal(dragon.ActDiscard)[0]
	}
	panic("webCardPolicy: phase " + v.Phase.String())
}

func DragonEvs(evs []game.Event) []dragon.Event {
	out := make([]dragon.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(dragon.Event)
	}
	return out
}
