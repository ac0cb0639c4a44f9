package bot

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// benchViews returns n keep decisions of a two-player game under r; with
// sameTurn, all with the scores of one turn (1,200 to 1,800, no streaks).
func benchViews(r *rules.Rules, n int, seed uint64, sameTurn bool) []View {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var views []View
	for len(views) < n {
		v := randomKeepView(rng, r)
		if sameTurn {
			v.Scores[0], v.Scores[1], v.Seat, v.Streaks = 1200, 1800, 0, [MaxPlayers]int{}
		}
		if len(v.Table.Keeps(v.Throw)) > 0 {
			views = append(views, *v)
		}
	}
	return views
}

// benchDecide times one keep decision and the bank-or-throw decision after
// it, over views in turn.
func benchDecide(b *testing.B, d Decider, views []View) {
	v := new(View)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		*v = views[i%len(views)]
		k := v.Table.Keeps(v.Throw)[d.Keep(v)]
		v.Total += int(k.Points)
		v.Left -= int(k.N)
		if v.Left > 0 {
			d.Bank(v)
		}
	}
}

// BenchmarkDecision is one keep decision followed by the bank-or-throw
// decision after it, on positions of a two-player game (pocket-farkel to
// 3,000, whose duel table solves in about a second; the table is loaded
// before the timer starts). For perfect, "new-turn" positions all have
// other scores, so each decision solves its turn from the table (the first
// decision of a turn); "same-turn" positions share the scores, as the
// decisions after each throw of one turn do, and the solved turn is reused
// (solve keeps recent turns): a lookup.
func BenchmarkDecision(b *testing.B) {
	r := short("pocket-farkel", 3000)
	views := benchViews(&r, 512, 7, false)
	for _, level := range LevelNames() {
		s, _ := New(level, r, WithTables(tables))
		if err := Prepare(s); err != nil {
			b.Fatal(err)
		}
		if level != "perfect" {
			b.Run(level, func(b *testing.B) { benchDecide(b, s.(Decider), views) })
			continue
		}
		b.Run("perfect/new-turn", func(b *testing.B) { benchDecide(b, s.(Decider), views) })
		b.Run("perfect/same-turn", func(b *testing.B) { benchDecide(b, s.(Decider), benchViews(&r, 512, 8, true)) })
	}
}

// BenchmarkPerfectClassic is BenchmarkDecision for perfect under the
// classic preset, with its duel table read from the cache directory
// $FARKLE_CACHE_DIR (skipped when unset: solving it takes minutes).
func BenchmarkPerfectClassic(b *testing.B) {
	dir := os.Getenv("FARKLE_CACHE_DIR")
	if dir == "" {
		b.Skip("FARKLE_CACHE_DIR is not set")
	}
	r := rules.MustPreset("classic")
	s, _ := New("perfect", r, WithTables(solved.NewTables(dir)))
	if err := Prepare(s); err != nil {
		b.Fatal(err)
	}
	b.Run("new-turn", func(b *testing.B) { benchDecide(b, s.(Decider), benchViews(&r, 512, 9, false)) })
	b.Run("same-turn", func(b *testing.B) { benchDecide(b, s.(Decider), benchViews(&r, 512, 10, true)) })
}

// BenchmarkChoose is Strategy.Choose on an engine state at a keep (the
// engine-facing path, with its View conversion).
func BenchmarkChoose(b *testing.B) {
	r := rules.MustPreset("classic")
	st, _ := engine.New(r, []string{"a", "b"})
	src := dice.NewSource(dice.SeedFrom("choose"))
	for st.Step != engine.StepKeep || st.Phase != engine.PhasePlay {
		st, _, _ = engine.Apply(st, st.Legal()[0], src)
	}
	for _, level := range []string{"steady", "expert"} {
		b.Run(level, func(b *testing.B) {
			s, _ := New(level, r, WithTables(tables))
			Prepare(s)
			b.ReportAllocs()
			for b.Loop() {
				s.Choose(st)
			}
		})
	}
}
