package dragon

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// battleReady is a 2-player state where seat 0 has soldiers.
func battleReady(soldiers int) State {
	s := fresh(2)
	give(&s, 0, soldiers)
	return s
}

func TestBattleMinimum(t *testing.T) {
	g := testGame(t, nil)
	s := battleReady(4950)
	if slices.Contains(g.Legal(s), Battle()) {
		t.Fatal("battle legal with 4950 soldiers")
	}
	err := mustReject(t, g, s, Battle(), dice.Faces())
	if !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), "5,000") {
		t.Fatalf("battle with 4950: %v", err)
	}
	s = battleReady(5000)
	if !slices.Contains(g.Legal(s), Battle()) {
		t.Fatal("battle not legal with 5000 soldiers")
	}
}

func TestBattleEvents(t *testing.T) {
	g := testGame(t, nil)
	t.Run("blank: keeps cost soldiers", func(t *testing.T) {
		src := script(throwFaces("123466", blank))
		s, evs := mustApply(t, g, battleReady(5000), Battle(), src)
		if _, ok := hasEvent(evs, EvBattleStart); !ok || s.Mode != Battling || s.Damage != 0 {
			t.Fatalf("mode %s damage %d events %+v", s.Mode, s.Damage, evs)
		}
		s, evs = mustApply(t, g, s, Keep(h("1")), src)
		if s.Players[0].Soldiers != 4900 || s.Meal != 100 || s.Dice != 5 {
			t.Fatalf("soldiers %d meal %d dice %d", s.Players[0].Soldiers, s.Meal, s.Dice)
		}
		if e, _ := hasEvent(evs, EvKeep); e.N != 100 {
			t.Fatalf("keep event %+v", e)
		}
		if legal := g.Legal(s); !slices.Equal(legal, []Action{Roll(), Retreat()}) {
			t.Fatalf("legal between battle throws = %v", legal)
		}
		if err := mustReject(t, g, s, Stop(), src); !strings.Contains(err.Error(), "retreat") {
			t.Fatalf("stop in battle: %v", err)
		}
	})
	t.Run("rally wounds 1", func(t *testing.T) {
		src := script(throwFaces("123466", rally))
		s, evs := mustApply(t, g, battleReady(5000), Battle(), src)
		if e, ok := hasEvent(evs, EvWound); !ok || e.N != 1 || s.Damage != 1 {
			t.Fatalf("damage %d events %+v", s.Damage, evs)
		}
		// no reward in battle
		if slices.Contains(g.Legal(s), KeepRally(h("1"), Double)) {
			t.Fatal("a Rally reward offered in battle")
		}
	})
	t.Run("dragon wounds 2", func(t *testing.T) {
		src := script(throwFaces("123466", dragon))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		if s.Damage != 2 {
			t.Fatalf("damage %d", s.Damage)
		}
		// The Dragon does not force keeping every scoring die in battle.
		if !slices.Contains(g.Legal(s), Keep(h("1"))) {
			t.Fatal("keep 1 not legal under the Dragon in battle")
		}
	})
	t.Run("third damage wins at once", func(t *testing.T) {
		src := script(throwFaces("123466", rally), throwFaces("22346", dragon))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, evs := mustApply(t, g, s, Roll(), src)
		if !s.Over() || !slices.Equal(s.Winners, []int{0}) || !s.Slain || s.Damage != 3 {
			t.Fatalf("over %v winners %v slain %v damage %d", s.Over(), s.Winners, s.Slain, s.Damage)
		}
		if e, ok := hasEvent(evs, EvWin); !ok || e.Seat != 0 || !e.Slain {
			t.Fatalf("events %+v", evs)
		}
		if s.Players[0].Soldiers != 4900 {
			t.Fatalf("the winning throw cost soldiers: %d", s.Players[0].Soldiers)
		}
		if g.Legal(s) != nil {
			t.Fatal("legal actions after the game")
		}
		if err := mustReject(t, g, s, Recruit(), src); !errors.Is(err, ErrGameOver) {
			t.Fatalf("action after the end: %v", err)
		}
	})
	t.Run("farkle without wound ends the battle", func(t *testing.T) {
		src := script(throwFaces("123466", rally), throwFaces("22346", blank))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, evs := mustApply(t, g, s, Roll(), src)
		if _, ok := hasEvent(evs, EvBattleEnd); !ok || s.Turn != 1 || s.Damage != 0 || s.Players[0].Soldiers != 4900 {
			t.Fatalf("turn %d damage %d soldiers %d events %+v", s.Turn, s.Damage, s.Players[0].Soldiers, evs)
		}
		if e, ok := hasEvent(evs, EvHeal); !ok || e.N != 1 {
			t.Fatalf("no heal event: %+v", evs)
		}
	})
	t.Run("farkle with wound goes on", func(t *testing.T) {
		src := script(throwFaces("223466", rally), throwFaces("123466", blank))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		if s.Phase != PhaseRoll || s.Dice != 6 || s.Damage != 1 {
			t.Fatalf("phase %s dice %d damage %d", s.Phase, s.Dice, s.Damage)
		}
		s, _ = mustApply(t, g, s, Roll(), src)
		if s.Throw != h("123466") || s.Phase != PhaseKeep {
			t.Fatalf("throw %s phase %s", s.Throw, s.Phase)
		}
	})
	t.Run("retreat heals", func(t *testing.T) {
		src := script(throwFaces("123466", dragon))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, evs := mustApply(t, g, s, Retreat(), src)
		if e, ok := hasEvent(evs, EvHeal); !ok || e.N != 2 || s.Damage != 0 || s.Turn != 1 || s.Players[0].Soldiers != 4900 {
			t.Fatalf("damage %d turn %d soldiers %d events %+v", s.Damage, s.Turn, s.Players[0].Soldiers, evs)
		}
	})
	t.Run("cannot pay: battle lost", func(t *testing.T) {
		src := script(throwFaces("111111", blank), throwFaces("223344", blank), throwFaces("666234", blank))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("111111")), src) // 2500, hot dice
		s, _ = mustApply(t, g, s, Roll(), src)
		s, _ = mustApply(t, g, s, Keep(h("223344")), src) // 2000, hot dice
		if s.Players[0].Soldiers != 500 {
			t.Fatalf("soldiers %d, want 500", s.Players[0].Soldiers)
		}
		s, evs := mustApply(t, g, s, Roll(), src) // only 6-6-6 scores: 600 > 500
		e, ok := hasEvent(evs, EvBattleLost)
		if !ok || e.N != 600 || e.Total != 500 {
			t.Fatalf("events %+v", evs)
		}
		if s.Players[0].Soldiers != 0 || s.Meal != 5000 || s.Turn != 1 || s.Damage != 0 {
			t.Fatalf("soldiers %d meal %d turn %d", s.Players[0].Soldiers, s.Meal, s.Turn)
		}
	})
	t.Run("only affordable keeps are legal", func(t *testing.T) {
		src := script(throwFaces("111111", blank), throwFaces("223344", blank), throwFaces("555234", blank))
		s, _ := mustApply(t, g, battleReady(5000), Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("111111")), src)
		s, _ = mustApply(t, g, s, Roll(), src)
		s, _ = mustApply(t, g, s, Keep(h("223344")), src)
		s, _ = mustApply(t, g, s, Roll(), src) // 5-5-5 = 500 affordable, single 5s too
		if legal := g.Legal(s); !slices.Equal(legal, []Action{Keep(h("5")), Keep(h("55")), Keep(h("555"))}) {
			t.Fatalf("legal = %v", legal)
		}
	})
}

func TestHealingBetweenBattles(t *testing.T) {
	g := testGame(t, nil)
	s := battleReady(5100)
	src := script(throwFaces("123466", rally), throwFaces("22346", blank), // seat 0: wound 1, then the battle ends
		throwFaces("223466", blank), // seat 1 recruits and farkles
		throwFaces("123466", rally)) // seat 0 again: one Rally is 1 damage, not 2
	s, _ = mustApply(t, g, s, Battle(), src)
	s, _ = mustApply(t, g, s, Keep(h("1")), src)
	s, _ = mustApply(t, g, s, Roll(), src)
	if s.Damage != 0 {
		t.Fatalf("damage %d after the battle", s.Damage)
	}
	s, _ = mustApply(t, g, s, Recruit(), src)
	if s.Turn != 0 {
		t.Fatalf("turn %d", s.Turn)
	}
	s, _ = mustApply(t, g, s, Battle(), src)
	if s.Damage != 1 || s.Over() {
		t.Fatalf("damage %d in the second battle, want 1", s.Damage)
	}
}
