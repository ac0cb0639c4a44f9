package webtest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
)

// feelStub replaces, before any script of the page runs, the phone's
// vibration and the Web Audio the dice rattle with, by recorders: each
// buzz's pattern and each sound started go to window.felt.
const feelStub = `window.felt = [];
Object.defineProperty(Navigator.prototype, 'vibrate', { configurable: true, value(p) { window.felt.push(JSON.stringify(p)); return true; } });
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: {}, connect: (x) => x, start() { window.felt.push('sound'); }, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (x) => x }; }
};`

// The farkle moment of a local game and how a throw feels on a phone, at
// 360 px: a one-die game against a bot from a chosen seed. Sound and
// vibration are off at first: Ann's throws and her farkle neither buzz
// nor sound, and the farkle shows "Farkle!" with the dead die, held until
// the bot's throw, as at a server's table. Switched on (in the game's side
// box, which stays open through the bot's moves), a throw buzzes 25 ms
// and rattles, a farkle buzzes its longer pattern; the switches are
// remembered. Throw and Bank are tap targets of 48 px at least.
func TestBrowserLocalFarkleAndFeel(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := browsertest.NewWithin(t, 360, 740, 4*time.Minute)
	browsertest.OnEveryPage(t, ctx, feelStub)
	switches := `[document.getElementById('feel-sound').checked, document.getElementById('feel-vibrate').checked]`
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/settings"), chromedp.WaitVisible("#feel-vibrate")); err != nil {
		t.Fatal(err)
	}
	if on := browsertest.Eval[[]bool](t, ctx, switches); on[0] || on[1] {
		t.Fatalf("sound and vibration at first: %v, want off", on)
	}
	setup, _ := json.Marshal(map[string]any{
		"rules": oneDie(10000), "seats": []map[string]string{{"name": "Ann"}, {"name": "Steady bot", "bot": "steady"}},
		"seed": strings.Repeat("5eed", 16), "you": 0, "started": "2026-12-02T12:00:00Z",
	})
	browsertest.Eval[bool](t, ctx, `(localStorage.setItem('farkle.local.current', `+"`"+string(setup)+"`"+`), true)`)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/local"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	felt := func() []string { return browsertest.Eval[[]string](t, ctx, `window.felt`) }

	// Off: Ann plays until she farkles.
	m := untilFarkle(t, ctx, "Ann")
	if !strings.HasPrefix(m.Farkle, "Farkle!") || m.Dead != 1 {
		t.Fatalf("after Ann's farkle the table shows %q with %d dead dice, want Farkle! and the die thrown", m.Farkle, m.Dead)
	}
	Settled(t, ctx)
	Shot(t, ctx, "local-farkle-360")
	farkleHeld(t, ctx, m, "Ann")
	if f := felt(); len(f) != 0 {
		t.Fatalf("with sound and vibration off the page played %q", f)
	}

	// On: the switches answer at once, then the game's throws and farkles.
	browsertest.Eval[bool](t, ctx, `(document.querySelector('details.local-side').open = true)`)
	if err := chromedp.Do(ctx, browsertest.Click("#feel-vibrate"), browsertest.Click("#feel-sound")); err != nil {
		t.Fatal(err)
	}
	if f := strings.Join(felt(), " "); f != "25 sound sound sound" {
		t.Fatalf("switching vibration and sound on played %q, want a buzz of 25 and three rattles", f)
	}
	browsertest.Eval[bool](t, ctx, `(window.felt = [], true)`)
	untilFarkle(t, ctx, "Ann")
	f := felt()
	count := map[string]int{}
	for _, x := range f {
		count[x]++
	}
	// A throw rattles four dice, a farkle two more.
	if count["25"] == 0 || count["[60,60,120]"] == 0 || count["sound"] != 4*count["25"]+2*count["[60,60,120]"] || len(count) != 3 {
		t.Fatalf("switched on, the throws and the farkle played %q: want buzzes of 25 (a throw) and [60,60,120] (a farkle), each with its rattle", f)
	}
	if !browsertest.Eval[bool](t, ctx, `document.querySelector('details.local-side').open`) {
		t.Error("the side box closed as the bot played")
	}

	// Throw and Bank, on Ann's turn.
	for g := browsertest.ReadLocal(t, ctx); g.Mine != "yes" || g.Phase != "play"; g = browsertest.ReadLocal(t, ctx) {
		time.Sleep(30 * time.Millisecond)
	}
	sizes := browsertest.Eval[map[string]float64](t, ctx, `Object.fromEntries(['throw', 'bank'].map((id) => [id, document.getElementById(id).getBoundingClientRect().height]))`)
	if sizes["throw"] < 48 || sizes["bank"] < 48 {
		t.Errorf("at 360 px Throw and Bank are %v px tall, want 48 at least", sizes)
	}
	Shot(t, ctx, "local-feel-on-360")

	// Remembered, on the settings page and in the game.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/settings"), chromedp.WaitVisible("#feel-vibrate")); err != nil {
		t.Fatal(err)
	}
	if on := browsertest.Eval[[]bool](t, ctx, switches); !on[0] || !on[1] {
		t.Fatalf("after a reload sound and vibration read %v, want on", on)
	}
}

// untilFarkle plays the page's one-die game for the person at the phone,
// always throwing on, until who's farkle shows; it returns the moment.
func untilFarkle(t *testing.T, ctx context.Context, who string) Moment {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		m, err := chromedp.Run(ctx, chromedp.Evaluate[Moment](readMoment))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.Farkle, who+" farkles") {
			return m
		}
		if !playOneDieTurn(t, ctx, 1<<30) {
			time.Sleep(30 * time.Millisecond)
		}
	}
	t.Fatalf("%s did not farkle within a minute", who)
	return Moment{}
}
