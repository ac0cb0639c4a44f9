package dragon

import (
	"slices"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestAdvise(t *testing.T) {
	g := testGame(t, nil)
	brains := NewBrains(g)
	t.Run("choose", func(t *testing.T) {
		s := battleReady(6000)
		adv := brains.Advise(g.View(s, 0))
		if len(adv) != 3 || adv[0].Action != Recruit() || adv[1].Action != Brawl(1) || adv[2].Action != Battle() {
			t.Fatalf("advice %+v", adv)
		}
		if adv[2].Value != brains.Odds().Win(6000) || adv[2].Unit != UnitPWin {
			t.Fatalf("battle advice %+v", adv[2])
		}
	})
	t.Run("battle keeps", func(t *testing.T) {
		s, _ := mustApply(t, g, battleReady(5000), Battle(), script(throwFaces("111523", rally)))
		adv := brains.Advise(g.View(s, 0))
		best := slices.MaxFunc(adv, func(a, b Advice) int {
			switch {
			case a.Value < b.Value:
				return -1
			case a.Value > b.Value:
				return 1
			}
			return 0
		})
		k, v, _ := brains.Odds().Choose(5000, 1, h("111235"))
		if best.Value != v {
			t.Fatalf("best advice %+v, the odds choose %s worth %v", best, k.Join("-"), v)
		}
		for _, a := range adv {
			if !slices.Contains(g.Legal(s), a.Action) {
				t.Fatalf("advised %s is not legal", a.Action)
			}
		}
	})
	t.Run("stop and roll", func(t *testing.T) {
		s, _ := mustApply(t, g, fresh(2), Recruit(), script(throwFaces("123466", blank)))
		s, _ = mustApply(t, g, s, Keep(h("1")), nil)
		adv := brains.Advise(g.View(s, 0))
		if len(adv) != 2 || adv[1].Action != Stop() || adv[1].Value != 100 {
			t.Fatalf("advice %+v", adv)
		}
		// Rolling five dice with 100 in the pool is worth more than 100.
		if adv[0].Value <= 100 {
			t.Fatalf("roll advice %+v", adv[0])
		}
	})
	t.Run("not your turn", func(t *testing.T) {
		if adv := brains.Advise(g.View(fresh(2), 1)); adv != nil {
			t.Fatalf("advice for a seat not to act: %+v", adv)
		}
	})
}

// The Dragon's forced keep is the union of every scoring die: for every
// throw, the largest keep contains every other keep.
func TestLargestKeepHasAllScoringDice(t *testing.T) {
	g := testGame(t, nil)
	for _, th := range diceAllThrows() {
		ks := g.table.Keeps(th)
		if len(ks) == 0 {
			continue
		}
		all := g.allScoring(th)
		for _, k := range ks {
			if !all.Hand.Contains(k.Hand) {
				t.Fatalf("throw %s: the largest keep %s misses %s", th, all.Hand, k.Hand)
			}
		}
	}
}

// The Smart bot's keeps and stops are the best-valued advice, over many
// positions from real games (without cards, which neither counts).
func TestAdviceAgreesWithSmartBot(t *testing.T) {
	g := testGame(t, nil)
	brains := NewBrains(g)
	bot := NewBot(Smart, brains)
	checked := map[Mode]int{}
	for game := range 30 {
		src := dice.NewSource(GameSeed(dice.SeedFrom("advice"), game))
		s, _, _ := g.New([]string{"a", "b", "c"}, src)
		for !s.Over() && s.Round < 80 {
			v := g.View(s, s.Turn)
			a := bot.Choose(v, src)
			have := v.Players[v.Seat].Soldiers
			reaches := have < 5000 && have+v.Pool >= 5000 // the bot banks then, whatever the plan says
			if (v.Phase == PhaseKeep || v.Phase == PhaseRoll) && (a.Kind == ActKeep || a.Kind == ActRoll || a.Kind == ActStop) && !reaches {
				adv := brains.Advise(v)
				best := adv[0].Value
				var mine float64
				for _, x := range adv {
					best = max(best, x.Value)
					if x.Action == a {
						mine = x.Value
					}
				}
				if mine < best-1e-9 {
					t.Fatalf("%s %s: bot chose %s worth %v, best advice %v: %+v", v.Mode, v.Phase, a, mine, best, adv)
				}
				checked[v.Mode]++
			}
			var err error
			if s, _, err = g.Apply(s, a, src); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked[Recruiting] < 100 || checked[Battling] < 10 {
		t.Fatalf("too few positions checked: %v", checked)
	}
}

func TestPlayGameCap(t *testing.T) {
	g := testGame(t, nil)
	brains := NewBrains(g)
	bots := []*Bot{NewBot(Random, brains), NewBot(Random, brains)}
	s, _, capped, err := playGame(g, []string{"a", "b"}, bots, dice.SeedFrom("cap"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !capped || !s.Over() || s.Round != 3 {
		t.Fatalf("capped %v over %v round %d", capped, s.Over(), s.Round)
	}
	best := max(s.Players[0].Soldiers, s.Players[1].Soldiers)
	for _, w := range s.Winners {
		if s.Players[w].Soldiers != best {
			t.Fatalf("winner %d has %d of %d", w, s.Players[w].Soldiers, best)
		}
	}
	if _, _, _, err := playGame(g, []string{"solo"}, bots[:1], dice.SeedFrom("x"), 0); err == nil {
		t.Fatal("a one-player game was played")
	}
	if _, _, _, err := playGame(g, []string{"a", "b", "c"}, bots, dice.SeedFrom("x"), 0); err == nil {
		t.Fatal("two bots played three seats")
	}
}

func TestActionString(t *testing.T) {
	for a, want := range map[Action]string{
		Recruit(): "recruit", Brawl(2): "brawl seat 2", Battle(): "battle", Keep(h("115")): "keep 1 1 5",
		KeepRally(h("1"), DrawItem): "keep 1 (item)", Use("pip", 3): "use pip on a 3", Use("socks", 0): "use socks",
		Accept(): "accept", Roll(): "roll", Stop(): "stop", Retreat(): "retreat", Discard("map"): "discard map",
	} {
		if got := a.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", a, got, want)
		}
	}
}
