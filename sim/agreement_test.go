package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// TestDuelTableAgreesWithTheEngine checks the duel solver, which models the
// game without the engine, against games played through engine.Apply: two
// perfect bots on small rules, and the first player's share of the wins
// must match Table.FirstPlayerWins within the simulation's 99.9% interval.
// The rules exercise the features the solver models separately: both
// endings, the farkle penalty, the entry minimum and ties. It plays 8,000
// games a rule set, 20,000 with -long (internal/testflags: minutes on two
// cores), 4,000 with -short; the interval is the games' own.
func TestDuelTableAgreesWithTheEngine(t *testing.T) {
	games := 8000
	switch {
	case testflags.Long():
		games = 20000
	case testing.Short():
		games = 4000
	}
	cases := map[string]func(*rules.Rules){
		"classic-final-round-penalty": func(r *rules.Rules) {},
		"farkle-dice-entry": func(r *rules.Rules) {
			*r = rules.MustPreset("farkle-dice")
			r.Turn.EntryMinimum = 300
		},
		"cardgames-immediate": func(r *rules.Rules) { *r = rules.MustPreset("cardgames") },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := rules.MustPreset("classic")
			edit(&r)
			r.Game.Target = 1000
			r.Game.FirstPlayer = rules.SeatOrder
			r.Game.MinPlayers, r.Game.MaxPlayers = 2, 2
			tab, err := solve.SolveDuel(r, solve.DuelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := tab.FirstPlayerWins()
			var score float64 // first player's wins, a shared or rolled-off tie as the table counts it
			for g := range games {
				b0, err0 := bot.New("perfect", r, bot.WithDuelTable(tab))
				b1, err1 := bot.New("perfect", r, bot.WithDuelTable(tab))
				if err0 != nil || err1 != nil {
					t.Fatal(err0, err1)
				}
				bots := []bot.Strategy{b0, b1}
				s, err := engine.New(r, []string{"first", "second"})
				if err != nil {
					t.Fatal(err)
				}
				src := dice.NewSource(dice.SeedFrom(fmt.Sprintf("%s-%d", name, g)))
				tied := false
				for !s.Over() {
					if s.Phase == engine.PhaseTieRollOff {
						tied = true
					}
					a := bots[s.Actor()].Choose(s)
					if s, _, err = engine.Apply(s, a, src); err != nil {
						t.Fatalf("game %d: %v", g, err)
					}
				}
				switch {
				case tied || len(s.Winners) == 2:
					score += 0.5 // the table counts a tie as half a win
				case s.Winners[0] == 0:
					score++
				}
			}
			p := score / float64(games)
			half := 3.29 * math.Sqrt(want*(1-want)/float64(games))
			if math.Abs(p-want) > half {
				t.Fatalf("first player won %.4f of %d engine games; the table says %.4f (99.9%% band ±%.4f)", p, games, want, half)
			}
			t.Logf("table %.4f, engine games %.4f ± %.4f", want, p, half)
		})
	}
}
