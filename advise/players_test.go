package advise

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/solved"
)

// castVariants are a variant of every kind the Cast plays.
func castVariants(t testing.TB) []game.Variant {
	f, err := game.NewFarkle(short("pocket-farkel", 1500))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := game.Preset("dragon")
	return []game.Variant{f, d}
}

// TestCastBotsPlayWholeGames: every level of every kind's bots, made by
// name through the Cast, plays whole games against the kind's default
// level with nothing but legal actions, and the ordinary game's make the
// choices of bot.New's bots.
func TestCastBotsPlayWholeGames(t *testing.T) {
	cast := Cast(tables)
	for _, v := range castVariants(t) {
		def, err := cast.Bot(v, cast.DefaultLevel(v.Kind()))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range cast.Levels(v.Kind()) {
			b, err := cast.Bot(v, l.Name)
			if err != nil || l.Description == "" {
				t.Fatalf("%s %s: %v (%q)", v.Kind(), l.Name, err, l.Description)
			}
			var own bot.Strategy
			if v.Kind() == game.Farkle {
				own, _ = bot.New(l.Name, v.Scoring(), bot.WithTables(tables))
			}
			seed := dice.SeedFrom("cast " + l.Name)
			p, _, err := game.Start(v, []string{"a", "b"}, seed)
			if err != nil {
				t.Fatal(err)
			}
			src := game.BotSource(seed)
			bots := []game.Bot{b, def}
			for n := 0; !p.Game().Over(); n++ {
				if n > 20000 {
					t.Fatalf("%s %s: no end after 20000 actions", v.Kind(), l.Name)
				}
				g := p.Game()
				seat := g.ToAct()
				a, err := bots[seat].Choose(g, seat, src)
				if err != nil {
					t.Fatalf("%s %s: %v", v.Kind(), l.Name, err)
				}
				if !slices.Contains(g.Legal(seat), a) {
					t.Fatalf("%s %s: %s is not legal", v.Kind(), l.Name, a)
				}
				if seat == 0 && own != nil {
					if want := own.Choose(g.(*game.FarkleGame).State()); want != a {
						t.Fatalf("%s: the Cast's bot chooses %s, bot.New's %s", l.Name, a, want)
					}
				}
				if _, err := p.Do(seat, a); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := cast.Bot(v, "genius"); err == nil || !strings.Contains(err.Error(), cast.DefaultLevel(v.Kind())) {
			t.Errorf("%s: an unknown level: %v (want the levels named)", v.Kind(), err)
		}
	}
	f, d := castVariants(t)[0], castVariants(t)[1]
	if _, err := cast[game.Farkle].Bot(d, "steady"); !errors.Is(err, game.ErrNoPlayers) {
		t.Errorf("an ordinary bot for Dragon Farkle: %v", err)
	}
	if _, err := cast[game.Farkle].Advisor(d, 2); !errors.Is(err, game.ErrNoPlayers) {
		t.Errorf("an ordinary advisor for Dragon Farkle: %v", err)
	}
	b, _ := cast.Bot(f, "steady")
	g, _, _ := d.Start([]string{"a", "b"}, dice.NewSource(dice.SeedFrom("x")))
	if _, err := b.Choose(g, g.ToAct(), nil); err == nil {
		t.Error("an ordinary bot chose in a game of Dragon Farkle")
	}
}

// TestCastAdviceIsTheContract: at every decision of random games of every
// kind, the Cast's advisor values legal actions of the seat to act only,
// best first with one best when they share a measure; it refuses a seat
// that is not to act. The ordinary game's values and measure are State's.
func TestCastAdviceIsTheContract(t *testing.T) {
	cast := Cast(tables)
	pick := rand.New(rand.NewPCG(9, 10))
	for _, v := range castVariants(t) {
		for _, players := range []int{2, 3} {
			adv, err := cast.Advisor(v, players)
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"a", "b", "c"}[:players]
			p, _, err := game.Start(v, names, dice.SeedFrom(fmt.Sprint("advice ", players)))
			if err != nil {
				t.Fatal(err)
			}
			decisions := 0
			for n := 0; !p.Game().Over() && n < 2000; n++ {
				g := p.Game()
				seat := g.ToAct()
				legal := g.Legal(seat)
				if _, err := adv.Advise(g, (seat+1)%players); !errors.Is(err, game.ErrNoDecision) {
					t.Fatalf("%s: advice for a seat not to act: %v", v.Kind(), err)
				}
				a, err := adv.Advise(g, seat)
				switch {
				case errors.Is(err, game.ErrNoDecision):
					if fg, ok := g.(*game.FarkleGame); !ok || fg.State().Phase == engine.PhasePlay {
						t.Fatalf("%s: no decision at action %d: %v", v.Kind(), n+1, err)
					}
				case err != nil:
					t.Fatal(err)
				default:
					decisions++
					for _, c := range a.Choices {
						if !slices.Contains(legal, c.Action) {
							t.Fatalf("%s: %s valued but not legal", v.Kind(), c.Action)
						}
					}
					best := 0
					for i, c := range a.Choices {
						if c.Best {
							best++
							if i != 0 {
								t.Fatalf("%s: the best choice is not first: %+v", v.Kind(), a.Choices)
							}
						}
						if i > 0 && a.OneMeasure() && c.Value > a.Choices[i-1].Value {
							t.Fatalf("%s: not best first: %+v", v.Kind(), a.Choices)
						}
					}
					if want := 0; a.OneMeasure() && len(a.Choices) > 0 {
						want = 1
						if best != want {
							t.Fatalf("%s: %d best of %+v", v.Kind(), best, a.Choices)
						}
					}
					if fg, ok := g.(*game.FarkleGame); ok {
						checkOrdinary(t, adv, fg.State(), a)
					}
				}
				if _, err := p.Do(seat, legal[pick.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			if decisions == 0 {
				t.Errorf("%s: no decisions advised", v.Kind())
			}
			t.Logf("%s, %d players: %d decisions advised", v.Kind(), players, decisions)
		}
	}
}

// checkOrdinary checks the ordinary game's advice against State's.
func checkOrdinary(t *testing.T, adv game.Advisor, s engine.State, a *game.Advice) {
	t.Helper()
	want, err := adv.(*Advisor).State(s)
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, p := range s.Players {
		turns += p.Turns
	}
	if a.Measure != want.Measure || a.Position != want.Position || a.Note != want.Note || a.Turn != turns || len(a.Choices) != len(want.Choices) {
		t.Fatalf("advice %+v, State's %+v", a, want)
	}
	for _, w := range want.Choices {
		j := slices.IndexFunc(a.Choices, func(c game.Choice) bool { return c.Action == w.Engine() })
		if j < 0 || a.Choices[j].Value != w.Value || a.Choices[j].Then != w.Then || a.Choices[j].Best != w.Best {
			t.Fatalf("%s %v: the advice has %+v", w.Engine(), w.Value, a.Choices)
		}
	}
}

// TestLiveAdvisor: a live advisor never waits for a duel table: it values
// by expected points and says why while the table is being got, and by
// win probability once the table is in memory; without duels it never
// asks for one.
func TestLiveAdvisor(t *testing.T) {
	r := short("cardgames", 1000)
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	g, _, _ := v.Start([]string{"a", "b"}, nil)
	src := dice.NewSource(dice.SeedFrom("live"))
	for g.(*game.FarkleGame).State().Step != engine.StepKeep {
		if g, _, err = g.Apply(g.ToAct(), g.Legal(g.ToAct())[0], src); err != nil {
			t.Fatal(err)
		}
	}
	ts := solved.NewTables("")
	live, err := Cast(ts, Live(true)).Advisor(v, 2)
	if err != nil {
		t.Fatal(err)
	}
	first, err := live.Advise(g, g.ToAct())
	if err != nil {
		t.Fatal(err)
	}
	if first.Measure != ExpectedPoints || !strings.HasPrefix(first.Note, "win chances are not available: ") {
		t.Errorf("before the duel table: %s, %q", first.Measure, first.Note)
	}
	if _, err := ts.Duel(r); err != nil { // waits for the solve the advice started
		t.Fatal(err)
	}
	then, err := live.Advise(g, g.ToAct())
	if err != nil || then.Measure != WinProbability || then.Note != "" || live.Measure() != WinProbability {
		t.Errorf("with the duel table: %+v %v", then, err)
	}
	never, err := Cast(solved.NewTables(""), Live(false)).Advisor(v, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := never.Advise(g, g.ToAct()); err != nil || a.Measure != ExpectedPoints || a.Note != "" {
		t.Errorf("without duels: %+v %v", a, err)
	}
	if a, err := Cast(ts, Live(true)).Advisor(castVariants(t)[1], 2); err != nil || a.Measure() != game.ExpectedSoldiers {
		t.Errorf("Dragon Farkle's advisor in a live Cast: %v", err)
	}
}
