package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/localplay"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/rules/rulestest"
	"github.com/farkle/farkle/server"
)

// The page is an installable web app: Chromium finds its manifest with the
// icons phones ask for and no installability error, a service worker
// controls the page and keeps the app shell, the catalogues and the
// engine of the local games, and the icons are the sizes they say.
func TestBrowserInstallable(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := Browser(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-local")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the service worker keeping the engine")
	res, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (page.GetAppManifestResult, error) {
		return cdp.Call(c, tg, page.GetAppManifest, page.GetAppManifestParams{})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("manifest error: %s", e.Message)
	}
	var m struct {
		Name, Display string
		StartURL      string `json:"start_url"`
		Icons         []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := json.Unmarshal([]byte(res.Data), &m); err != nil {
		t.Fatalf("manifest %q: %v", res.Data, err)
	}
	ie, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (page.GetInstallabilityErrorsResult, error) {
		return cdp.Call(c, tg, page.GetInstallabilityErrors, cdp.Empty{})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ie.InstallabilityErrors {
		t.Errorf("installability error: %s %v", e.ErrorID, e.ErrorArguments)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		if ic.Type != "image/png" {
			continue
		}
		resp, err := http.Get(ts.URL + ic.Src)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil || fmt.Sprintf("%dx%d", cfg.Width, cfg.Height) != ic.Sizes {
			t.Errorf("icon %s: %v, %dx%d for %s", ic.Src, err, cfg.Width, cfg.Height, ic.Sizes)
		}
		sizes[ic.Sizes+ic.Purpose] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] || !sizes["512x512maskable"] {
		t.Errorf("icons %v: want 192 and 512, and a maskable 512", sizes)
	}
	if m.Display != "standalone" || m.StartURL != ts.URL+"/" && m.StartURL != "/" {
		t.Errorf("manifest: display %q, start_url %q", m.Display, m.StartURL)
	}
	caches := browsertest.Eval[[]string](t, ctx, `caches.keys()`)
	if len(caches) != 1 || !strings.HasPrefix(caches[0], "farkle-") {
		t.Errorf("caches %v: want the one of this build", caches)
	}
	shell := browsertest.Eval[[]string](t, ctx, `(async () => (await (await caches.open((await caches.keys())[0])).keys()).map((r) => new URL(r.url).pathname))()`)
	for _, want := range []string{"/", "/local", "/static/app.js", "/static/local.js", "/static/style.css", "/static/lang/nb.json", "/static/farkle.wasm", "/static/wasm_exec.js"} {
		if !strings.Contains(" "+strings.Join(shell, " ")+" ", " "+want+" ") {
			t.Errorf("the cache lacks %s: %v", want, shell)
		}
	}
	Shot(t, ctx, "home-390-installable")
}

// tableText is what the page's game shows of the game: the scoreboard and
// the log.
const tableText = `(() => [...document.querySelectorAll('#game .scoreboard tr, #game .log li')].map((e) => e.textContent).join('|'))()`

// A local game survives closing the page: started offline after one online
// visit, played a while, its tab closed, it opens in a new tab, still
// offline with the server gone, where it was (the same version, scores and
// log), and plays on to its end.
func TestBrowserLocalGameResumesOffline(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := Browser(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the service worker keeping the engine")
	browsertest.Offline(t, ctx, true)
	ts.Stop()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/local")); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	browsertest.NewLocalGame(t, ctx, "2000")
	t.Logf("the game started offline in %s", time.Since(t0))
	// Six decisions; a game over so soon (the dice are the seed's the page
	// drew) is played again from its end screen.
	before := browsertest.PlayLocal(t, ctx, 6, time.Now().Add(time.Minute))
	for try := 0; before.Phase == "over" && try < 3; try++ {
		if err := chromedp.Do(ctx, browsertest.Click("#local-again"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
			t.Fatal(err)
		}
		before = browsertest.PlayLocal(t, ctx, 6, time.Now().Add(time.Minute))
	}
	if before.Phase == "over" || before.Version < 6 {
		t.Fatalf("after 6 decisions the game is %+v", before)
	}
	t.Logf("6 decisions played by %s", time.Since(t0))
	// Wait for the bots to be done, so the page is where the game is.
	browsertest.WaitJS(t, ctx, `document.getElementById('game').dataset.mine === 'yes'`, time.Minute, "Ann's turn")
	before = browsertest.ReadLocal(t, ctx)
	text := browsertest.Eval[string](t, ctx, tableText)

	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(c, tg, page.Close, cdp.Empty{})
		return chromedp.Void{}, err
	}); err != nil {
		t.Fatal(err)
	}
	browsertest.Offline(t, tab, true)
	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/local"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, tab, fmt.Sprintf(`document.getElementById('game').dataset.version === '%d'`, before.Version), 10*time.Second, "the game where it was")
	if after := browsertest.ReadLocal(t, tab); after != before {
		t.Fatalf("reopened: %+v, was %+v", after, before)
	}
	if got := browsertest.Eval[string](t, tab, tableText); got != text {
		t.Fatalf("reopened, the page shows\n%s\nit showed\n%s", got, text)
	}
	Shot(t, tab, "local-resumed-390")
	t.Logf("resumed by %s", time.Since(t0))
	if end := browsertest.PlayLocal(t, tab, 1<<30, time.Now().Add(3*time.Minute)); end.Phase != "over" {
		t.Fatalf("the game did not end: %+v", end)
	}
	if err := chromedp.Do(tab, chromedp.WaitVisible("#end"), chromedp.WaitVisible("#kept-line")); err != nil {
		t.Fatal(err)
	}
	line := browsertest.Eval[string](t, tab, `document.getElementById('kept-line').textContent`)
	if !strings.Contains(line, "online") {
		t.Errorf("offline, the end screen says %q of keeping the game", line)
	}
	Shot(t, tab, "local-over-offline-390")
	t.Logf("over by %s", time.Since(t0))
}

// A release replaces the app cleanly: once the page has the worker of one
// build, a new build's worker (a new /sw.js, a changed page) installs,
// deletes the old build's cache, takes the open page, and the page reloads
// by itself into the new release; offline, the new release's page opens.
func TestBrowserServiceWorkerUpdate(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	var release atomic.Int32
	// The second release: another build name in /sw.js, a mark in the page.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if release.Load() == 0 || (r.URL.Path != "/sw.js" && r.URL.Path != "/" && r.URL.Path != "/local") {
			httputil.NewSingleHostReverseProxy(mustURL(t, ts.URL)).ServeHTTP(w, r)
			return
		}
		resp, err := http.Get(ts.URL + r.URL.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if r.URL.Path == "/sw.js" {
			body = regexp.MustCompile(`"version":"(\w+)"`).ReplaceAll(body, []byte(`"version":"${1}b"`))
		} else {
			body = bytes.Replace(body, []byte("<head>"), []byte(`<head><meta name="release" content="two">`), 1)
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.Write(body)
	}))
	defer proxy.Close()
	ctx := Browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(proxy.URL+"/")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the first release kept")
	first := browsertest.Eval[[]string](t, ctx, `caches.keys()`)
	if len(first) != 1 {
		t.Fatalf("caches %v", first)
	}
	release.Store(1)
	browsertest.Eval[bool](t, ctx, `(window.oldPage = true, navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true))`)
	browsertest.WaitJS(t, ctx, `!window.oldPage && !!document.querySelector('meta[name="release"]')`, time.Minute, "the page reloaded into the second release")
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the second release kept")
	second := browsertest.Eval[[]string](t, ctx, `caches.keys()`)
	if len(second) != 1 || second[0] != first[0]+"b" {
		t.Fatalf("caches after the release: %v, before %v", second, first)
	}
	browsertest.Offline(t, ctx, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(proxy.URL+"/local"), chromedp.WaitVisible("#local-form")); err != nil {
		t.Fatal(err)
	}
	if !browsertest.Eval[bool](t, ctx, `!!document.querySelector('meta[name="release"]')`) {
		t.Fatal("offline, the page of the first release opened")
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// diffCase is one game of bots the differential test plays both ways.
type diffCase struct {
	Rules json.RawMessage  `json:"rules"`
	Seats []localplay.Seat `json:"seats"`
	Seed  string           `json:"seed"`
}

// The engine the page runs (the WebAssembly module, in Chromium) and the
// server's engine (the same packages, natively, as the server plays a
// table: game.Start and each bot's Choose) give the very same games for
// the same seed: every action and every throw of whole games of bots of
// every local level, under the presets and random rule sets (rulestest,
// any number of dice, both endings, minimums, penalties, caps on turns).
func TestWasmEngineIsTheServersEngine(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := Browser(t, 1280, 900)
	levels := []string{"expert", "steady", "bold", "cautious", "reckless"}
	var cases []diffCase
	rng := rand.New(rand.NewPCG(30, 1))
	seat := 0
	add := func(r rules.Rules, rulesJSON json.RawMessage) {
		n := max(r.Game.MinPlayers, min(r.Game.MaxPlayers, 2+len(cases)%3))
		c := diffCase{Rules: rulesJSON, Seed: fmt.Sprintf("%064x", rng.Uint64())}
		for i := range n {
			lv := levels[seat%len(levels)]
			seat++
			c.Seats = append(c.Seats, localplay.Seat{Name: fmt.Sprintf("%s %d", lv, i), Bot: lv})
		}
		cases = append(cases, c)
	}
	// Three games of each preset and 16 random rule sets with -long (CI);
	// one of each preset and four random ones otherwise: a game of bots in
	// the page's WebAssembly costs seconds of CPU.
	perPreset, random := 1, 4
	if testflags.Long() {
		perPreset, random = 3, 16
	}
	for _, p := range []string{"classic", "pocket-farkel", "farkle-dice", "cardgames"} {
		for range perPreset {
			r := rules.MustPreset(p)
			r.Game.Target = 3000
			data, _ := json.Marshal(r)
			add(r, data)
		}
	}
	for range random {
		r := rulestest.Random(rng, 3000)
		data, _ := json.Marshal(r)
		add(r, data)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(cases)
	t0 := time.Now()
	records := browsertest.Eval[[]string](t, ctx, `(async () => {
  const { loadEngine } = await import('/static/engine.js');
  const eng = await loadEngine();
  const out = [];
  for (const c of `+string(in)+`) {
    const id = eng.newGame(c, 'en');
    while (eng.botToAct(id)) {
      const m = eng.botAct(id);
      if (m.type !== 'update') throw new Error(JSON.stringify(m));
    }
    out.push(eng.record(id));
    eng.close(id);
  }
  return out;
})()`)
	t.Logf("%d games of bots in the page's engine in %s", len(records), time.Since(t0))
	if len(records) != len(cases) {
		t.Fatalf("%d records for %d games", len(records), len(cases))
	}
	actions := 0
	for i, c := range cases {
		rec, err := game.ParseRecord([]byte(records[i]))
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if _, _, err := game.Verify(rec); err != nil {
			t.Fatalf("game %d does not verify: %v", i, err)
		}
		// The server's way, natively.
		r, err := rules.ParseJSON(c.Rules)
		if err != nil {
			t.Fatal(err)
		}
		if r.Game.MaxTurns == 0 || r.Game.MaxTurns > localplay.MaxTurns {
			r.Game.MaxTurns = localplay.MaxTurns
		}
		v, err := game.NewFarkle(r)
		if err != nil {
			t.Fatal(err)
		}
		sd, _ := dice.ParseSeed(c.Seed)
		names := make([]string, len(c.Seats))
		bots := make([]bot.Strategy, len(c.Seats))
		for k, s := range c.Seats {
			names[k] = s.Name
			if bots[k], err = bot.New(s.Bot, r); err != nil {
				t.Fatal(err)
			}
		}
		p, _, err := game.Start(v, names, sd)
		if err != nil {
			t.Fatal(err)
		}
		for !p.Game().Over() {
			s := p.Game().ToAct()
			if _, err := p.Do(s, bots[s].Choose(p.Game().(*game.FarkleGame).State())); err != nil {
				t.Fatal(err)
			}
		}
		want := p.Record().Actions
		if len(rec.Actions) != len(want) {
			t.Fatalf("game %d (%s, %v): the page played %d actions, the server %d", i, r.Name, c.Seats, len(rec.Actions), len(want))
		}
		for k := range want {
			if string(rec.Actions[k]) != string(want[k]) {
				t.Fatalf("game %d (%s): action %d is %s in the page, %s on the server", i, r.Name, k+1, rec.Actions[k], want[k])
			}
		}
		if fmt.Sprint(rec.Meta.Scores) != fmt.Sprint(p.Game().Scores()) || rec.Seed != c.Seed {
			t.Fatalf("game %d: scores %v and seed %s, the server's %v", i, rec.Meta.Scores, rec.Seed, p.Game().Scores())
		}
		actions += len(want)
	}
	t.Logf("%d games, %d actions alike", len(cases), actions)
}

// The local game on a phone and a desktop, in English and Norwegian: the
// form, a game under way and the home page's offer, each looked at in a
// screenshot. The dice are buttons of at least 48 px, the buttons under
// the table do not move when the dice land (a throw, a farkle, nothing on
// the table), and with prefers-reduced-motion the dice do not tumble.
func TestBrowserLocalScreens(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	for si, size := range []struct{ w, h int64 }{{390, 844}, {1280, 900}, {360, 740}} {
		for li, lang := range []string{"en", "nb"} {
			name := fmt.Sprintf("%d-%s", size.w, lang)
			t.Run(name, func(t *testing.T) {
				testflags.SkipVariantUnlessLong(t, si*2+li)
				ctx := Browser(t, size.w, size.h)
				if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
					t.Fatal(err)
				}
				browsertest.Eval[bool](t, ctx, `(localStorage.setItem('lang', '`+lang+`'), true)`)
				if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-local")); err != nil {
					t.Fatal(err)
				}
				Shot(t, ctx, "home-"+name)
				if err := chromedp.Do(ctx, browsertest.Click("#play-local"), chromedp.WaitVisible("#local-form")); err != nil {
					t.Fatal(err)
				}
				Shot(t, ctx, "local-form-"+name)
				// the bots' levels and names in the page's language, as
				// the online pages give them
				want := map[string]struct{ level, bot string }{"en": {"Steady", "Steady bot"}, "nb": {"Stødig (Steady)", "Steady-bot"}}[lang]
				if got := browsertest.Eval[string](t, ctx, `document.querySelector('.seat-kind option[value=steady]').textContent`); got != want.level {
					t.Errorf("the steady bot's option reads %q, want %q", got, want.level)
				}
				browsertest.NewLocalGame(t, ctx, "10000")
				browsertest.WaitJS(t, ctx, `document.getElementById('game') !== null && document.getElementById('game').textContent.includes('`+want.bot+`')`, time.Minute, "the bot's seat named "+want.bot)
				if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (chromedp.Void, error) {
					_, err := cdp.Call(c, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
						Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
					return chromedp.Void{}, err
				}); err != nil {
					t.Fatal(err)
				}
				tops := map[float64]string{}
				for i := range 10 {
					browsertest.PlayLocal(t, ctx, 1, time.Now().Add(time.Minute))
					browsertest.WaitJS(t, ctx, `document.getElementById('game').dataset.mine === 'yes'`, time.Minute, "Ann's turn")
					at := browsertest.Eval[struct {
						Top, Die   float64
						Anim, Step string
					}](t, ctx, `(() => {
  const d = document.querySelector('.die-btn');
  const svg = document.querySelector('.throw-area .die');
  return {top: document.querySelector('.buttons').getBoundingClientRect().top + scrollY, die: d ? Math.min(d.offsetWidth, d.offsetHeight) : 99,
    anim: svg ? getComputedStyle(svg).animationName : 'none', step: document.getElementById('game').dataset.step};
})()`)
					tops[at.Top] = fmt.Sprintf("%s at decision %d", at.Step, i)
					if at.Die < 48 {
						t.Errorf("a die is %.0f px, under 48", at.Die)
					}
					if at.Anim != "none" {
						t.Errorf("with reduced motion the dice tumble (%s)", at.Anim)
					}
					if i == 4 {
						Shot(t, ctx, "local-game-"+name)
					}
				}
				if len(tops) != 1 {
					t.Errorf("the buttons moved as the dice landed: tops %v", tops)
				}
			})
		}
	}
}

// Friends around one phone (hot seat): the page acts for whoever's turn it
// is, each in their own name, and the game is theirs alike.
func TestBrowserHotSeat(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := Browser(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/local")); err != nil {
		t.Fatal(err)
	}
	browsertest.NewHotSeat(t, ctx, "10000", "Bea")
	seen := map[string]bool{}
	played := func(log, name string) bool {
		return strings.Contains(log, name+" keeps") || strings.Contains(log, name+" farkles")
	}
	var log string
	for range 60 {
		g := browsertest.PlayLocal(t, ctx, 1, time.Now().Add(30*time.Second))
		if g.Phase == "over" {
			break
		}
		seen[browsertest.Eval[string](t, ctx, `document.querySelector('.scoreboard tr.you .name').textContent`)] = true
		log = browsertest.Eval[string](t, ctx, `document.querySelector('#game .log').textContent`)
		if seen["Ann"] && seen["Bea"] && played(log, "Ann") && played(log, "Bea") {
			break
		}
	}
	if !seen["Ann"] || !seen["Bea"] || !played(log, "Ann") || !played(log, "Bea") {
		t.Fatalf("the page acted for %v; the log: %s", seen, log)
	}
	Shot(t, ctx, "local-hot-seat-390")
}
