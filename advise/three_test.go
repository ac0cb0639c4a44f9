package advise

import (
	"fmt"
	"math"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// TestThreeAdviceAgreesWithPerfect: with the three-player table, in games
// of three seats, the advice's values are the table's (each keep's the
// mover's chance to win after it, as solve.Three.Options gives it), its
// choices are the legal actions, and its best choice is the perfect bot's
// (which plays the same table).
func TestThreeAdviceAgreesWithPerfect(t *testing.T) {
	r := short("pocket-farkel", 700)
	r.Game.FirstPlayer = rules.SeatOrder
	th, err := solve.SolveThree(r, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := solved.NewTables("")
	ts.AddThree(th)
	a, err := For(r, 3, ts)
	if err != nil {
		t.Fatal(err)
	}
	if a.Measure() != WinProbability {
		t.Fatalf("measure %v with the three-player table", a.Measure())
	}
	perfect, _ := bot.New("perfect", r, bot.WithTables(ts))
	steady, _ := bot.New("steady", r)
	decisions, keeps := 0, 0
	for g := range 30 {
		st, _ := engine.New(r, []string{"a", "b", "c"})
		src := dice.NewSource(dice.SeedFrom(fmt.Sprint("three-advice", g)))
		for !st.Over() {
			act := steady.Choose(st)
			if st.Actor() == g%3 {
				act = perfect.Choose(st)
			}
			if st.Phase == engine.PhasePlay {
				adv, err := a.State(st)
				if err != nil {
					t.Fatal(err)
				}
				if adv.Measure != WinProbability || len(adv.Choices) != len(st.Legal()) {
					t.Fatalf("advice %+v for legal %v", adv, st.Legal())
				}
				if want := perfect.Choose(st); adv.Best().Engine() != want {
					t.Fatalf("total %d step %v: advice %v (%+v), perfect %v", st.Total, st.Step, adv.Best().Engine(), adv.Choices, want)
				}
				if st.Step == engine.StepKeep {
					var v bot.View
					bot.FromState(st, &v)
					opts, err := th.Options(bot.ThreePosition(&v, st.Throw.N()), st.Throw)
					if err != nil {
						t.Fatal(err)
					}
					for i, o := range opts {
						if c := adv.Choices[i]; c.Keep != o.Keep.Hand || c.Value != o.Win || c.Value < 0 || c.Value > 1 || math.IsNaN(c.Value) {
							t.Fatalf("choice %+v, table %+v", c, o)
						}
					}
					keeps++
				}
				decisions++
			}
			st, _, _ = engine.Apply(st, act, src)
		}
	}
	if decisions < 300 || keeps < 100 {
		t.Fatalf("only %d decisions (%d keeps) checked", decisions, keeps)
	}
}
