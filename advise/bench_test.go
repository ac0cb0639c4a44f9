package advise

import (
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// BenchmarkPosition is the advice for one throw: every keep valued.
func BenchmarkPosition(b *testing.B) {
	r := short("pocket-farkel", 3000)
	for _, tc := range []struct {
		name    string
		players int
	}{{"win-probability", 2}, {"expected-points", 3}} {
		b.Run(tc.name, func(b *testing.B) {
			a := advisor(b, r, tc.players)
			p := Position{Me: 1200, Them: 1800, Total: 300, Dice: 4, Throw: dice.Of(1, 1, 5, 3)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.Position(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAnalyze is the analysis of a whole two-player game record
// (pocket-farkel to 3,000, perfect against steady) with the duel table
// loaded.
func BenchmarkAnalyze(b *testing.B) {
	r := short("pocket-farkel", 3000)
	a := advisor(b, r, 2)
	old, _ := playRecord(b, r, []string{"perfect", "steady"}, "bench", nil)
	rec, err := game.FromOrdinary(old)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	decisions := 0
	for b.Loop() {
		rep, err := AnalyzeWith(rec, a)
		if err != nil {
			b.Fatal(err)
		}
		decisions = len(rep.Decisions)
	}
	b.ReportMetric(float64(len(rec.Actions)), "actions")
	b.ReportMetric(float64(decisions), "decisions")
}
