package webtest

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server"
)

// TestBrowserDurations: the pages' one function for clocks and times
// (duration.js) writes each span in the page's language, counting its
// units from the total: a day less a few seconds is 24 hours, never
// "23 h 60 min", and a day is never "86,400 s".
func TestBrowserDurations(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	spans := []float64{0, 4.2, 90, 119.5, 120, 3000, 7199, 7200, 85000, 86370, 86400, 90000, 172800, 200000, 259200}
	for vi, c := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"0 s", "5 s", "90 s", "2 min", "2 min", "50 min", "2 h", "2 h", "23 h 37 min", "24 h", "24 h", "25 h", "2 d", "2 d 8 h", "3 d"}},
		{"nb", []string{"0 s", "5 s", "90 s", "2 min", "2 min", "50 min", "2 t", "2 t", "23 t 37 min", "24 t", "24 t", "25 t", "2 d", "2 d 8 t", "3 d"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			ctx := Browser(t, 800, 600)
			OpenIn(t, ctx, ts.URL+"/", c.lang)
			js := `import('/static/duration.js').then((m) => ` + jsArray(spans) + `.map(m.duration))`
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				for i := range spans {
					if i < len(got) && got[i] != c.want[i] {
						t.Errorf("%v s: %q, want %q", spans[i], got[i], c.want[i])
					}
				}
				t.Fatalf("durations %v", got)
			}
		})
	}
}

func jsArray(xs []float64) string {
	b, _ := json.Marshal(xs)
	return string(b)
}
