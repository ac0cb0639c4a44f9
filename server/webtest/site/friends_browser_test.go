package site

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserNewGameAgainstTheSameBot: the end of a game against a bot
// offers a new game against that bot by name; it makes a table of the
// same shape (the player and the same bot) and goes there. In English
// and Norwegian, at phone width.
func TestBrowserNewGameAgainstTheSameBot(t *testing.T) {
	t.Parallel()
	for vi, c := range []struct{ lang, again, abort string }{{"en", "New game against Steady bot", "Abort the game"}, {"nb", "Nytt spill mot Steady bot", "Avbryt spillet"}} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			ts := servertest.StartFile(t, "", server.Options{BotDelay: 5 * time.Millisecond})
			ctx := webtest.Browser(t, 390, 844)
			webtest.OpenIn(t, ctx, ts.URL+"/", c.lang)
			if err := chromedp.Do(ctx, chromedp.WaitReady(`#level option`), chromedp.SendKeys("#name", "Tessa"),
				browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
				t.Fatal(err)
			}
			first, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
			webtest.WaitLeave(t, ctx, c.abort)
			if err := chromedp.Do(ctx, browsertest.Click("#leave"), browsertest.Click("#leave-yes"), chromedp.WaitVisible("#end #rematch")); err != nil {
				t.Fatal(err)
			}
			if label := webtest.PageText(t, ctx, "#end #rematch"); label != c.again {
				t.Fatalf("the end offers %q, want %q", label, c.again)
			}
			webtest.Shot(t, ctx, "new-vs-bot-"+c.lang)
			webtest.WantFits(t, ctx, "the end screen")
			if err := chromedp.Do(ctx, browsertest.Click("#end #rematch"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
				t.Fatal(err)
			}
			var next string
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) { // the page goes to the new table: poll, with a deadline
				next, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
				if next != first || time.Now().After(deadline) {
					break
				}
			}
			if next == first || !strings.HasPrefix(next, "/t/") {
				t.Fatalf("after the new game button the page is %q (the game was %q)", next, first)
			}
			look := servertest.NewPlayer(t, ts, "Look")
			var tb struct {
				Status string
				Seats  []struct{ Name, Bot string }
			}
			if err := look.Do(servertest.Context(t, 10*time.Second), "GET", "/api"+strings.Replace(next, "/t/", "/tables/", 1), nil, &tb); err != nil {
				t.Fatal(err)
			}
			if tb.Status != "playing" || len(tb.Seats) != 2 || tb.Seats[0].Name != "Tessa" || tb.Seats[1].Bot != "steady" {
				t.Fatalf("the new table %+v: want Tessa against the Steady bot, playing", tb)
			}
		})
	}
}

// TestBrowserFollowAndChallenge: on another player's page a player
// follows them (the button turns to Unfollow, and the lobby lists them
// under Friends with their open game) and challenges them: a new table
// with a seat kept for them, which reaches them as an invitation. In
// English and Norwegian, at phone width.
func TestBrowserFollowAndChallenge(t *testing.T) {
	t.Parallel()
	for vi, c := range []struct{ lang, follow, unfollow, friends string }{{"en", "Follow", "Unfollow", "Friends"}, {"nb", "Følg", "Slutt å følge", "Venner"}} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			ts := servertest.StartFile(t, "", server.Options{BotDelay: 5 * time.Millisecond})
			actx := servertest.Context(t, time.Minute)
			ann, bea := servertest.NewPlayer(t, ts, "Ann"), servertest.NewPlayer(t, ts, "Bea")
			open, err := bea.CreateTable(actx, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"})
			if err != nil {
				t.Fatal(err)
			}
			ctx := webtest.Browser(t, 390, 844)
			webtest.SignInBrowser(t, ctx, ts.URL, ann.Token)
			webtest.OpenIn(t, ctx, ts.URL+"/players/"+bea.ID, c.lang)
			if err := chromedp.Do(ctx, chromedp.WaitVisible("#follow"), chromedp.WaitVisible("#challenge")); err != nil {
				t.Fatal(err)
			}
			if label, err := chromedp.Run(ctx, chromedp.Text("#follow")); err != nil || label != c.follow {
				t.Fatalf("the follow button says %q %v, want %q", label, err, c.follow)
			}
			if err := chromedp.Do(ctx, browsertest.Click("#follow")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "the button to turn to "+c.unfollow, `document.getElementById('follow').textContent === `+webtest.JsString(c.unfollow))
			webtest.Shot(t, ctx, "player-followed-"+c.lang)
			webtest.WantFits(t, ctx, "the player's page")
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/lobby"), chromedp.WaitVisible("#main h2")); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.WaitVisible("#friends")); err != nil {
				t.Fatal(err)
			}
			friends, err := chromedp.Run(ctx, chromedp.Text("#friends"))
			if err != nil || !strings.Contains(friends, c.friends) || !strings.Contains(friends, "Bea") {
				t.Fatalf("the lobby's friends say %q %v", friends, err)
			}
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#friends a[href="/t/`+open.ID+`"]').length`)); err != nil || n != 1 {
				t.Fatalf("the lobby's friends link %d times to Bea's open table (%v), want once", n, err)
			}
			webtest.Shot(t, ctx, "lobby-friends-"+c.lang)
			webtest.WantFits(t, ctx, "the lobby with friends")

			// Challenge: a new table keeps a seat for Bea.
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/players/"+bea.ID), chromedp.WaitVisible("#challenge"), browsertest.Click("#challenge"),
				chromedp.WaitVisible("#game")); err != nil {
				t.Fatal(err)
			}
			var games []struct {
				ID      string `json:"id"`
				Invited bool   `json:"invited"`
			}
			if err := bea.Do(actx, "GET", "/api/me/games", nil, &games); err != nil {
				t.Fatal(err)
			}
			path, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
			found := false
			for _, g := range games {
				found = found || (g.Invited && "/t/"+g.ID == path)
			}
			if !found {
				t.Fatalf("Bea's games %+v: want an invitation to %s", games, path)
			}
			webtest.Shot(t, ctx, "challenge-"+c.lang)

			// Unfollow: the lobby no longer lists her.
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/players/"+bea.ID), chromedp.WaitVisible("#follow")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "the button to say "+c.unfollow, `document.getElementById('follow').textContent === `+webtest.JsString(c.unfollow))
			if err := chromedp.Do(ctx, browsertest.Click("#follow")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, ctx, "the button to turn back to "+c.follow, `document.getElementById('follow').textContent === `+webtest.JsString(c.follow))
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/lobby"), chromedp.WaitVisible("h1")); err != nil {
				t.Fatal(err)
			}
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#friends').length`)); err != nil || n != 0 {
				t.Fatalf("after unfollowing the lobby still has friends (%d, %v)", n, err)
			}
		})
	}
}
