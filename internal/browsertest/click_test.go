package browsertest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// clickPage is a page whose button jumps 200 px down and back every
// animation frame for its first 20 frames (as content that arrives above
// it, or a transition, would move it), and whose veil, once shown, covers
// it. It counts the clicks the button got, those it got while it still
// moved, and those that landed elsewhere.
const clickPage = `<!doctype html><meta name="viewport" content="width=device-width"><title>click</title>
<div id="above"></div><button id="b" style="height:40px">b</button>
<div id="veil" style="position:fixed;inset:0;display:none">veil</div>
<script>
window.hits = 0; window.early = 0; window.misses = 0; window.moving = true;
document.addEventListener('click', (e) => { if (e.target.id !== 'b') misses++; else if (moving) early++; else hits++; });
let k = 0;
(function jump() {
	document.getElementById('above').style.height = (k % 2 ? 200 : 0) + 'px';
	if (++k < 20) requestAnimationFrame(jump); else moving = false;
})();
</script>`

// pushedPage is a page whose button is below the fold; once the page
// scrolls (Click brings the button into view), 2,000 px arrive above it,
// pushing it out of sight again.
const pushedPage = `<!doctype html><meta name="viewport" content="width=device-width"><title>pushed</title>
<div id="above" style="height:1000px"></div><button id="b" style="height:40px">b</button><div style="height:1000px"></div>
<script>
window.hits = 0;
document.getElementById('b').addEventListener('click', () => hits++);
addEventListener('scroll', () => { document.getElementById('above').style.height = '3000px'; }, {once: true});
</script>`

// TestClickFollowsAPushedElement: Click scrolls back to a button pushed
// out of sight after it was scrolled into view, and clicks it.
func TestClickFollowsAPushedElement(t *testing.T) {
	url := servePage(t, pushedPage)
	ctx := New(t, 800, 600)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), Click("#b")); err != nil {
		t.Fatal(err)
	}
	if n := Eval[int](t, ctx, `hits`); n != 1 {
		t.Fatalf("the pushed button got %d clicks, want 1", n)
	}
}

// TestClickWaitsForItsPlace: Click lands on a button that jumps for the
// first frames after the page loads once it has stopped (chromedp.Click
// clicked it at once, where it was that moment), and refuses to click a
// button something covers, naming what is there (chromedp.Click clicked
// the cover).
func TestClickWaitsForItsPlace(t *testing.T) {
	url := servePage(t, clickPage)
	ctx := New(t, 800, 600)
	for i := range 3 {
		if err := chromedp.Do(ctx, chromedp.Navigate(url), Click("#b")); err != nil {
			t.Fatal(err)
		}
		if n := Eval[[]int](t, ctx, `[hits, early, misses]`); n[0] != 1 || n[1] != 0 || n[2] != 0 {
			t.Fatalf("load %d: the button got %d clicks once still and %d while it moved, and %d landed beside it; want 1, 0 and 0", i, n[0], n[1], n[2])
		}
	}
	Eval[bool](t, ctx, `document.getElementById('veil').style.display = 'block'; true`)
	err := chromedp.Do(ctx, Click("#b"))
	if err == nil || !strings.Contains(err.Error(), `id="veil"`) {
		t.Fatalf("clicking a covered button: %v, want a refusal naming the veil", err)
	}
	if n := Eval[int](t, ctx, `hits + early + misses`); n != 1 {
		t.Fatalf("the covered button's refusal clicked: %d clicks in all, want the one before", n)
	}
}

// servePage serves page (HTML) until the test ends and returns its
// address; skips the test without a Chromium to open it.
func servePage(t *testing.T, page string) string {
	t.Helper()
	Chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
