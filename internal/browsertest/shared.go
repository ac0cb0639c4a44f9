package browsertest

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// One Chromium for a whole test binary. A package whose TestMain runs its
// tests through Main starts its headless browser once, and each New gives
// the test a browser context of its own in it: a fresh profile as far as
// the page can tell (cookies, storage, caches and service workers apart,
// disposed with the tab), without a browser process started and stopped
// for each. Starting and stopping the headless shell costs about 0.25 s of
// CPU and half a second of wall time, which a page package paid more than
// a hundred times. Without Main, each test starts its own browser.
var shared struct {
	sync.Mutex
	on      bool
	exe     string
	dir     string          // the browser's profile directory
	browser context.Context // the browser's first tab; new tabs come from it
	stop    []context.CancelFunc
}

// Main runs a package's tests (m.Run) with one shared Chromium, closed when
// they end; its TestMain is then os.Exit(browsertest.Main(m)).
func Main(m *testing.M) int {
	shared.Lock()
	shared.on = true
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	closeShared()
	return code
}

// closeShared stops the shared browser and removes its profile; shared is
// locked.
func closeShared() {
	for i := len(shared.stop) - 1; i >= 0; i-- {
		shared.stop[i]()
	}
	shared.stop, shared.browser = nil, nil
	if shared.dir != "" {
		removeProfile(shared.dir) // at the end of the tests: nothing left to tell if it stays
		shared.dir = ""
	}
}

// sharedTab opens a tab in a new browser context of the shared browser of
// exe, starting the browser first if it is not running (or has died); ok is
// false when the binary does not share its browser.
func sharedTab(t testing.TB, exe string) (tab context.Context, cancel context.CancelFunc, ok bool) {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if !shared.on || exe != Chromium(t) {
		return nil, nil, false
	}
	for try := 0; try < 2; try++ {
		if shared.browser == nil || shared.browser.Err() != nil || shared.exe != exe {
			closeShared()
			if err := startShared(exe); err != nil {
				t.Fatalf("starting Chromium: %v", err)
			}
		}
		tab, cancel = chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`true`)); err != nil {
			cancel()
			shared.browser = nil // a dead browser: start another once
			continue
		}
		return tab, cancel, true
	}
	t.Fatal("starting Chromium: the shared browser does not open a tab")
	return nil, nil, false
}

// startShared starts the shared browser; shared is locked.
func startShared(exe string) error {
	dir, err := os.MkdirTemp("", "farkle-chromium-")
	if err != nil {
		return err
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), allocatorOptions(exe, dir, 1280, 800)...)
	bctx, cancel2 := chromedp.NewContext(actx)
	shared.exe, shared.dir, shared.browser, shared.stop = exe, dir, bctx, []context.CancelFunc{cancel, cancel2}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`true`)); err != nil {
		closeShared()
		return err
	}
	return nil
}
