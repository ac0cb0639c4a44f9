package webtest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
)

// TestBrowserDragonEndRanksByResult: Dragon Farkle's end screen ranks the
// players by the game's result, the winner first even with fewer soldiers
// than the others, then by soldiers.
func TestBrowserDragonEndRanksByResult(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := Browser(t, 800, 600)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady("#lang")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		soldiers []int
		winners  []int
		want     []int
	}{
		{[]int{900, 300, 600}, []int{1}, []int{1, 0, 2}},
		{[]int{900, 300, 600}, []int{0}, []int{0, 2, 1}},
		{[]int{100, 300, 600}, []int{0, 1}, []int{1, 0, 2}},
		{[]int{100, 300}, nil, []int{1, 0}},
	} {
		js := `import('/static/dragon.js').then((m) => m.endOrder(` + jsInts(c.soldiers, `{soldiers: %d}`) + `, ` + jsInts(c.winners, `%d`) + `).map((x) => x[1]))`
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("soldiers %v, winners %v: ranked %v, want %v", c.soldiers, c.winners, got, c.want)
		}
	}
}

func jsInts(xs []int, format string) string {
	out := "["
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf(format, x)
	}
	return out + "]"
}
