package webtest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// TestBrowserLostOnTime: at a table of two people where one never acts,
// the clock plays that seat's turn, then resigns it; every page says the
// loss is on time, not a resignation: the end screen (its final order and
// its rating change), the history and the replay. In English and
// Norwegian, at phone width.
func TestBrowserLostOnTime(t *testing.T) {
	// Not parallel, and a clock of 600 ms: the quick player must keep it
	// (a 150 ms clock failed under a load of 18 on two cores: Quick's own
	// turn ran out and the game ended aborted).
	ts := servertest.StartFile(t, "", server.Options{TurnClock: 600 * time.Millisecond, ClockForfeits: 4, BotDelay: 5 * time.Millisecond})
	ctx := servertest.Context(t, 2*time.Minute)
	// Under a heavy load Quick's own clock can run out too, and the game
	// may then end aborted, unrated: the game is played again (at most
	// three times), as what is looked at below is a game lost on time.
	var quick *servertest.Player
	var id string
	for try := 1; ; try++ {
		var info servertest.TableInfo
		quick, id, info = playLostOnTime(t, ctx, ts)
		if info.Status == "over" && info.Unrated == "" {
			break
		}
		if try == 3 {
			t.Fatalf("three games ended %s (%q, %q), not lost on time by the player who never acts", info.Status, info.Reason, info.Unrated)
		}
		t.Logf("game %d ended %s (%q, %q): Quick's clock ran out too; once more", try, info.Status, info.Reason, info.Unrated)
	}
	for vi, c := range []struct{ lang, lost, resigns, history string }{
		{"en", "lost on time", "resigns", "Finished games"},
		{"nb", "tapte på tid", "gir opp", "Ferdige spill"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			bctx := Browser(t, 390, 844)
			SignInBrowser(t, bctx, ts.URL, quick.Token)
			OpenIn(t, bctx, ts.URL+"/t/"+id, c.lang)
			if err := chromedp.Do(bctx, chromedp.WaitVisible("#end .lost-on-time")); err != nil {
				t.Fatal(err)
			}
			end := PageText(t, bctx, "#end")
			if strings.Count(end, c.lost) != 2 {
				t.Errorf("the end screen says %q: want %q in the final order and in the rating change", end, c.lost)
			}
			Shot(t, bctx, "lost-on-time-end-"+c.lang)
			if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/history"), chromedp.WaitVisible("ul.tables li")); err != nil {
				t.Fatal(err)
			}
			hist, err := chromedp.Run(bctx, chromedp.Text("main"))
			if err != nil || !strings.Contains(hist, c.history) || !strings.Contains(hist, c.lost) {
				t.Errorf("the history says %q (%v), want %q", hist, err, c.lost)
			}
			Shot(t, bctx, "lost-on-time-history-"+c.lang)
			if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/replay/"+id), chromedp.WaitVisible(".log li")); err != nil {
				t.Fatal(err)
			}
			log, err := chromedp.Run(bctx, chromedp.Text(".log"))
			if err != nil || strings.Contains(log, c.resigns) || !strings.Contains(log, map[string]string{"en": "loses on time", "nb": "taper på tid"}[c.lang]) {
				t.Errorf("the replay's last step says %q (%v): want a loss on time, not %q", log, err, c.resigns)
			}
			Shot(t, bctx, "lost-on-time-replay-"+c.lang)
		})
	}
}

// playLostOnTime plays a game of TestBrowserLostOnTime: Quick plays, Slow
// never acts. It returns Quick (signed in), the table and the table's
// end.
func playLostOnTime(t *testing.T, ctx context.Context, ts *servertest.Server) (*servertest.Player, string, servertest.TableInfo) {
	t.Helper()
	slow, tb := servertest.ClockTable(t, ts, ctx, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"})
	quick := servertest.NewPlayer(t, ts, "Quick")
	if _, err := quick.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := quick.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(quick.Close)
	go func() { // Slow's connection reads its messages, so it is not dropped as too slow
		for {
			if _, err := slow.Next(ctx); err != nil {
				return
			}
		}
	}()
	// Quick plays; Slow never acts: its clock runs out, the server plays
	// its roll-off and its turns, and it loses at the fourth timeout in a
	// row, each having finished a turn whoever starts (so the game is
	// rated; at the third, a game Slow starts could end before Slow's
	// turn had finished, an aborted game).
	for quick.Last == nil || quick.Last.Phase != "over" {
		m, err := quick.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("error: %s", m.Raw)
		}
		if st := quick.Last; m.State != nil && st.Phase != "over" && st.Actor == quick.Seat {
			typ, d := wsclient.Choose(st)
			if err := quick.Act(ctx, st.Version, typ, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	return quick, tb.ID, servertest.GetInfo(t, ctx, quick.Client, tb.ID)
}
