package webtest

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

// TestBrowserHintPlaysAChoice: the page numbers the hint's choices best
// first and its Play button sends the first one as the server gave it.
func TestBrowserHintPlaysAChoice(t *testing.T) {
	t.Parallel()
	r := rules.MustPreset("classic")
	r.Game.Target = 1500
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, QuickRules: r, Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}})
	ctx := Browser(t, 1280, 900)
	PlayNowAs(t, ctx, ts, "Ann")
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame))
		if err != nil {
			t.Fatal(err)
		}
		if g.Phase == "over" {
			t.Fatal("the game ended before a keep of several choices")
		}
		if g.Mine != "yes" {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		if g.Phase != "play" {
			ClickNow(t, ctx, "#roll") // the roll-off may have moved on since the read
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err := chromedp.Do(ctx, browsertest.Click("#hint"), chromedp.WaitVisible(".hint li")); err != nil {
			t.Fatal(err)
		}
		items, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.hint li')].map((l) => l.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		if len(items) < 2 {
			// One choice says nothing of the order: play it and go on.
			if err := chromedp.Do(ctx, browsertest.Click(".hint li .play-hint")); err != nil {
				t.Fatal(err)
			}
			WaitVersion(t, ctx, g.Version)
			continue
		}
		prev := -1.0
		for i, it := range items {
			_, after, _ := strings.Cut(it, ": ")
			num, _, _ := strings.Cut(after, " points")
			v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
			if err != nil {
				t.Fatalf("choice %q: %v", it, err)
			}
			if i > 0 && v > prev {
				t.Fatalf("choices not best first: %q", items)
			}
			prev = v
		}
		if err := chromedp.Do(ctx, browsertest.Click(".hint li:first-child .play-hint")); err != nil {
			t.Fatal(err)
		}
		WaitVersion(t, ctx, g.Version)
		if msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.play .error') || {}).textContent || ''`)); msg != "" {
			t.Fatalf("the choice was refused: %s", msg)
		}
		return
	}
	t.Fatal("no hint with several choices in two minutes")
}

// switchAdvisor values choices as pointsAdvisor does, in expected points
// for its first answer and as chances to win after (the values scaled
// into 0..1, their order kept): a duel table that becomes ready mid-game.
type switchAdvisor struct {
	servertest.PointsAdvisor
	calls *atomic.Int32
}

func (a switchAdvisor) Advise(g game.Game, seat int) (*game.Advice, error) {
	adv, err := a.PointsAdvisor.Advise(g, seat)
	if a.calls.Add(1) == 1 {
		adv.Note = "win chances are not available: its table is being prepared"
		return adv, err
	}
	adv.Measure = game.WinProbability
	for i := range adv.Choices {
		adv.Choices[i].Value /= 20000
	}
	return adv, err
}

// TestBrowserHintSaysItsMeasure: on a two-player table the hint says what
// it rates by and why, points while the chances to win are not ready, and
// says so when it changes to them; the best choice is first.
func TestBrowserHintSaysItsMeasure(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 20 * time.Millisecond, Cast: servertest.Advising(switchAdvisor{calls: new(atomic.Int32)}), Analyzer: servertest.PointsAdvisor{}})
	ctx := Browser(t, 1280, 900)
	PlayNowAs(t, ctx, ts, "Ann")
	UntilMyKeep(t, ctx)
	type hintData struct {
		Measure, Why, Switch string
		FirstBest            bool
		N                    int
	}
	const readHint = `(() => { const b = document.getElementById('hint-box'); const f = document.querySelector('#hint-choices li');
	  return {measure: b.dataset.measure, why: document.getElementById('hint-why').textContent, switch: (document.getElementById('hint-switch') || {}).textContent || '',
	    firstBest: !!f && f.classList.contains('best'), n: document.querySelectorAll('#hint-choices li').length}; })()`
	for i, want := range []struct{ measure, why, sw string }{
		{"points", "rated by the points it is expected to bring this turn, because the chances to win are not ready: its table is being prepared; with two players the hint rates by the chance to win once that is ready.", ""},
		{"win", "With two players each choice is rated by your chance to win the game", "The chances to win are ready"},
	} {
		if !ClickNow(t, ctx, "#hint") {
			t.Fatal("no Hint button")
		}
		if err := chromedp.Do(ctx, chromedp.WaitVisible(`#hint-box[data-measure="`+want.measure+`"] #hint-choices li`)); err != nil {
			t.Fatal(err)
		}
		h, err := chromedp.Run(ctx, chromedp.Evaluate[hintData](readHint))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(h.Why, want.why) || !strings.HasPrefix(h.Switch, want.sw) || (want.sw == "") != (h.Switch == "") || !h.FirstBest {
			t.Fatalf("hint %d: %+v; want the measure %s explained (%q), switch %q, the best first", i+1, h, want.measure, want.why, want.sw)
		}
		Shot(t, ctx, "hint-"+want.measure)
	}
}
