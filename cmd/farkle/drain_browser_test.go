package main

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// TestBrowserSeesTheNodeRestart: a player's page at a table when its node
// drains (SIGTERM, as a rolling upgrade stops each node) says the server
// is restarting, from the node's reconnect message, not that the
// connection was lost; it keeps trying while no node answers, and when a
// node is back on the address it is at the table again by itself, with
// the same game.
func TestBrowserSeesTheNodeRestart(t *testing.T) {
	browsertest.Chromium(t) // skips without one
	db := filepath.Join(t.TempDir(), "farkle.db")
	addr := freeAddr(t)
	cmd, base, _ := spawnServe(t, &discardWriter{}, "--db", db, "--addr", addr)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := wsclient.New(base)
	_, token, err := c.NewPlayer(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := c.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t, 390, 844)
	if _, err := chromedp.Run(b, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(c, tg, network.SetCookie, network.SetCookieParams{Name: server.CookieName, Value: token, URL: base})
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b, chromedp.Navigate(base+"/t/"+tb.ID), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitJS(t, b, `document.getElementById('game').dataset.online === 'yes'`, 20*time.Second, "the page online")
	// Every text the banner shows, as it shows it.
	browsertest.Eval[bool](t, b, `(() => { window.banners = [];
		new MutationObserver(() => { const e = document.querySelector('#main .banner'); if (e && !e.hidden && window.banners.at(-1) !== e.textContent) window.banners.push(e.textContent); })
			.observe(document.getElementById('main'), { subtree: true, childList: true, attributes: true, characterData: true });
		return true; })()`)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v", err)
	}
	const restarting = "The server is restarting: reconnecting…"
	browsertest.WaitJS(t, b, `window.banners.includes('The server is restarting: reconnecting…') && !!document.querySelector('#main .banner:not([hidden])')`, 20*time.Second, "the page to say the server restarts")
	// A node comes back on the address (its start takes the page's first
	// retries, which find none): the page is at the table again, having
	// said only that the server restarted, never that the connection was
	// merely lost.
	spawnServe(t, &discardWriter{}, "--db", db, "--addr", addr)
	browsertest.WaitJS(t, b, `document.getElementById('game').dataset.online === 'yes' && document.querySelector('#main .banner').hidden`, 40*time.Second, "the page back at the table")
	if got := browsertest.Eval[[]string](t, b, `window.banners`); len(got) != 1 || got[0] != restarting {
		t.Fatalf("the banner's texts while the node was down: %q, want only %q", got, restarting)
	}
	if id := browsertest.Eval[string](t, b, `location.pathname`); id != "/t/"+tb.ID {
		t.Fatalf("the page is at %s", id)
	}
}

// discardWriter swallows a node's log.
type discardWriter struct{}

func (*discardWriter) Write(p []byte) (int, error) { return len(p), nil }
