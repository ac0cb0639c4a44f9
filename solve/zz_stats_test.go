package solve

import (
	"testing"

	"github.com/farkle/farkle/rules"
)

func TestZZStats(t *testing.T) {
	for _, name := range rules.Presets() {
		m := newModel(rules.MustPreset(name))
		tot := 0
		for n := 1; n <= 6; n++ {
			g, o := 0, 0
			for _, b := range m.blocks[n] {
				g += len(b.prob)
				o += len(b.off)
			}
			ga, oa := 0, 0
			for _, b := range m.blocksAll[n] {
				ga += len(b.prob)
				oa += len(b.off)
			}
			tot += o
			t.Logf("%s n=%d pruned groups %d opts %d; all groups %d opts %d; pf %.4f", name, n, g, o, ga, oa, m.farkle[n])
		}
		t.Logf("%s maxPts %d target %d streaks %d total opts/row %d", name, m.maxPts, m.target, m.streaks(), tot)
	}
}
