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

// waitTableStatus polls the table until its status is want.
func waitTableStatus(t *testing.T, ts *servertest.Server, id, want string) {
	t.Helper()
	ctx := servertest.Context(t, 30*time.Second)
	c := servertest.NewPlayer(t, ts, "Watcher")
	for {
		if info := servertest.GetInfo(t, ctx, c.Client, id); info.Status == want {
			return
		} else if ctx.Err() != nil {
			t.Fatalf("table %s is %s, want %s", id, info.Status, want)
		}
		time.Sleep(200 * time.Millisecond) // the server's timer adjourns it (a second after the page has gone): poll gently, with a deadline
	}
}

// TestBrowserAdjournedGameResumes: a player who starts a game against a
// bot and leaves the page finds it, after Options.AdjournAfter, adjourned:
// the table's page says so (not lost, not rated) with a Resume button, and
// the home page lists it under adjourned games with its own; either
// brings the game back to playing, where the player left it. In English
// (resumed from the table's page) and Norwegian (from the home page), at
// phone width, and at desktop width.
func TestBrowserAdjournedGameResumes(t *testing.T) {
	t.Parallel()
	for vi, c := range []struct {
		lang, title, games string
		width, height      int64
		fromHome           bool
	}{
		{"en", "This game is adjourned", "Adjourned games", 390, 844, false},
		{"nb", "Dette spillet er utsatt", "Utsatte spill", 390, 844, true},
		{"en", "This game is adjourned", "Adjourned games", 1280, 800, true},
	} {
		t.Run(c.lang+"-"+map[bool]string{false: "table", true: "home"}[c.fromHome], func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			ts := servertest.StartFile(t, "", server.Options{BotDelay: 5 * time.Millisecond, AdjournAfter: 8 * time.Second}) // long enough for a loaded machine's page to reconnect after Resume
			ctx := Browser(t, c.width, c.height)
			OpenIn(t, ctx, ts.URL+"/", c.lang)
			if err := chromedp.Do(ctx, chromedp.WaitReady(`#level option`), chromedp.SendKeys("#name", "Tessa"),
				browsertest.Click("#play-now"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
				t.Fatal(err)
			}
			path, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
			if err != nil || !strings.HasPrefix(path, "/t/") {
				t.Fatalf("the game's page is %q %v", path, err)
			}
			id := strings.TrimPrefix(path, "/t/")
			// The player leaves: the game waits 8 s, then is adjourned; resumed,
			// it has 8 s again for the page to connect.
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
				t.Fatal(err)
			}
			waitTableStatus(t, ts, id, "adjourned")
			if c.fromHome {
				if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#adjourned-games .resume")); err != nil {
					t.Fatal(err)
				}
				text, err := chromedp.Run(ctx, chromedp.Text("#adjourned-games"))
				if err != nil || !strings.Contains(text, c.games) {
					t.Fatalf("the home page's adjourned games say %q %v, want %q", text, err, c.games)
				}
				Shot(t, ctx, "adjourned-home-"+c.lang+"-"+strconv.FormatInt(c.width, 10))
				if err := chromedp.Do(ctx, browsertest.Click("#adjourned-games .resume"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible("#adjourned #resume")); err != nil {
					t.Fatal(err)
				}
				head, err := chromedp.Run(ctx, chromedp.Text("#adjourned h2"))
				if err != nil || head != c.title {
					t.Fatalf("the table's page says %q %v, want %q", head, err, c.title)
				}
				Shot(t, ctx, "adjourned-table-"+c.lang+"-"+strconv.FormatInt(c.width, 10))
				if err := chromedp.Do(ctx, browsertest.Click("#resume"), chromedp.WaitNotPresent("#adjourned"), chromedp.WaitVisible("#game .scoreboard")); err != nil {
					t.Fatal(err)
				}
			}
			after := servertest.GetInfo(t, servertest.Context(t, 10*time.Second), servertest.NewPlayer(t, ts, "Look again").Client, id)
			if after.Status != "playing" {
				t.Fatalf("after Resume the table is %s, want playing", after.Status)
			}
			if p, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`)); err != nil || p != "/t/"+id {
				t.Fatalf("after Resume the page is %q %v, want the game's", p, err)
			}
		})
	}
}

// TestBrowserAdjournedDragonGame: a Dragon Farkle game against a bot,
// never visited, is adjourned too; its page says so with Resume, which
// brings it back to playing.
func TestBrowserAdjournedDragonGame(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: 5 * time.Millisecond, AdjournAfter: 2 * time.Second})
	p := servertest.NewPlayer(t, ts, "Tessa")
	tb, err := p.CreateTable(servertest.Context(t, 10*time.Second), "dragon", map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "smart"})
	if err != nil {
		t.Fatal(err)
	}
	waitTableStatus(t, ts, tb.ID, "adjourned")
	ctx := Browser(t, 390, 844)
	SignInBrowser(t, ctx, ts.URL, p.Token)
	OpenIn(t, ctx, ts.URL+"/t/"+tb.ID, "nb")
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#adjourned #resume")); err != nil {
		t.Fatal(err)
	}
	Shot(t, ctx, "adjourned-dragon-nb")
	WantFits(t, ctx, "the adjourned Dragon Farkle table")
	if err := chromedp.Do(ctx, browsertest.Click("#resume"), chromedp.WaitNotPresent("#adjourned")); err != nil {
		t.Fatal(err)
	}
	if st := servertest.GetInfo(t, servertest.Context(t, 10*time.Second), p.Client, tb.ID).Status; st != "playing" {
		t.Fatalf("after Resume the Dragon Farkle table is %s, want playing", st)
	}
}
