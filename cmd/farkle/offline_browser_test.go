package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
)

// freeAddr returns a loopback address with a port free now, for a server
// to come back on after it was stopped.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// A phone plays a whole game against a bot with no network: one online
// visit to `farkle serve`, then the DevTools protocol's offline mode and
// the server stopped. The finished game's record, kept in the browser,
// verifies with `farkle verify`. When the network and the server are back,
// the page keeps the game in the player's history on the server, whose
// record verifies too.
func TestBrowserOfflineGameAgainstABot(t *testing.T) {
	browsertest.Chromium(t) // skips without one
	dir := t.TempDir()
	db, addr := filepath.Join(dir, "f.db"), freeAddr(t)
	flags := []string{"--addr", addr, "--rate-address", "0", "--rate-player", "0"}
	srv, base := startServe(t, db, flags...)
	ctx := browsertest.New(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, browsertest.AppKept, time.Minute, "the app kept for offline play")

	browsertest.Offline(t, ctx, true)
	srv.Process.Kill()
	srv.Wait()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/local")); err != nil {
		t.Fatal(err)
	}
	browsertest.NewLocalGame(t, ctx, "2000")
	if g := browsertest.PlayLocal(t, ctx, 1<<30, time.Now().Add(2*time.Minute)); g.Phase != "over" {
		t.Fatalf("the game did not end: %+v", g)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#end"), chromedp.WaitVisible("#kept-line")); err != nil {
		t.Fatal(err)
	}
	record := browsertest.Eval[string](t, ctx, `JSON.parse(localStorage.getItem('farkle.local.history'))[0].record`)
	file := filepath.Join(dir, "offline.json")
	if err := os.WriteFile(file, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := execFarkle(t, "", "verify", file); code != 0 {
		t.Fatalf("farkle verify of the offline game: exit %d\n%s%s", code, out, errOut)
	}

	// The network back, and the server on the same address and database.
	startServe(t, db, flags...)
	browsertest.Offline(t, ctx, false)
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#kept-line .keep-it"), browsertest.Click("#kept-line .keep-it")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, ctx, `!!document.querySelector('#kept-line .kept.ok')`, 30*time.Second, "the game kept in the history")
	me := browsertest.Eval[string](t, ctx, `fetch('/api/me').then((r) => r.json()).then((m) => m.id)`)
	stats := browsertest.Eval[string](t, ctx, `fetch('/api/players/`+me+`/stats').then((r) => r.text())`)
	var st struct {
		Games   int
		History []struct {
			ID     string
			Local  bool
			Status string
		}
	}
	if err := json.Unmarshal([]byte(stats), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.History) != 1 || !st.History[0].Local || st.History[0].Status != "over" || st.Games != 0 {
		t.Fatalf("Ann's history: %s", stats)
	}
	kept := browsertest.Eval[string](t, ctx, `fetch('/api/tables/`+st.History[0].ID+`/record').then((r) => r.text())`)
	keptFile := filepath.Join(dir, "kept.json")
	if err := os.WriteFile(keptFile, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := execFarkle(t, "", "verify", keptFile); code != 0 || !strings.Contains(kept, `"seed"`) {
		t.Fatalf("farkle verify of the kept game: exit %d\n%s%s", code, out, errOut)
	}
}
