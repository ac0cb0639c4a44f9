package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// BenchmarkDecision is one keep decision followed by the bank-or-throw
// decision after it, on positions of a two-player game (pocket-farkel to
// 3,000, whose duel table solves in about a second; the table is loaded
// before the timer starts).
func BenchmarkDecision(b *testing.B) {
	r := short("pocket-farkel", 3000)
	rng := rand.New(rand.NewPCG(7, 8))
	var views []View
	for len(views) < 512 {
		v := randomKeepView(rng, &r)
		if len(v.Table.Keeps(v.Throw)) > 0 {
			views = append(views, *v)
		}
	}
	for _, level := range LevelNames() {
		b.Run(level, func(b *testing.B) {
			s, _ := New(level, r, WithTables(tables))
			if err := Prepare(s); err != nil {
				b.Fatal(err)
			}
			d := s.(Decider)
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
		})
	}
}

// BenchmarkChoose is Strategy.Choose on an engine state at a keep (the
// engine-facing path, with its View conversion).
func BenchmarkChoose(b *testing.B) {
	r := rules.MustPreset("classic")
	st, _ := engine.New(r, []string{"a", "b"})
	src := engine.NewChaCha(engine.SeedFrom("choose"))
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
