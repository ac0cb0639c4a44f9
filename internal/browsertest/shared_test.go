package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSharedBrowserKeepsTestsApart: with Main's one Chromium, each test's
// tab is in a browser context of its own: what a page stores (a cookie,
// localStorage) is seen by a second tab of the same test and by no other
// test; both tests' tabs are in the one browser; and a browser that died is
// started again for the next test.
func TestSharedBrowserKeepsTestsApart(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><meta name=\"viewport\" content=\"width=device-width\"><title>x</title>"))
	}))
	defer srv.Close()
	shared.Lock()
	was := shared.on
	shared.on = true
	shared.Unlock()
	t.Cleanup(func() {
		shared.Lock()
		defer shared.Unlock()
		closeShared()
		shared.on = was
	})
	const read = `document.cookie + '|' + (localStorage.getItem('k') || '')`
	var first *chromedp.Browser
	t.Run("writes", func(t *testing.T) {
		ctx := New(t, 800, 600)
		first = chromedp.FromContext(ctx).Browser
		got, err := visit(ctx, srv.URL, `document.cookie = 'c=1'; localStorage.setItem('k', 'v'); `+read)
		if err != nil || got != "c=1|v" {
			t.Fatalf("the page stored %q (%v)", got, err)
		}
		tab, cancel := chromedp.NewContext(ctx) // the test's second tab
		defer cancel()
		if got, err := visit(tab, srv.URL, read); err != nil || got != "c=1|v" {
			t.Fatalf("the test's second tab reads %q (%v), want what its first stored", got, err)
		}
	})
	t.Run("reads", func(t *testing.T) {
		ctx := New(t, 390, 844)
		if b := chromedp.FromContext(ctx).Browser; b != first {
			t.Fatal("the second test has a browser of its own")
		}
		got, err := visit(ctx, srv.URL, read)
		if err != nil || got != "|" {
			t.Fatalf("another test's page reads %q (%v): it sees the first test's storage", got, err)
		}
		if w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.innerWidth`)); err != nil || w != 390 {
			t.Fatalf("the tab is %d wide (%v), want 390", w, err)
		}
	})
	shared.Lock()
	shared.stop[0]() // the browser dies (its allocator cancelled)
	shared.Unlock()
	t.Run("after a crash", func(t *testing.T) {
		ctx := New(t, 800, 600)
		if b := chromedp.FromContext(ctx).Browser; b == first {
			t.Fatal("the dead browser is used again")
		}
		if got, err := visit(ctx, srv.URL, read); err != nil || got != "|" {
			t.Fatalf("the new browser's page reads %q (%v)", got, err)
		}
	})
}

// visit opens url in ctx's tab and evaluates js there.
func visit(ctx context.Context, url, js string) (string, error) {
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return "", err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[string](js))
}
