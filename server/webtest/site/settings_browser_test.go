package site

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
	"github.com/farkle/farkle/server/wsclient"
)

// dieMotion puts a die as the table draws a throw just made into the page
// and returns how the page's style sheet animates it: "name duration", or
// "none".
const dieMotion = `(() => {
  const area = document.createElement('div');
  area.className = 'throw-area rolling';
  area.innerHTML = '<button class="die-btn"><span class="die"></span></button>';
  document.getElementById('game').append(area);
  const cs = getComputedStyle(area.querySelector('.die'));
  const out = cs.animationName === 'none' ? 'none' : cs.animationName + ' ' + cs.animationDuration;
  area.remove();
  return out;
})()`

// reducedMotion makes the browser say it prefers reduced motion (or not).
func reducedMotion(t *testing.T, ctx context.Context, on bool) {
	t.Helper()
	value := "no-preference"
	if on {
		value = "reduce"
	}
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: value}}})
	}); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserSettings: the settings page, reached from the header's gear on
// a desktop and a phone in English and Norwegian, starts with the sound
// off, the animations as the system asks and no notifications; the
// animation speed chosen is kept in the browser and the table page
// animates a throw by it: the tumble at its normal speed, faster, or not at
// all, and not at all under "as the system asks" when the system prefers
// reduced motion (unless the player chose a speed). Sound turned on stays
// on.
func TestBrowserSettings(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Hour}) // the bot never moves: the table stays as it is
	ctx := servertest.Context(t, 3*time.Minute)
	me := servertest.NewPlayer(t, ts, "Tessa")
	defer me.Close()
	tb, err := me.CreateTable(ctx, "classic", servertest.MeBot...)
	if err != nil {
		t.Fatal(err)
	}
	for vi, c := range []struct {
		lang string
		w, h int64
	}{{"en", 1280, 800}, {"nb", 390, 844}, {"en", 360, 740}, {"nb", 1280, 800}} {
		t.Run(fmt.Sprintf("%s-%d", c.lang, c.w), func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			b := webtest.Browser(t, c.w, c.h)
			webtest.SignInBrowser(t, b, ts.URL, me.Token)
			webtest.OpenIn(t, b, ts.URL+"/", c.lang)
			cat := lang.Get(c.lang)
			// The header settles first: the player's name and links fill it
			// after /api/me answers, and on a phone that moves the gear, so a
			// click aimed before would land on whatever took its place.
			if err := chromedp.Do(b, chromedp.WaitVisible("#me #account-link"), browsertest.Click("header a.gear"), chromedp.WaitVisible("#anim-speed")); err != nil {
				t.Fatal(err)
			}
			type form struct {
				Title, Label, Anim string
				Sound, Notify      bool
			}
			f, err := chromedp.Run(b, chromedp.Evaluate[form](`({title: document.querySelector('#main h1').textContent, label: document.querySelector('header a.gear').ariaLabel,
				anim: document.getElementById('anim-speed').value, sound: document.getElementById('feel-sound').checked, notify: document.getElementById('notify-moves').checked})`))
			if err != nil {
				t.Fatal(err)
			}
			if f.Title != cat.Msg("web.set.title") || f.Label != f.Title || f.Anim != "auto" || f.Sound || f.Notify {
				t.Fatalf("the settings at first: %+v; want the title %q, animations as the system asks, no sound, no notifications", f, cat.Msg("web.set.title"))
			}
			webtest.Shot(t, b, fmt.Sprintf("settings-%s-%d", c.lang, c.w))
			if wide, err := chromedp.Run(b, chromedp.Evaluate[[]string](webtest.TooWide)); err != nil || len(wide) > 0 {
				t.Errorf("the settings page is wider than the screen: %q %v", wide, err)
			}
			if c.lang == "nb" && c.w == 390 {
				webtest.CheckNorwegian(t, b, webtest.SitePage{Name: "settings", Path: "/settings", Ready: "#anim-speed"}, webtest.EnglishPhrases(t))
			}
			motion := func(want string) {
				t.Helper()
				if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/t/"+tb.ID), chromedp.WaitVisible("#game .scoreboard")); err != nil {
					t.Fatal(err)
				}
				got, err := chromedp.Run(b, chromedp.Evaluate[string](dieMotion))
				if err != nil || got != want {
					t.Fatalf("the table animates a throw as %q (%v), want %q", got, err, want)
				}
			}
			choose := func(speed string) {
				t.Helper()
				if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/settings"), chromedp.WaitVisible("#anim-speed"), chromedp.SetValue("#anim-speed", speed),
					chromedp.Evaluate[chromedp.Void](`document.getElementById('anim-speed').dispatchEvent(new Event('change'))`)); err != nil {
					t.Fatal(err)
				}
			}
			reducedMotion(t, b, false)
			motion("tumble 0.45s")
			reducedMotion(t, b, true)
			motion("none")
			choose("fast")
			motion("tumble 0.18s") // chosen: the system's wish no longer decides
			choose("normal")
			motion("tumble 0.45s")
			reducedMotion(t, b, false)
			choose("off")
			motion("none")
			choose("auto")
			motion("tumble 0.45s")
			// The sound, turned on, stays on.
			if err := chromedp.Do(b, chromedp.Navigate(ts.URL+"/settings"), chromedp.WaitVisible("#feel-sound"), browsertest.Click("#feel-sound"),
				chromedp.Navigate(ts.URL+"/settings"), chromedp.WaitVisible("#feel-sound")); err != nil {
				t.Fatal(err)
			}
			if on, err := chromedp.Run(b, chromedp.Evaluate[bool](`document.getElementById('feel-sound').checked`)); err != nil || !on {
				t.Fatalf("the sound turned on reads %v after a reload (%v)", on, err)
			}
		})
	}
}

// watchNotifications, run before the page's own scripts, records every
// notification the page makes (window.__notes) and lets the test hide the
// tab (window.__hidden): headless Chromium's tab is never hidden itself.
const watchNotifications = `(() => {
  const N = window.Notification;
  window.__notes = [];
  window.Notification = class extends N {
    constructor(title, opts) { window.__notes.push({title, body: (opts || {}).body || '', tag: (opts || {}).tag || ''}); super(title, opts); }
    static get permission() { return N.permission; }
    static requestPermission(...a) { return N.requestPermission(...a); }
  };
  Object.defineProperty(document, 'hidden', { get: () => window.__hidden === true });
})()`

// TestBrowserNotifiesYourMove: a player who turned notifications on in the
// settings (the browser allowing them) gets one notification, naming the
// game, when a game at their own pace becomes theirs to move while the
// tab is hidden; none while the tab shows, none for a move they already
// knew of, and none once they turned notifications off.
func TestBrowserNotifiesYourMove(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := servertest.Context(t, 3*time.Minute)
	ann, bea := servertest.NewPlayer(t, ts, "Ann"), servertest.NewPlayer(t, ts, "Bea")
	defer ann.Close()
	defer bea.Close()
	var tb struct{ ID string }
	if err := ann.Do(ctx, "POST", "/api/tables", map[string]any{"rules": "classic", "pace": "1h", "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}, &tb); err != nil {
		t.Fatal(err)
	}
	if _, err := bea.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	// handOver plays p's moves until the other seat is to act.
	handOver := func(p, other *servertest.Player) {
		t.Helper()
		for {
			for other.Last.Version < p.Last.Version {
				if _, err := other.Read(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if p.Last.Phase == "over" {
				t.Fatal("the game ended before the test did")
			}
			if p.Last.Actor != p.Seat {
				return
			}
			typ, d := wsclient.Choose(p.Last)
			if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
				t.Fatal(err)
			}
			for v := p.Last.Version; p.Last.Version == v; {
				if m, err := p.Read(ctx); err != nil || m.Type == "error" {
					t.Fatalf("seat %d's move: %+v %v", p.Seat, m, err)
				}
			}
		}
	}
	b := browsertest.NewWhole(t, 1280, 800) // the headless shell shows no notifications
	site := ts.URL
	browsertest.OnEveryPage(t, b, watchNotifications)
	if err := chromedp.FromContext(b).Browser.Call(b, cdpbrowser.CommandSetPermission, cdpbrowser.SetPermissionParams{Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: site}, nil); err != nil {
		t.Fatal(err)
	}
	webtest.SignInBrowser(t, b, site, ann.Token)
	if err := chromedp.Do(b, chromedp.Navigate(site+"/settings"), chromedp.WaitVisible("#notify-moves"), browsertest.Click("#notify-moves"),
		chromedp.WaitVisible("#notify-said")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, b, "notifications on", `document.getElementById('notify-moves').checked && document.getElementById('notify-said').textContent === 'Notifications are on.'`)
	// refresh is the page's poll of the player's games (every 30 s), asked now.
	refresh := func() int {
		t.Helper()
		n, err := chromedp.Run(b, chromedp.Evaluate[int](`import('/static/pace.js').then((m) => m.refreshTitleCount()).then(() => window.__notes.length)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	hide := func(hidden bool) {
		t.Helper()
		if _, err := chromedp.Run(b, chromedp.Evaluate[bool](`(window.__hidden = `+map[bool]string{true: "true", false: "false"}[hidden]+`)`)); err != nil {
			t.Fatal(err)
		}
	}
	// round makes it Bea's move, lets the page see that, hides the tab or
	// not, and hands the move to Ann; it returns the notifications made.
	round := func(hidden bool) int {
		t.Helper()
		if ann.Last.Actor == ann.Seat {
			handOver(ann, bea)
		}
		hide(false)
		refresh()
		hide(hidden)
		handOver(bea, ann)
		return refresh()
	}
	if err := chromedp.Do(b, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	// The players connect once the browser is ready: a connection must be
	// read to answer the server's pings.
	for _, p := range []*servertest.Player{ann, bea} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		for p.Last == nil {
			if _, err := p.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := round(false); n != 0 {
		t.Fatalf("the tab showing: %d notifications, want none", n)
	}
	if n := round(true); n != 1 {
		t.Fatalf("the tab hidden: %d notifications, want one", n)
	}
	if n := refresh(); n != 1 {
		t.Fatalf("the same move seen again: %d notifications, want still one", n)
	}
	type note struct{ Title, Body, Tag string }
	notes, err := chromedp.Run(b, chromedp.Evaluate[[]note](`window.__notes`))
	if err != nil {
		t.Fatal(err)
	}
	if notes[0].Title != "Your move in Farkle" || notes[0].Tag != "farkle-move-"+tb.ID || !strings.Contains(notes[0].Body, "Bea") {
		t.Errorf("the notification: %+v; want the move in the game against Bea", notes[0])
	}
	// Turned off: no more.
	if err := chromedp.Do(b, chromedp.Navigate(site+"/settings"), chromedp.WaitVisible("#notify-moves"), browsertest.Click("#notify-moves")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, b, "notifications off", `!document.getElementById('notify-moves').checked`)
	if n := round(true); n != 0 {
		t.Fatalf("notifications off: %d made, want none", n)
	}
}
