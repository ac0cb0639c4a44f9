package dragon

import (
	"slices"
	"testing"
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
