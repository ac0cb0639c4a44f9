package webtest

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solved"
)

// hasText reports whether one of texts contains want.
func hasText(texts []string, want string) bool {
	return slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, want) })
}

// chooseByFace presses the number key of a face shown on the table as many
// times as dice show it, and once more: each press chooses one more die
// showing that face, the last unchooses them all. A key chose by position
// before (1: the first die).
func chooseByFace(t *testing.T, ctx context.Context, faces []int) {
	t.Helper()
	// The face to press: one whose position differs from it, if any, so
	// that choosing by position would be seen.
	f := faces[0]
	for i, x := range faces {
		if x != i+1 {
			f = x
			break
		}
	}
	n := 0
	for _, x := range faces {
		if x == f {
			n++
		}
	}
	chosen := func() []int {
		sel, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[...document.querySelectorAll('.die-btn.sel')].map((d) => Number(d.dataset.face))`))
		if err != nil {
			t.Fatal(err)
		}
		return sel
	}
	for k := 1; k <= n+1; k++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(strconv.Itoa(f))); err != nil {
			t.Fatal(err)
		}
		got := chosen()
		want := min(k, n)
		if k == n+1 {
			want = 0
		}
		if len(got) != want || slices.ContainsFunc(got, func(x int) bool { return x != f }) {
			t.Fatalf("pressing %d %d times on %v chose %v; want %d dice showing %d", f, k, faces, got, want, f)
		}
	}
}

// TestBrowserNorwegianGame: a browser whose language is Norwegian plays a
// whole game against a bot in Norwegian: the new-table form, the table
// (status, buttons, the rules list, the server's log lines, a hint),
// numbers grouped with a no-break space, the end-of-game analysis, the
// replay and a Dragon table; the number keys choose dice by face; nothing
// overflows its box on a phone.
func TestBrowserNorwegianGame(t *testing.T) {
	t.Parallel()
	r := rules.MustPreset("classic")
	r.Game.Target = 1500
	tabs := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 8, NoWait: true})
	t.Cleanup(tabs.Close)
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, QuickRules: r, Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}, Explorer: server.NewExplorer(tabs)})
	ctx := NorwegianBrowser(t, 1280, 800)

	// The new-table form.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/new"), chromedp.WaitVisible("#create"), browsertest.Click("#custom")); err != nil {
		t.Fatal(err)
	}
	if lang := Text(t, ctx, "#lang option:checked"); lang != "NB" {
		t.Errorf("the language switch shows %q, want NB", lang)
	}
	form := Texts(t, ctx, "h1, h2, legend, label, #create, #pace option")
	for _, want := range []string{"Nytt bord", "Lag bordet", "Plasser", "Poeng", "Runde", "Spill", "Enkel 1", "Tre 1-ere", "Varme terninger", "Mål",
		"Inngangskrav", "Endre reglene (husregler)", "Tempo", "1 time per trekk", "3 dager per trekk"} {
		if !hasText(form, want) {
			t.Errorf("the new-table form has no %q: %q", want, form)
		}
	}
	Settled(t, ctx)
	Shot(t, ctx, "nb-form")
	PhoneShot(t, ctx, "nb-form-phone")

	// The table.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now"), chromedp.SendKeys("#name", "Kari"),
		browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	rulesList := Texts(t, ctx, ".rules li")
	for _, want := range []string{"Enkel 1 = 100, enkel 5 = 50", "Tre like: 1-ere 1\u00a0000", "Varme terninger på", "Mål 1\u00a0500, så en siste runde"} {
		if !hasText(rulesList, want) {
			t.Errorf("the rules list has no %q: %q", want, rulesList)
		}
	}
	if got := Text(t, ctx, "summary"); got != "Regler: classic" {
		t.Errorf("the rules list is titled %q", got)
	}
	if got := Text(t, ctx, ".scoreboard p"); got != "Mål 1\u00a0500" {
		t.Errorf("the scoreboard says %q, want the target as Norwegian writes it", got)
	}
	// Every status the page shows, however briefly (a bot's turn can be
	// over before a poll sees it): the observer records each redraw.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { window.statuses = new Set();
  new MutationObserver(() => { const s = document.getElementById('status'); if (s) window.statuses.add(s.textContent); })
    .observe(document.getElementById('game'), {subtree: true, childList: true, characterData: true}); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	sawHint, sawButtons, sawKeys := false, false, false
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Phase == "over" {
			break
		}
		if g.Mine != "yes" {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		before := g.Version
		switch {
		case g.Phase != "play":
			ClickNow(t, ctx, "#roll")
		case g.Step == "keep":
			if got := Text(t, ctx, "#status"); got != "Din tur: velg terninger å beholde" {
				t.Errorf("the status on a keep: %q", got)
			}
			if !sawKeys {
				chooseByFace(t, ctx, g.Faces)
				sawKeys = true
			}
			for _, i := range PickDice(g.Faces) {
				if err := chromedp.Do(ctx, browsertest.Click(`.die-btn[data-i="`+strconv.Itoa(i)+`"]`)); err != nil {
					t.Fatal(err)
				}
			}
			if g, err = chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); err != nil {
				t.Fatal(err)
			}
			if !sawButtons {
				throw, bank := Text(t, ctx, "#throw"), Text(t, ctx, "#bank")
				if !strings.HasPrefix(throw, "Behold, kast ") || !strings.HasPrefix(bank, "Sett inn ") || !strings.HasPrefix(Text(t, ctx, "#selection"), "Valgt: ") {
					t.Errorf("the buttons and selection on a keep: %q, %q, %q", throw, bank, Text(t, ctx, "#selection"))
				}
				sawButtons = true
			}
			if !sawHint {
				if err := chromedp.Do(ctx, browsertest.Click("#hint"), chromedp.WaitVisible("#hint-choices li")); err != nil {
					t.Fatal(err)
				}
				hint := Texts(t, ctx, "#hint-box strong, #hint-choices li")
				if hint[0] != "Tips: forventede poeng denne runden" || !strings.HasPrefix(hint[1], "behold ") || !hasText(hint[1:], "forventede poeng denne runden") {
					t.Errorf("the hint in Norwegian: %q", hint)
				}
				Settled(t, ctx)
				Shot(t, ctx, "nb-table")
				PhoneShot(t, ctx, "nb-table-phone")
				sawHint = true
			}
			button := "#throw"
			if g.Bank && Atoi(g.Total) >= 300 {
				button = "#bank"
			}
			ClickNow(t, ctx, button)
		default:
			// After "keep, throw" the page throws by itself.
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('game').dataset.version !== `+strconv.Quote(strconv.Itoa(before)), chromedp.WithPollingTimeout(300*time.Millisecond))); err == nil {
				continue
			}
			if g.Bank {
				ClickNow(t, ctx, "#bank")
			} else {
				ClickNow(t, ctx, "#throw")
			}
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => { const g = document.getElementById('game'); return g.dataset.version !== `+strconv.Quote(strconv.Itoa(before))+` || g.dataset.mine !== 'yes'; })()`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("the game stayed at version %d: %v", before, err)
		}
	}
	if !sawHint || !sawKeys {
		t.Fatal("the game ended before a keep of the page's")
	}
	statuses, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...window.statuses]`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(statuses, func(s string) bool {
		return strings.HasSuffix(s, " tenker…") || strings.HasSuffix(s, "kaster om hvem som begynner…")
	}) {
		t.Errorf("never saw the bot's turn said in Norwegian: %q", statuses)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#end table.analysis"), chromedp.WaitVisible("#end .worst .replay-link")); err != nil {
		t.Fatal(err)
	}
	log := Texts(t, ctx, ".logbox li")
	for _, want := range []string{"Kari kaster ", " beholder ", "spillet er over: "} {
		if !hasText(log, want) {
			t.Errorf("the server's log lines have no %q: %q", want, log[max(0, len(log)-8):])
		}
	}
	for _, english := range []string{" throws ", " keeps ", "game over"} {
		if hasText(log, english) {
			t.Errorf("an English log line (%q): %q", english, log)
		}
	}
	end := Texts(t, ctx, "#end h2, #end h3, #end th, #end .worst li, #end a")
	for _, want := range []string{"Valg", "Spiller", "Beste valg", "Tapt", ": sett inn — best var kast (−120 forventede poeng)", "se det i opptaket", "Last ned protokollen", "Se i opptak"} {
		if !hasText(end, want) {
			t.Errorf("the end screen has no %q: %q", want, end)
		}
	}
	if h := end[0]; h != "Du vant!" && h != "Steady bot vant" {
		t.Errorf("the end screen's heading: %q", h)
	}
	Settled(t, ctx)
	Shot(t, ctx, "nb-end")

	// The replay.
	if err := chromedp.Do(ctx, browsertest.Click(`#end a[href^="/replay/"]`), chromedp.WaitVisible(".replay-board table")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector('#replay-at')`)); err != nil {
		t.Fatal(err)
	}
	replay := Texts(t, ctx, "h1, #replay-at, .replay-controls button, .replay-board th, .replay-board li")
	for _, want := range []string{"Opptak: ", " av ", "« Første", "Neste ▶", "Spiller", "Poeng", "Rundens poeng", " kaster "} {
		if !hasText(replay, want) {
			t.Errorf("the replay has no %q: %q", want, replay)
		}
	}
	Shot(t, ctx, "nb-replay")

	// A Dragon table.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-dragon"), browsertest.Click("#play-dragon"),
		chromedp.WaitVisible(".odds-chart .curve"), chromedp.WaitVisible(`#game[data-mine="yes"][data-phase="choose"]`)); err != nil {
		t.Fatal(err)
	}
	dragon := Texts(t, ctx, "#status, button, h2, .scoreboard p, .odds p, summary, .rules li")
	for _, want := range []string{"Din tur: verv, slåss eller kjemp mot dragen", "Verv", "Slåss med ", "Siste slag (krever 5\u00a0000)", "Soldater",
		"Det siste slaget krever 5\u00a0000 soldater.", "Odds i det siste slaget", "Kortene dine", "Regler: Dragon Farkle", "Slåsskamp: du kaster "} {
		if !hasText(dragon, want) {
			t.Errorf("the Dragon table has no %q: %q", want, dragon)
		}
	}
	Settled(t, ctx)
	Shot(t, ctx, "nb-dragon")
	PhoneShot(t, ctx, "nb-dragon-phone")

	// The explorer, its own page.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/explore"), chromedp.WaitVisible("#solo-table p")); err != nil {
		t.Fatal(err)
	}
	explore := Texts(t, ctx, "h1, h2, label span, #go, #solo-table p, #solo-table th")
	for _, want := range []string{"Strategiutforsker", "Regler og stilling", "Min poengsum", "Utforsk", "Når du bør sette inn", " poeng per tur med beste spill.", "6 terninger", "1 terning"} {
		if !hasText(explore, want) {
			t.Errorf("the explorer has no %q: %q", want, explore)
		}
	}
}
