package sim

import (
	"context"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

func deciders(b *testing.B, r rules.Rules, levels ...string) []bot.Decider {
	var out []bot.Decider
	for _, l := range levels {
		s, err := bot.New(l, r, bot.WithTables(solved.NewTables("")))
		if err != nil {
			b.Fatal(err)
		}
		if err := bot.Prepare(s); err != nil {
			b.Fatal(err)
		}
		out = append(out, s.(bot.Decider))
	}
	return out
}

// BenchmarkFastGame is one whole game on one core with the fast simulator
// (classic rules, target 10,000); games/s is the throughput per core.
func BenchmarkFastGame(b *testing.B) {
	for _, tc := range []struct {
		name   string
		levels []string
	}{
		{"steady-steady", []string{"steady", "steady"}},
		{"cautious-reckless", []string{"cautious", "reckless"}},
		{"expert-steady", []string{"expert", "steady"}},
		{"four-personalities", []string{"cautious", "steady", "bold", "reckless"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			r := rules.MustPreset("classic")
			ds := deciders(b, r, tc.levels...)
			f := NewFast(r)
			base := dice.SeedFrom("bench")
			b.ReportAllocs()
			b.ResetTimer()
			actions := 0
			for i := 0; b.Loop(); i++ {
				out, err := f.Play(GameSeed(base, i), ds)
				if err != nil {
					b.Fatal(err)
				}
				actions += out.Actions
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
		})
	}
}

// BenchmarkEngineGame is the same game through engine.Apply and
// bot.Strategy.Choose, for comparison.
func BenchmarkEngineGame(b *testing.B) {
	r := rules.MustPreset("classic")
	ds := deciders(b, r, "steady", "steady")
	base := dice.SeedFrom("bench")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, err := engine.New(r, []string{"a", "b"})
		if err != nil {
			b.Fatal(err)
		}
		src := dice.NewSource(GameSeed(base, i))
		for !st.Over() {
			st, _, err = engine.Apply(st, ds[st.Actor()].Choose(st), src)
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkRun is a whole tournament on all cores (GOMAXPROCS workers).
func BenchmarkRun(b *testing.B) {
	r := rules.MustPreset("classic")
	const games = 20000
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), Config{Rules: r, Players: []string{"steady", "bold"}, Games: games, Seed: dice.SeedFrom("run")}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*games)/b.Elapsed().Seconds(), "games/s")
}
