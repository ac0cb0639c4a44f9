package webtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
)

// TestBrowserDragonCards plays a whole game against the smart bot by
// clicking, in which Ann hires a Companion (both cards shown side by
// side, the new one kept) and defends a brawl with a Magic Item (asked on
// the bot's turn, the throw to beat shown). The game is found first by
// playing the same policy on the server's variant from seeds; the
// server is given that seed, and the page must offer each decision the
// game makes, play it by the buttons and end as the game ends.
func TestBrowserDragonCards(t *testing.T) {
	t.Parallel()
	var seed dice.Seed
	for i := 0; ; i++ {
		if i == 2000 {
			t.Fatal("no game in which Ann hires and defends a brawl with a card, and the bot is asked defending")
		}
		s := dice.SeedFrom(fmt.Sprintf("web-cards-%d", i))
		w := NewWebCardGame(t, s)
		for n := 0; !w.play.Game().Over(); n++ {
			if n > 5000 {
				t.Fatal("the game does not end")
			}
			seat, a := w.next()
			w.do(t, seat, a)
		}
		if w.hired && slices.Contains(w.defended, 0) && w.botAsked {
			seed = s
			break
		}
	}
	ctx := StartDragonPage(t, 1280, 1100, func() dice.Seed { return seed })
	// Every status the page shows, however briefly (the bot decides at
	// once): the observer sees each redraw.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { window.statuses = new Set();
  new MutationObserver(() => { const s = document.getElementById('status'); if (s) window.statuses.add(s.textContent); })
    .observe(document.getElementById('game'), {subtree: true, childList: true, characterData: true}); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	type pageState struct {
		Version int
		Mine    string
		Show    string
		Phase   string
		Status  string
	}
	const readPage = `(() => { const g = document.getElementById('game'); const s = document.getElementById('status');
  return {version: Number(g.dataset.version), mine: g.dataset.mine, show: g.dataset.show || '', phase: g.dataset.phase, status: s ? s.textContent : ''}; })()`
	read := func() pageState {
		p, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](readPage))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// waitFor waits until the page is at version and Ann's decision (mine),
	// or at version or later (the bot may have played on), skipping brawl
	// shows.
	waitFor := func(version int, mine bool) pageState {
		deadline := time.Now().Add(15 * time.Second)
		for {
			p := read()
			if p.Show != "" {
				ClickNow(t, ctx, "#skip-brawl")
			} else if p.Version == version && p.Mine == "yes" || !mine && p.Version >= version {
				return p
			}
			if time.Now().After(deadline) {
				Shot(t, ctx, "dragon-cards-stuck")
				logText, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('.log li')].slice(-12).map((l) => l.textContent).join('\n')`))
				t.Fatalf("the page is at version %d (mine %s, phase %s), not %d; it shows:\n%s", p.Version, p.Mine, p.Phase, version, logText)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	click := func(sel string) {
		for end := time.Now().Add(5 * time.Second); !ClickNow(t, ctx, sel); {
			if time.Now().After(end) {
				Shot(t, ctx, "dragon-cards-stuck")
				t.Fatalf("click %s: not on the page", sel)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	text := func(sel string) string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const e = document.querySelector(`+fmt.Sprintf("%q", sel)+`); return e ? e.textContent : ''; })()`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	w := NewWebCardGame(t, seed)
	saw := map[string]bool{}
	for !w.play.Game().Over() {
		seat, a := w.next()
		if testing.Verbose() {
			t.Logf("%d: seat %d %s", len(w.play.Record().Actions), seat, a)
		}
		if seat != 0 {
			w.do(t, seat, a)
			continue
		}
		version := len(w.play.Record().Actions)
		p := waitFor(version, true)
		s := w.state()
		v := w.g.View(s, 0)
		switch a.Kind {
		case dragon.ActRecruit, dragon.ActBattle, dragon.ActBrawl, dragon.ActAccept, dragon.ActDiscard:
			click(`button[data-kind="` + a.Kind.String() + `"]`)
		case dragon.ActHire:
			click("#hire-companion")
		case dragon.ActDismiss:
			if own, offer := text("#keep-own"), text("#keep-new"); own != "Keep "+v.Players[0].Companion.Name || offer != "Keep "+v.Offer.Name {
				t.Fatalf("the hire shows %q and %q, not the Companion held, %s, and the one hired, %s", own, offer, v.Players[0].Companion.Name, v.Offer.Name)
			}
			if !saw["hire"] {
				Shot(t, ctx, "dragon-cards-hire")
				saw["hire"] = true
			}
			click("#keep-new")
		case dragon.ActUse, dragon.ActPass:
			if p.Phase != "brawl" {
				click(`button[data-kind="use"]`) // a card on a recruiting or battle throw
				break
			}
			if s.Brawl.Defending {
				if !strings.HasPrefix(p.Status, "You defend against Smart bot") || !strings.Contains(strings.ReplaceAll(text("#brawl-score"), ",", ""), fmt.Sprintf("against %d", s.Brawl.Score)) {
					t.Fatalf("defending, the page says %q and %q", p.Status, text("#brawl-score"))
				}
				if a.Kind == dragon.ActUse && !saw["defend"] {
					Shot(t, ctx, "dragon-cards-defend")
					saw["defend"] = true
				}
			}
			if a.Kind == dragon.ActUse {
				click(`button[data-kind="use"]`)
			} else {
				click("#pass")
			}
		case dragon.ActKeep:
			forced := v.Mode == dragon.Recruiting && v.Event == dragon.Dragon
			if !forced {
				used := make([]bool, v.Throw.N())
				for _, f := range a.Keep.Faces() {
					for i, g := range v.Throw.Faces() {
						if g == f && !used[i] {
							used[i] = true
							click(fmt.Sprintf(`.die-btn[data-i="%d"]`, i))
							break
						}
					}
				}
			}
			click("#keep")
		case dragon.ActRoll:
			click("#roll")
		case dragon.ActStop:
			click("#stop")
		default:
			t.Fatalf("no button for %s", a)
		}
		w.do(t, seat, a)
		waitFor(len(w.play.Record().Actions), false)
		said := map[dragon.ActionKind]string{dragon.ActHire: "Ann pays 200 soldiers to hire", dragon.ActDismiss: "Ann dismisses", dragon.ActUse: "Ann uses"}[a.Kind]
		if said != "" && !strings.Contains(text(".log"), said) {
			t.Errorf("after %s the log does not say %q", a, said)
		}
	}
	waitFor(len(w.play.Record().Actions), false)
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#end")); err != nil {
		t.Fatal(err)
	}
	Shot(t, ctx, "dragon-cards-over")
	for _, name := range []string{"hire", "defend"} {
		if !saw[name] {
			t.Errorf("the page never showed %s", name)
		}
	}
	statuses, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...window.statuses]`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(statuses, "Waiting for Smart bot (defending)") {
		t.Errorf("the page never said it waits for the bot defending; it said %q", statuses)
	}
	winners := w.state().Winners
	heading := text("#end h2")
	if won := slices.Contains(winners, 0); won != strings.HasPrefix(heading, "You") {
		t.Fatalf("the game's winners are %v, the page says %q", winners, heading)
	}
}
