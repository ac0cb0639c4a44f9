package browsertest

import (
	"context"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Events is what a tab's events said, as Watch's fn put it.
type Events struct {
	mu  sync.Mutex
	got []string
}

// Watch collects, from now on, fn's account of each event of the tab of
// ctx that fn keeps (ok): the tab's requests (network), its exceptions
// and console (runtime) and its log (log), whose domains it enables. fn
// runs in chromedp's reading goroutine: it must not call the browser.
func Watch(t testing.TB, ctx context.Context, fn func(ev any) (s string, ok bool)) *Events {
	t.Helper()
	e := &Events{}
	if err := chromedp.Listen(ctx, func(ev any) {
		if s, ok := fn(ev); ok {
			e.mu.Lock()
			e.got = append(e.got, s)
			e.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, func(c context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		if _, err := cdp.Call(c, tg, network.Enable, network.EnableParams{}); err != nil {
			return cdp.Empty{}, err
		}
		if _, err := cdp.Call(c, tg, runtime.Enable, cdp.Empty{}); err != nil {
			return cdp.Empty{}, err
		}
		return cdp.Call(c, tg, cdplog.Enable, cdp.Empty{})
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

// Seen returns what was collected so far.
func (e *Events) Seen() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.got...)
}

// Take returns what was collected so far and forgets it.
func (e *Events) Take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.got
	e.got = nil
	return out
}
