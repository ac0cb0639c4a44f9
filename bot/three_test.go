package bot

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// threeShort returns a preset for three seats in seat order with a lower
// target and no farkle penalty.
func threeShort(base string, target int) rules.Rules {
	r := short(base, target)
	r.Game.MaxPlayers = max(r.Game.MaxPlayers, 3)
	r.Game.MinPlayers = 1
	r.Game.FirstPlayer = rules.SeatOrder
	r.Turn.FarklePenalty = rules.Penalty{}
	return r
}

// Whole games of three perfect bots played through the engine win by seat
// as the table says at the start, within the simulation's 99.9% interval
// (3.3 standard errors; a tie counts 1/k for each of k tied); classic with
// its penalty too (the seats' streaks in the table and the positions).
func TestPerfectThreeAgreesWithTable(t *testing.T) {
	for _, c := range []struct {
		base   string
		target int
		games  int
		pen    bool
	}{{"cardgames", 1000, 3000, false}, {"pocket-farkel", 500, 1500, false}, {"classic", 300, 3000, true}} {
		r := threeShort(c.base, c.target)
		if c.pen {
			r.Turn.FarklePenalty = rules.MustPreset(c.base).Turn.FarklePenalty
		}
		th, err := solve.SolveThree(r, solve.ThreeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ts := solved.NewTables("")
		ts.AddThree(th)
		bots := make([]Strategy, 3)
		for i := range bots {
			if bots[i], err = New("perfect", r, WithTables(ts)); err != nil {
				t.Fatal(err)
			}
		}
		var wins [3]float64
		for g := 0; g < c.games; g++ {
			st, err := engine.New(r, []string{"a", "b", "c"})
			if err != nil {
				t.Fatal(err)
			}
			src := dice.NewSource(dice.SeedFrom(fmt.Sprintf("%s-three-%d", c.base, g)))
			for n := 0; !st.Over(); n++ {
				if n > 100000 {
					t.Fatal("runaway game")
				}
				if st, _, err = engine.Apply(st, bots[st.Actor()].Choose(st), src); err != nil {
					t.Fatal(err)
				}
			}
			for _, w := range st.Winners {
				wins[w] += 1 / float64(len(st.Winners))
			}
		}
		for _, b := range bots {
			if f := b.(*Perfect).Fallback(); f != "" {
				t.Errorf("%s: perfect fell back: %s", c.base, f)
			}
		}
		want := th.Start()
		for i := range wins {
			p := wins[i] / float64(c.games)
			se := math.Sqrt(want[i] * (1 - want[i]) / float64(c.games))
			if math.Abs(p-want[i]) > 3.3*se {
				t.Errorf("%s target %d seat %d: won %.4f of %d games, table %.4f (±%.4f)", c.base, c.target, i+1, p, c.games, want[i], 3.3*se)
			}
			t.Logf("%s target %d seat %d: won %.4f of %d games, table %.4f (±%.4f)", c.base, c.target, i+1, p, c.games, want[i], 3.3*se)
		}
	}
}

// Without a three-player table (none made, or rules the solver refuses: a
// bank minimum without hot dice under a farkle penalty) a
// perfect bot plays three-player games as expert and says why.
func TestPerfectThreeFallsBack(t *testing.T) {
	for _, c := range []struct {
		r    rules.Rules
		want string
	}{
		{threeShort("pocket-farkel", 500), "no three-player table"},
		{func() rules.Rules {
			r := threeShort("pocket-farkel", 500)
			r.Turn.BankMinimum = 300
			r.Turn.HotDice, r.Turn.FarklePenalty = false, rules.Penalty{Count: 3, Points: 1000}
			return r
		}(), "needs hot dice where a bank or entry minimum meets a farkle penalty"},
	} {
		r := c.r
		r.Game.FirstPlayer = rules.SeatOrder
		b, err := New("perfect", r, WithTables(solved.NewTables(t.TempDir())))
		if err != nil {
			t.Fatal(err)
		}
		ex, _ := New("expert", r, WithTables(solved.NewTables("")))
		st, err := engine.New(r, []string{"a", "b", "c"})
		if err != nil {
			t.Fatal(err)
		}
		src := dice.NewSource(dice.SeedFrom("fallback"))
		for n := 0; n < 200 && !st.Over(); n++ {
			a := b.Choose(st)
			if e := ex.Choose(st); a.String() != e.String() {
				t.Fatalf("%s: perfect %+v, expert %+v", r.Name, a, e)
			}
			if st, _, err = engine.Apply(st, a, src); err != nil {
				t.Fatal(err)
			}
		}
		if f := b.(*Perfect).Fallback(); !strings.Contains(f, c.want) {
			t.Errorf("%s: Fallback %q, want %q in it", r.Name, f, c.want)
		}
	}
	if _, err := solved.NewTables("").Three(threeShort("pocket-farkel", 500)); !errors.Is(err, solved.ErrNoThreeTable) {
		t.Errorf("no directory: %v", err)
	}
}
