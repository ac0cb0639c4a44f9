package webtest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
)

// myStats reads the browser's player's games and wins.
const myStats = `(async () => { const me = await (await fetch('/api/me')).json();
  const s = await (await fetch('/api/players/' + me.id + '/stats')).json(); return s.games + '/' + s.wins; })()`

// TestBrowserAbortAndResign: against a bot, the page offers "Abort the
// game" while a seat has not yet had a turn, asks first (and "Keep
// playing" changes nothing), and an aborted game is nobody's loss; once
// each has had a turn it offers "Resign", which ends the game as the
// player's loss. At phone width, in English and Norwegian.
func TestBrowserAbortAndResign(t *testing.T) {
	t.Parallel()
	for vi, c := range []struct {
		lang, abort, resign, askAbort, aborted string
	}{{"en", "Abort the game", "Resign", "Not every player has had a turn", "Game aborted"}, {"nb", "Avbryt spillet", "Gi opp", "Ikke alle har hatt en tur", "Spillet ble avbrutt"}} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			// The clock (6 s: the abort must be asked, kept and asked again
			// before it plays, on a loaded machine too) plays the player's
			// turns for them: against a
			// bot it never resigns, so it brings the game to where each has
			// had a turn without the test playing it.
			ts := servertest.StartFile(t, "", server.Options{BotDelay: 10 * time.Millisecond, TurnClock: 6 * time.Second})
			ctx := Browser(t, 390, 844)
			OpenIn(t, ctx, ts.URL+"/", c.lang)
			if err := chromedp.Do(ctx,
				chromedp.WaitReady(`#level option`),
				chromedp.SendKeys("#name", "Tessa"),
				browsertest.Click("#play-now"),
				chromedp.WaitVisible("#game .scoreboard"),
			); err != nil {
				t.Fatal(err)
			}
			WaitLeave(t, ctx, c.abort)
			if err := chromedp.Do(ctx, browsertest.Click("#leave"), chromedp.WaitVisible("#leave-ask")); err != nil {
				t.Fatal(err)
			}
			ask, err := chromedp.Run(ctx, chromedp.Text("#leave-ask"))
			if err != nil || !strings.Contains(ask, c.askAbort) {
				t.Fatalf("the question: %q %v, want it to say %q", ask, err, c.askAbort)
			}
			Shot(t, ctx, "abort-ask-"+c.lang)
			if err := chromedp.Do(ctx, browsertest.Click("#leave-no"), chromedp.WaitNotPresent("#leave-ask")); err != nil {
				t.Fatal(err)
			}
			if g, err := chromedp.Run(ctx, chromedp.Evaluate[GameData](ReadGame)); err != nil || g.Phase == "over" {
				t.Fatalf("after keep playing: %+v %v", g, err)
			}

			// Abort: over, and nobody's game.
			WaitLeave(t, ctx, c.abort)
			if err := chromedp.Do(ctx, browsertest.Click("#leave"), browsertest.Click("#leave-yes"), chromedp.WaitVisible("#end")); err != nil {
				t.Fatal(err)
			}
			Shot(t, ctx, "aborted-"+c.lang)
			// The end screen is drawn again as the table's last messages
			// come in (a node read once can be one a draw has just
			// replaced, whose text reads ""): wait for the heading.
			WaitPage(t, ctx, "the end of an aborted game saying "+strconv.Quote(c.aborted),
				`(document.querySelector('#end h2') || {}).textContent === `+strconv.Quote(c.aborted))
			if s, err := chromedp.Run(ctx, chromedp.Evaluate[string](myStats, chromedp.EvalAwaitPromise)); err != nil || s != "0/0" {
				t.Fatalf("after an abort the player's games/wins are %q %v, want 0/0", s, err)
			}

			// A new game, played by the clock until each has had a turn:
			// then "Resign", a loss.
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady(`#level option`),
				browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
				t.Fatal(err)
			}
			WaitLeave(t, ctx, c.resign)
			if err := chromedp.Do(ctx, browsertest.Click("#leave"), chromedp.WaitVisible("#leave-ask")); err != nil {
				t.Fatal(err)
			}
			Shot(t, ctx, "resign-ask-"+c.lang)
			if err := chromedp.Do(ctx, browsertest.Click("#leave-yes"), chromedp.WaitVisible("#end")); err != nil {
				t.Fatal(err)
			}
			if s, err := chromedp.Run(ctx, chromedp.Evaluate[string](myStats, chromedp.EvalAwaitPromise)); err != nil || s != "1/0" {
				t.Fatalf("after a resignation the player's games/wins are %q %v, want 1/0", s, err)
			}
		})
	}
}
