package webtest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
)

// watchErrors collects what tells a broken page: uncaught exceptions and
// rejections, console.error, and a failed load of anything but the API
// (offline, the API fails by design; a script or style missing from the
// cache would not).
func watchErrors(t *testing.T, ctx context.Context) *browsertest.Events {
	return browsertest.Watch(t, ctx, func(ev any) (string, bool) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			if d.Exception != nil {
				return "exception: " + d.Text + " " + d.Exception.Description, true
			}
			return "exception: " + d.Text, true
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				return "console.error: " + strings.Join(args, " "), true
			}
		case *cdplog.EventEntryAdded:
			if u, err := url.Parse(e.Entry.URL); e.Entry.Level == cdplog.EntryLevelError && (err != nil || !strings.HasPrefix(u.Path, "/api/")) {
				return "log: " + e.Entry.Text + " " + e.Entry.URL, true
			}
		}
		return "", false
	})
}

// Offline, after one online visit, the home page opens (the network cut
// with the DevTools protocol and the server stopped): it offers the games
// on this phone and nothing that needs the server, and nothing on it
// fails; a page of the server's (the lobby) says it needs the network
// and offers the phone's games. Two friends then play a hot-seat game on the phone to its end;
// the end screen names the winner and says the game waits for the
// network, and the list of games on this phone shows it, with its scores.
func TestBrowserOfflineHomeHotSeat(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := browsertest.NewWithin(t, 390, 844, 5*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the service worker keeping the app")
	errs := watchErrors(t, ctx)
	browsertest.Offline(t, ctx, true)
	ts.Stop()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-local")); err != nil {
		t.Fatal(err)
	}
	en := lang.Get("en")
	home := browsertest.Eval[struct {
		Online               bool
		Local, Nav           string
		Hero, Mine, SignedIn bool
	}](t, ctx, `({online: navigator.onLine, local: document.getElementById('play-local').textContent,
  nav: document.querySelector('header nav, nav').textContent.trim(), hero: !!document.querySelector('.hero, #play-now, #play-dragon'),
  mine: !!document.getElementById('my-games'), signedIn: !!document.getElementById('sign-out')})`)
	if home.Online || home.Local != en.Msg("web.local.play") || home.Nav == "" || home.Hero || home.Mine || home.SignedIn {
		t.Fatalf("offline, the home page: %+v; want only the games on this phone (%q)", home, en.Msg("web.local.play"))
	}
	if e := errs.Take(); len(e) > 0 {
		t.Fatalf("offline, the home page failed: %q", e)
	}
	Shot(t, ctx, "home-offline-390")

	// A page of the server's says it needs the network, and offers the
	// phone's games.
	if err := chromedp.Do(ctx, browsertest.Click(`a[href="/lobby"]`), chromedp.WaitVisible("#offline-page")); err != nil {
		t.Fatal(err)
	}
	if h1 := browsertest.Eval[string](t, ctx, `document.querySelector('h1').textContent`); h1 != en.Msg("web.offline.title") {
		t.Fatalf("offline, the lobby says %q", h1)
	}
	Shot(t, ctx, "lobby-offline-390-en")
	for _, v := range []struct {
		code string
		w, h int64
	}{{"nb", 360, 740}, {"nb", 1280, 900}, {"en", 390, 844}} {
		var vp []chromedp.EmulateViewportOption
		if v.w < 600 {
			vp = append(vp, chromedp.EmulateMobile)
		}
		browsertest.Eval[bool](t, ctx, `(localStorage.setItem('lang', '`+v.code+`'), true)`)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(v.w, v.h, vp...), chromedp.Reload(), chromedp.WaitVisible("#offline-page")); err != nil {
			t.Fatal(err)
		}
		if h1 := browsertest.Eval[string](t, ctx, `document.querySelector('h1').textContent`); h1 != lang.Get(v.code).Msg("web.offline.title") {
			t.Fatalf("offline, the lobby in %s says %q", v.code, h1)
		}
		Shot(t, ctx, fmt.Sprintf("lobby-offline-%d-%s", v.w, v.code))
	}
	if err := chromedp.Do(ctx, browsertest.Click("#play-local")); err != nil {
		t.Fatal(err)
	}
	browsertest.NewHotSeat(t, ctx, "1000", "Bea")
	if g := browsertest.PlayLocal(t, ctx, 1<<30, time.Now().Add(3*time.Minute)); g.Phase != "over" {
		t.Fatalf("the hot-seat game did not end: %+v", g)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#end"), chromedp.WaitVisible("#kept-line")); err != nil {
		t.Fatal(err)
	}
	rec := browsertest.Eval[struct {
		ID      string
		Players []string
		Scores  []int
		Winners []int
	}](t, ctx, `(() => { const e = JSON.parse(localStorage.getItem('farkle.local.history'))[0]; const r = JSON.parse(e.record);
  return {id: e.id, players: r.players, scores: r.meta.scores, winners: r.meta.winners}; })()`)
	if strings.Join(rec.Players, ",") != "Ann,Bea" || len(rec.Scores) != 2 || len(rec.Winners) != 1 || rec.Scores[rec.Winners[0]] < 1000 {
		t.Fatalf("the game kept on the phone: %+v", rec)
	}
	winner := rec.Players[rec.Winners[0]]
	end := browsertest.Eval[struct{ End, Kept, Commitment string }](t, ctx, `({end: document.getElementById('end').textContent,
  kept: document.getElementById('kept-line').textContent, commitment: document.querySelector('#game .rules .wrap').textContent})`)
	if !strings.Contains(end.End, winner) || end.Kept != en.Msg("web.local.waitNetwork") || end.Commitment != rec.ID {
		t.Fatalf("the end screen: %+v; want %s the winner, the game waiting for the network, commitment %s", end, winner, rec.ID)
	}
	Shot(t, ctx, "local-hot-seat-over-offline-390")

	if err := chromedp.Do(ctx, browsertest.Click("#local-home"), chromedp.WaitVisible("#local-history li.local-game")); err != nil {
		t.Fatal(err)
	}
	list := browsertest.Eval[[]struct{ Seats, Line, File string }](t, ctx, `[...document.querySelectorAll('#local-history li.local-game')].map((li) => ({
  seats: li.querySelector('.seats-line').textContent, line: li.querySelector('.muted').textContent, file: li.querySelector('a[download]').getAttribute('download')}))`)
	wantLine := "classic · " + en.Num(int64(rec.Scores[0])) + "–" + en.Num(int64(rec.Scores[1])) + " · " + en.Msg("web.wonBy", "names", winner)
	if len(list) != 1 || list[0].Seats != "Ann vs Bea" || !strings.HasPrefix(list[0].Line, wantLine) || !strings.Contains(list[0].File, rec.ID[:12]) {
		t.Fatalf("the games on this phone: %+v; want Ann vs Bea, %q…, the record of %s", list, wantLine, rec.ID[:12])
	}
	if e := errs.Take(); len(e) > 0 {
		t.Fatalf("offline, the game's pages failed: %q", e)
	}
	Shot(t, ctx, "local-history-offline-390")
}
