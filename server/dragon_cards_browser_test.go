package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// webCardPolicy is the person's play of TestBrowserDragonCards: attack
// with enough soldiers; hire a Companion in every third round and keep
// the new one; brawl the bot when it has more soldiers; in a brawl use the
// first usable card, then stand; keep the most dice (in battle the
// fewest; on a Rally, doubled); stop at 1000 or with two dice left;
// discard the first item.
func webCardPolicy(v dragon.View) dragon.Action {
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

// webCardGame is a game of Ann (webCardPolicy) against the smart bot as
// the server plays it from seed: the same variant, the same source for
// the dice and for the bot's choices.
type webCardGame struct {
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

var webBrains = struct {
	g *dragon.Game
	b *dragon.Brains
}{}

func newWebCardGame(t *testing.T, seed dice.Seed) *webCardGame {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	p, _, err := game.Start(v, []string{"Ann", "Smart bot"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	if webBrains.b == nil {
		webBrains.g = v.Game()
		webBrains.b = dragon.NewBrains(webBrains.g)
	}
	return &webCardGame{play: p, g: v.Game(), bot: dragon.NewBot(dragon.Smart, webBrains.b), botSrc: dice.NewSource(seed.Derive("dragon-bots"))}
}

func (w *webCardGame) state() dragon.State { return w.play.Game().(*game.DragonGame).State() }

// next returns the seat to act and its action.
func (w *webCardGame) next() (int, dragon.Action) {
	s := w.state()
	seat := s.ToAct()
	v := w.g.View(s, seat)
	if seat == 1 {
		w.botAsked = w.botAsked || s.Phase == dragon.PhaseBrawl && s.Turn == 0
		return seat, w.bot.Choose(v, w.botSrc)
	}
	return seat, webCardPolicy(v)
}

func (w *webCardGame) do(t *testing.T, seat int, a dragon.Action) []dragon.Event {
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
	return dragonEvs(evs)
}

func dragonEvs(evs []game.Event) []dragon.Event {
	out := make([]dragon.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(dragon.Event)
	}
	return out
}

// oneActionBrawls returns the seeds of a game in which Ann's first two
// decisions are brawls the bot settles in one action (neither side has a
// card usable on its throw), for the tests of how a brawl is shown.
func oneActionBrawls(t *testing.T) func() dice.Seed {
	t.Helper()
next:
	for i := range 2000 {
		s := dice.SeedFrom(fmt.Sprintf("one-action-brawl-%d", i))
		w := newWebCardGame(t, s)
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
		w := newWebCardGame(t, s)
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
	ctx := startDragonPage(t, 1280, 1100, func() dice.Seed { return seed })
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
				clickNow(t, ctx, "#skip-brawl")
			} else if p.Version == version && p.Mine == "yes" || !mine && p.Version >= version {
				return p
			}
			if time.Now().After(deadline) {
				shot(t, ctx, "dragon-cards-stuck")
				logText, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('.log li')].slice(-12).map((l) => l.textContent).join('\n')`))
				t.Fatalf("the page is at version %d (mine %s, phase %s), not %d; it shows:\n%s", p.Version, p.Mine, p.Phase, version, logText)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	click := func(sel string) {
		for end := time.Now().Add(5 * time.Second); !clickNow(t, ctx, sel); {
			if time.Now().After(end) {
				shot(t, ctx, "dragon-cards-stuck")
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
	w := newWebCardGame(t, seed)
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
				shot(t, ctx, "dragon-cards-hire")
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
					shot(t, ctx, "dragon-cards-defend")
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
	shot(t, ctx, "dragon-cards-over")
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
