package advise

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

var tables = solved.NewTables("")

func short(base string, target int) rules.Rules {
	r := rules.MustPreset(base)
	r.Game.Target = target
	return r
}

// noHot is pocket-farkel (1 = 100, 5 = 50, no penalty, no entry minimum)
// without hot dice, to target 1000: small enough to value by hand.
func noHot() rules.Rules {
	r := short("pocket-farkel", 1000)
	r.Turn.HotDice = false
	return r
}

func advisor(t testing.TB, r rules.Rules, players int) *Advisor {
	t.Helper()
	a, err := For(r, players, tables)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func values(adv *Advice) map[string]float64 {
	out := map[string]float64{}
	for _, c := range adv.Choices {
		name := c.Action.String()
		if c.Action == engine.Keep {
			name = "keep " + c.Keep.Join("")
		}
		out[name] = c.Value
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestExpectedPointsByHand: positions whose expected points are worked out
// by hand without hot dice. With one die at total T: throwing gives a 1
// (T+100, then nothing left: bank) or a 5 (T+50) each with chance 1/6,
// else a farkle (0).
func TestExpectedPointsByHand(t *testing.T) {
	r := noHot()
	a := advisor(t, r, 1)
	if a.Measure() != ExpectedPoints {
		t.Fatalf("measure %s for one player", a.Measure())
	}
	adv, err := a.Position(Position{Total: 300, Dice: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := values(adv)
	if !near(v["bank"], 300) || !near(v["throw"], (400+350)/6.0) {
		t.Errorf("total 300, one die: %v, want bank 300, throw 125", v)
	}
	if adv.Best().Action != engine.Bank {
		t.Errorf("best %v, want bank", adv.Best().Action)
	}
	// Throw 1 5 at 300: keep 1 (400, one die left: bank 400 beats throwing
	// (500+450)/6), keep 5 (350, likewise bank), keep both (450, nothing
	// left: bank).
	adv, err = a.Position(Position{Total: 300, Dice: 2, Throw: dice.Of(1, 5)})
	if err != nil {
		t.Fatal(err)
	}
	v = values(adv)
	if !near(v["keep 1"], 400) || !near(v["keep 5"], 350) || !near(v["keep 15"], 450) || len(v) != 3 {
		t.Errorf("throw 1 5 at 300: %v", v)
	}
	if b := adv.Best(); b.Keep != dice.Of(1, 5) || b.Then != "bank" {
		t.Errorf("best %+v, want keep 1 5 then bank", b)
	}
	// A farkle.
	adv, err = a.Position(Position{Total: 300, Dice: 2, Throw: dice.Of(2, 3)})
	if err != nil {
		t.Fatal(err)
	}
	if !adv.Farkle || len(adv.Choices) != 0 || adv.FarkleValue != 0 {
		t.Errorf("throw 2 3: %+v", adv)
	}
}

// TestWinProbabilityByHand: the last turn of a final round, 500 behind the
// leader at 1000 with a turn total of 450 and one die (no hot dice): a
// bank leaves 950 and loses; a throw wins with a 1 (1050), ties with a 5
// (1000, worth 1/2) and farkles otherwise: 1/6 + 1/12 = 1/4.
func TestWinProbabilityByHand(t *testing.T) {
	a := advisor(t, noHot(), 2)
	if a.Measure() != WinProbability {
		t.Fatalf("measure %s for two players", a.Measure())
	}
	adv, err := a.Position(Position{Me: 500, Them: 1000, Total: 450, Dice: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := values(adv)
	if !near(v["bank"], 0) || !near(v["throw"], 0.25) {
		t.Errorf("last turn: %v, want bank 0, throw 1/4", v)
	}
	// With 550 banking passes the leader: a certain win.
	adv, err = a.Position(Position{Me: 500, Them: 1000, Total: 550, Dice: 1})
	if err != nil {
		t.Fatal(err)
	}
	if v := values(adv); !near(v["bank"], 1) || adv.Best().Action != engine.Bank {
		t.Errorf("last turn ahead: %v", v)
	}
}

// TestMoreIsBetter: banking more never lowers the value (win probability
// or expected points).
func TestMoreIsBetter(t *testing.T) {
	for _, players := range []int{1, 2} {
		a := advisor(t, short("pocket-farkel", 1500), players)
		prev := -1.0
		for total := 50; total <= 1400; total += 50 {
			adv, err := a.Position(Position{Me: 100, Them: 300, Total: total, Dice: 2})
			if err != nil {
				t.Fatal(err)
			}
			b := values(adv)["bank"]
			if b < prev-1e-12 {
				t.Errorf("%d players: banking %d is worth %v, less than %v for 50 less", players, total, b, prev)
			}
			prev = b
		}
	}
}

// TestAdviceAgreesWithPerfect plays perfect against steady and checks at
// every decision of either that the advice's best choice is perfect's.
func TestAdviceAgreesWithPerfect(t *testing.T) {
	for _, r := range []rules.Rules{short("pocket-farkel", 1500), short("cardgames", 1500), short("classic", 1000)} {
		t.Run(r.Name, func(t *testing.T) {
			a := advisor(t, r, 2)
			perfect, _ := bot.New("perfect", r, bot.WithTables(tables))
			steady, _ := bot.New("steady", r)
			decisions := 0
			for g := range 20 {
				st, _ := engine.New(r, []string{"p", "s"})
				src := dice.NewSource(dice.SeedFrom(fmt.Sprint("agree", g)))
				for !st.Over() {
					act := steady.Choose(st)
					if st.Actor() == g%2 {
						act = perfect.Choose(st)
					}
					if st.Phase == engine.PhasePlay && len(st.Legal()) > 1 {
						adv, err := a.State(st)
						if err != nil {
							t.Fatal(err)
						}
						want := perfect.Choose(st)
						if got := adv.Best().Engine(); got != want {
							t.Fatalf("total %d step %v: advice %v (%+v), perfect %v", st.Total, st.Step, got, adv.Choices, want)
						}
						decisions++
					}
					st, _, _ = engine.Apply(st, act, src)
				}
			}
			if decisions < 100 {
				t.Errorf("only %d decisions checked", decisions)
			}
		})
	}
}

// TestAdviceAgreesWithExpert: with expected points (three players), away
// from the end of the game, the best choice is the expert's.
func TestAdviceAgreesWithExpert(t *testing.T) {
	r := rules.MustPreset("farkle-dice") // entry minimum and penalty
	a := advisor(t, r, 3)
	if a.Measure() != ExpectedPoints {
		t.Fatalf("measure %s for three players", a.Measure())
	}
	expert, _ := bot.New("expert", r, bot.WithTables(tables))
	decisions := 0
	for g := range 10 {
		st, _ := engine.New(r, []string{"a", "b", "c"})
		src := dice.NewSource(dice.SeedFrom(fmt.Sprint("expert", g)))
		for !st.Over() {
			lead := 0
			for _, p := range st.Players {
				lead = max(lead, p.Score)
			}
			if st.Phase == engine.PhasePlay && len(st.Legal()) > 1 && lead < 8000 {
				adv, err := a.State(st)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := adv.Best().Engine(), expert.Choose(st); got != want {
					t.Fatalf("advice %v, expert %v (%+v)", got, want, adv.Choices)
				}
				decisions++
			}
			st, _, _ = engine.Apply(st, expert.Choose(st), src)
		}
	}
	if decisions < 100 {
		t.Errorf("only %d decisions checked", decisions)
	}
}

func TestBadPositions(t *testing.T) {
	a := advisor(t, short("classic", 1000), 2)
	for _, tc := range []struct {
		name    string
		p       Position
		mention string
	}{
		{"negative score", Position{Me: -50, Total: 100, Dice: 3}, "negative"},
		{"negative total", Position{Total: -100, Dice: 3}, "negative"},
		{"seven dice", Position{Total: 100, Dice: 7}, "1 to 6 dice"},
		{"no dice", Position{Total: 100, Dice: 0}, "1 to 6 dice"},
		{"off unit", Position{Total: 75, Dice: 3}, "multiple of 50"},
		{"their score off unit", Position{Them: 1010, Total: 100, Dice: 3}, "multiple of 50"},
		{"throw of other size", Position{Total: 100, Dice: 3, Throw: dice.Of(1, 5)}, "has 2 dice"},
		{"my score at target", Position{Me: 1000, Total: 100, Dice: 3}, "target"},
		{"nothing kept", Position{Total: 0, Dice: 3}, "turn total 0"},
		{"streak", Position{Total: 100, Dice: 3, MyStreak: 3}, "streak"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Position(tc.p)
			if !errors.Is(err, ErrPosition) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("error %v, want ErrPosition mentioning %q", err, tc.mention)
			}
		})
	}
	imm := advisor(t, short("cardgames", 1500), 2)
	if _, err := imm.Position(Position{Me: 100, Them: 1500, Total: 100, Dice: 2}); !errors.Is(err, ErrPosition) {
		t.Errorf("opponent at the target with the immediate ending: %v", err)
	}
}

func TestStateChoicesAreLegal(t *testing.T) {
	r := short("farkle-dice", 1000)
	for _, players := range []int{1, 2, 3} {
		a := advisor(t, r, players)
		steady, _ := bot.New("bold", r)
		st, _ := engine.New(r, make([]string, players))
		src := dice.NewSource(dice.SeedFrom("legal"))
		for !st.Over() {
			if st.Phase == engine.PhasePlay {
				adv, err := a.State(st)
				if err != nil {
					t.Fatal(err)
				}
				legal := st.Legal()
				if len(adv.Choices) != len(legal) {
					t.Fatalf("%d players: %d choices %+v for %d legal actions %v; state total %d left %d step %v scores %+v", players, len(adv.Choices), adv.Choices, len(legal), legal, st.Total, st.Left, st.Step, st.Players)
				}
				for _, c := range adv.Choices {
					found := false
					for _, l := range legal {
						found = found || l == c.Engine()
					}
					if !found {
						t.Fatalf("choice %v is not legal (%v)", c.Engine(), legal)
					}
				}
			}
			st, _, _ = engine.Apply(st, steady.Choose(st), src)
		}
	}
}
