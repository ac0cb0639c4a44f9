// Package browsertest starts a real headless Chromium for tests
// (chromedp), or skips the test when none is installed.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium returns the browser to drive: $CHROMIUM, else Chromium's
// headless shell (Debian's chromium-headless-shell), else the whole
// Chromium (chromium or chromium-browser), or skips the test. The headless
// shell is the same Blink and V8 without the browser's user interface and
// needs less CPU for the same page: what lets the page tests of two
// packages finish side by side in go test's ten minutes on two cores.
func Chromium(t testing.TB) string {
	t.Helper()
	return find(t, "chromium-headless-shell", "chromium", "chromium-browser")
}

// WholeChromium returns the whole Chromium ($CHROMIUM, chromium or
// chromium-browser), or skips the test: for what the headless shell does
// not have, such as the notifications a page may show.
func WholeChromium(t testing.TB) string {
	t.Helper()
	return find(t, "chromium", "chromium-browser")
}

// find returns $CHROMIUM when set, else the first of names on the PATH, or
// skips the test.
func find(t testing.TB, names ...string) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skipf("Chromium is not installed (apt-get install -y %s; .ci/run does it): skipping the browser test", names[0])
	return ""
}

// MaxTests is the most tests of one test binary that have a Chromium open
// at once (browsers beyond it wait in New): each browser is a handful of
// processes and hundreds of megabytes, and tests of the browser run in
// parallel (t.Parallel) on machines of two cores too.
const MaxTests = 2

var (
	openMu sync.Mutex
	openCh = sync.NewCond(&openMu)
	// open counts the browsers open by top-level test: a test, with its
	// subtests, takes one place however many browsers it opens (two
	// players), so that tests never wait on each other's places.
	open = map[string]int{}
	// waiting counts the tests waiting for a place (for the tests).
	waiting int
)

// place waits until t's top-level test may open a browser (MaxTests), and
// counts the browser until the end of t.
func place(t testing.TB) {
	top, _, _ := strings.Cut(t.Name(), "/")
	openMu.Lock()
	for open[top] == 0 && len(open) >= MaxTests {
		waiting++
		openCh.Wait()
		waiting--
	}
	open[top]++
	openMu.Unlock()
	t.Cleanup(func() {
		openMu.Lock()
		if open[top]--; open[top] == 0 {
			delete(open, top)
			openCh.Broadcast()
		}
		openMu.Unlock()
	})
}

// New starts a headless Chromium with a window of width×height (a phone's
// viewport below 600 pixels wide) and returns its tab's context, which
// ends with the test (or after three minutes). It waits first while
// MaxTests other tests have a browser open.
func New(t testing.TB, width, height int64) context.Context {
	t.Helper()
	return NewWithin(t, width, height, 3*time.Minute)
}

// NewWithin is New for a test that visits many pages in one browser: its
// context ends with the test or after within.
func NewWithin(t testing.TB, width, height int64, within time.Duration) context.Context {
	t.Helper()
	return start(t, Chromium(t), width, height, within)
}

// NewWhole is New in the whole Chromium (WholeChromium), for a test of
// what the headless shell does not have.
func NewWhole(t testing.TB, width, height int64) context.Context {
	t.Helper()
	return start(t, WholeChromium(t), width, height, 3*time.Minute)
}

// start starts the browser exe with a window of width×height and returns
// its tab's context, which ends with the test or after within.
func start(t testing.TB, exe string, width, height int64, within time.Duration) context.Context {
	t.Helper()
	place(t) // its cleanup, registered first, runs after the browser's
	ctx, cancel, ok := sharedTab(t, exe)
	if ok {
		t.Cleanup(cancel)
	} else {
		actx, cancel := chromedp.NewExecAllocator(context.Background(), allocatorOptions(exe, profileDir(t), width, height)...)
		t.Cleanup(cancel)
		var cancel2 context.CancelFunc
		ctx, cancel2 = chromedp.NewContext(actx)
		t.Cleanup(cancel2)
	}
	ctx, cancel3 := context.WithTimeout(ctx, within)
	t.Cleanup(cancel3)
	var vp []chromedp.EmulateViewportOption
	if width < 600 {
		vp = append(vp, chromedp.EmulateMobile)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, vp...)); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// allocatorOptions are the options of a headless browser exe with its
// profile in dir and a window of width×height.
func allocatorOptions(exe, dir string, width, height int64) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(dir), chromedp.WindowSize(int(width), int(height)),
		chromedp.Env("TZ=UTC"),
	}
}

// profileDir makes a directory for the browser's profile, removed when
// the test ends, after the browser: Chromium's helper processes may still
// write to it for a moment after the browser has gone (t.TempDir's removal
// then failed the test, "directory not empty"), so the removal is tried
// again while they finish, up to 10 s.
func profileDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "farkle-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := removeProfile(dir); err != nil {
			t.Errorf("removing the browser's profile: %v", err)
		}
	})
	return dir
}

// removeProfile removes a browser's profile directory, trying again for up
// to 10 s while the browser's helper processes finish writing to it.
func removeProfile(dir string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := os.RemoveAll(dir)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond) // the helper processes are finishing
	}
}

// Click clicks the centre of the first element sel finds, as chromedp.Click
// does, but where it is when the mouse comes: pages move their elements
// after they appear (a header filled when the server answers, a map that
// arrives above a button), and a click aimed at the place the element had
// a moment before lands on whatever took it. Click scrolls the element
// into view, waits until its box is the same in two animation frames in a
// row and the element, or one inside it, is what the browser finds at its
// centre (at most 60 frames), and clicks there; else it fails and names
// what is there. When the element found is replaced before the mouse reaches it,
// the browser answers "Could not find node with given id" (or cannot
// compute its box), and Click finds the element again and clicks the new
// one. Those errors come before any mouse event is sent, so nothing is
// clicked twice.
func Click(sel string, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		const tries = 5
		var err error
		for range tries {
			if err = clickSettled(ctx, t, sel, opts); !replaced(err) {
				return chromedp.Void{}, err
			}
		}
		return chromedp.Void{}, err
	}
}

// settledJS runs with the element as this: it waits for animation frames
// (or 100 ms, where the page gets none) until the element's box is the
// same in two in a row and a click at its centre reaches it (a page not
// shown yet, a cover going; an element pushed out of sight meanwhile is
// scrolled back), at most 60, and returns its centre and
// whether a click there reaches it, else what it reaches; or that the
// element left the page meanwhile (the page drew it again).
const settledJS = `async function() {
	const frame = () => new Promise((done) => { requestAnimationFrame(() => done()); setTimeout(done, 100); });
	let last = '', x, y, at;
	for (let i = 0; i < 60; i++) {
		await frame();
		if (!this.isConnected) return {gone: true};
		const r = this.getBoundingClientRect(), box = [r.left, r.top, r.width, r.height].join();
		x = r.left + r.width / 2; y = r.top + r.height / 2;
		if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) { this.scrollIntoView({block: 'center', inline: 'center'}); last = ''; continue; } // moved out of sight meanwhile
		at = document.elementFromPoint(x, y);
		if (box === last && at !== null && (at === this || this.contains(at))) return {x, y, hit: true};
		last = box;
	}
	return {x, y, hit: false, there: at ? at.outerHTML.slice(0, 160) : 'nothing'};
}`

// settled is what settledJS returns.
type settled struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Hit   bool    `json:"hit"`
	There string  `json:"there"`
	Gone  bool    `json:"gone"`
}

// errGone is Click's error for an element that left the page while it
// waited for its place: Click finds it again (replaced).
var errGone = errors.New("the element left the page")

// clickSettled is one try of Click.
func clickSettled(ctx context.Context, t *chromedp.Target, sel string, opts []chromedp.QueryOption) error {
	nodes, err := chromedp.Nodes(sel, append(opts[:len(opts):len(opts)], chromedp.NodeVisible)...)(ctx, t)
	if err != nil {
		return err
	}
	if len(nodes) == 0 {
		return fmt.Errorf("selector %q did not return any nodes", sel)
	}
	n := nodes[0]
	if _, err := cdp.Call(ctx, t, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{NodeID: n.NodeID}); err != nil {
		return err
	}
	obj, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{NodeID: n.NodeID})
	if err != nil {
		return err
	}
	at, err := chromedp.CallFunctionOn[settled](settledJS, func(p *runtime.CallFunctionOnParams) {
		p.ObjectID = obj.Object.ObjectID
		p.AwaitPromise = new(true)
	})(ctx, t)
	_, _ = cdp.Call(ctx, t, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID}) // fails only if the page has gone
	if err != nil {
		return err
	}
	if at.Gone {
		return errGone
	}
	if !at.Hit {
		return fmt.Errorf("clicking %q: at its centre (%.0f, %.0f) the page has %s", sel, at.X, at.Y, at.There)
	}
	_, err = chromedp.MouseClickXY(at.X, at.Y)(ctx, t)
	return err
}

// replaced reports whether err is the browser's answer about a node that
// left the page (code -32000, as Chromium gives it for an unknown node id
// or a node without a box), or Click's own finding of it (errGone).
func replaced(err error) bool {
	var e *cdproto.Error
	return errors.Is(err, errGone) || errors.As(err, &e) && e.Code == -32000
}
