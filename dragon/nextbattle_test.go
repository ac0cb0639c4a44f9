package dragon

import (
	"math"
	"slices"
	"testing"

	"github.com/farkle/farkle/dice"
)

// playTurn plays seat 0's turn of s from action a with Smart bots for
// every decision (seat 1 defending a brawl too) until seat 1's turn
// starts, and returns the state then.
func playTurn(t *testing.T, g *Game, bot *Bot, s State, a Action, src dice.Source) State {
	t.Helper()
	for {
		var err error
		if s, _, err = g.Apply(s, a, src); err != nil {
			t.Fatal(err)
		}
		if s.Over() || (s.Turn != 0 && s.Phase == PhaseChoose) {
			return s
		}
		seat := s.Turn
		if s.Phase == PhaseBrawl && s.Brawl != nil && s.Brawl.Defending {
			seat = s.Brawl.Defender
		}
		a = bot.Choose(g.View(s, seat), src)
	}
}

// meanWithin fails unless the sample mean of xs is within 4.5 standard
// errors (and 1e-3) of want.
func meanWithin(t *testing.T, what string, xs []float64, want float64) {
	t.Helper()
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	n := float64(len(xs))
	mean := sum / n
	se := math.Sqrt(max(sq/n-mean*mean, 0) / n)
	if math.Abs(mean-want) > 4.5*se+1e-3 {
		t.Errorf("%s: the game gives %.5f ± %.5f over %d, the model %.5f", what, mean, se, len(xs), want)
	}
	t.Logf("%s: game %.5f ± %.5f, model %.5f", what, mean, se, want)
}

// The distribution of a recruiting turn is the game's: recruiting turns
// played in the real game by the Smart bot (no cards) bank on average what
// the distribution says, and reach each soldier count as often.
func TestRecruitDistIsTheGame(t *testing.T) {
	g := testGame(t, nil)
	brains := NewBrains(g)
	bot := NewBot(Smart, brains)
	dist := brains.recruitDist()
	total, mean := 0.0, 0.0
	for u, p := range dist {
		if p < -1e-12 {
			t.Fatalf("P(%d) = %v", u, p)
		}
		total += p
		mean += p * float64(u*brains.plan.step)
	}
	if math.Abs(total-1) > 1e-9 {
		t.Fatalf("the distribution sums to %v", total)
	}
	// With an item counted as the plan counts it, the mean is the plan's
	// expected turn (but for the pools at its cap, which the bot banks
	// and the plan may throw on from).
	withItems := 0.0
	for u, p := range brains.plan.recruitDist(true) {
		withItems += p * float64(u*brains.plan.step)
	}
	if d := brains.plan.expected() - withItems; d < 0 || d > 5 {
		t.Fatalf("mean with items %v, the plan's expected turn %v", withItems, brains.plan.expected())
	}
	src := dice.NewSource(dice.SeedFrom("recruit dist"))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	banked := make([]float64, n)
	over1000 := make([]float64, n)
	start := battleReady(6000) // at the minimum: the bot recruits by its plan alone
	for i := range n {
		s := playTurn(t, g, bot, start.Clone(), Recruit(), src)
		banked[i] = float64(s.Players[0].Soldiers - 6000)
		if banked[i] >= 1000 {
			over1000[i] = 1
		}
	}
	p1000 := 0.0
	for u, p := range dist {
		if u*brains.plan.step >= 1000 {
			p1000 += p
		}
	}
	meanWithin(t, "soldiers banked", banked, mean)
	meanWithin(t, "P(1000 or more)", over1000, p1000)
}

// The turn's choices at the battle minimum are valued in one unit, and
// each value is the game's: recruiting or brawling played out in the real
// game, then the chance to slay the dragon with the soldiers left while
// the opponent at the minimum does not, averages to the advice.
func TestNextBattleIsTheGame(t *testing.T) {
	g := armyGame(t, nil)
	brains := NewBrains(g)
	bot := NewBot(Smart, brains)
	start := fresh(2)
	give(&start, 0, 5500)
	give(&start, 1, 5200)
	v := g.View(start, 0)
	adv := brains.Advise(v)
	if len(adv) != 3 || !OneUnit(adv) || adv[0].Unit != UnitPWin {
		t.Fatalf("advice %+v", adv)
	}
	value := map[ActionKind]float64{}
	for _, a := range adv {
		value[a.Action.Kind] = a.Value
	}
	if value[ActBattle] != brains.Odds().Win(5500) {
		t.Fatalf("attack valued %v, the battle odds %v", value[ActBattle], brains.Odds().Win(5500))
	}
	n := 12000
	if testing.Short() {
		n = 3000
	}
	src := dice.NewSource(dice.SeedFrom("next battle"))
	for _, a := range []Action{Recruit(), Brawl(1)} {
		wins := make([]float64, n)
		for i := range n {
			s := playTurn(t, g, bot, start.Clone(), a, src)
			me, them := s.Players[0].Soldiers, s.Players[1].Soldiers
			if me < 5000 {
				continue
			}
			w := brains.Odds().Win(me)
			if them >= 5000 {
				w *= 1 - brains.Odds().Win(them)
			}
			wins[i] = w
		}
		meanWithin(t, a.String(), wins, value[a.Kind])
	}
	// Below the minimum the turn's choices stay in soldiers.
	low := fresh(2)
	give(&low, 0, 3000)
	if adv := brains.Advise(g.View(low, 0)); !OneUnit(adv) || adv[0].Unit != UnitSoldiers {
		t.Fatalf("advice below the minimum %+v", adv)
	}
}

// Every keep's advice says what the Smart bot does next, and the bot does
// it: over positions from real games, after the keep it stops when the
// advice says stop and throws when it says throw.
func TestKeepAdviceSaysWhatNext(t *testing.T) {
	g := testGame(t, nil)
	brains := NewBrains(g)
	bot := NewBot(Smart, brains)
	seen := map[string]int{}
	for game := range 40 {
		src := dice.NewSource(GameSeed(dice.SeedFrom("then"), game))
		s, _, _ := g.New([]string{"a", "b", "c"}, src)
		for !s.Over() && s.Round < 80 {
			v := g.View(s, s.Turn)
			a := bot.Choose(v, src)
			if v.Phase == PhaseKeep && a.Kind == ActKeep {
				adv := brains.Advise(v)
				i := slices.IndexFunc(adv, func(x Advice) bool { return x.Action == a })
				if i < 0 || (adv[i].Then != ThenStop && adv[i].Then != ThenThrow) {
					t.Fatalf("keep %s: advice %+v", a, adv)
				}
				for _, x := range adv {
					if x.Action.Kind == ActKeep && x.Then == "" {
						t.Fatalf("keep %s says nothing of what next", x.Action)
					}
				}
				after, _, err := g.Apply(s, a, src)
				if err != nil {
					t.Fatal(err)
				}
				if after.Turn == s.Turn && after.Phase == PhaseRoll {
					next := bot.Choose(g.View(after, after.Turn), src)
					want := map[ActionKind]string{ActStop: ThenStop, ActRoll: ThenThrow, ActRetreat: ThenThrow}[next.Kind]
					if adv[i].Then != want {
						t.Fatalf("%s %s: advice says %s, the bot then chooses %s", v.Mode, a, adv[i].Then, next)
					}
					seen[v.Mode.String()+" "+adv[i].Then]++
				}
			}
			var err error
			if s, _, err = g.Apply(s, a, src); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen["recruit stop"] < 20 || seen["recruit throw"] < 20 || seen["battle throw"] < 5 {
		t.Fatalf("too few keeps checked: %v", seen)
	}
}
