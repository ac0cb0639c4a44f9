package dragon

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// The army battle (RULES-DECISIONS.md 13-21) with scripted dice: the
// default wave of 1,200 and fire of 1,000.

func TestArmyWaveAndKeep(t *testing.T) {
	g := armyGame(t, nil)
	src := script(throwFaces("123466", blank))
	s, evs := mustApply(t, g, battleReady(6000), Battle(), src)
	if e, ok := hasEvent(evs, EvBattleStart); !ok || e.N != 6000 {
		t.Fatalf("start %+v", e)
	}
	// The wave goes before the throw.
	if e, ok := hasEvent(evs, EvWave); !ok || e.N != 1200 || e.Total != 4800 || evs[1].Kind != EvWave || evs[2].Kind != EvThrow {
		t.Fatalf("events %+v", evs)
	}
	if s.Players[0].Soldiers != 4800 || s.Meal != 1200 || s.Phase != PhaseKeep {
		t.Fatalf("soldiers %d meal %d phase %s", s.Players[0].Soldiers, s.Meal, s.Phase)
	}
	// The keep costs its soldiers as in the classic battle.
	s, evs = mustApply(t, g, s, Keep(h("1")), src)
	if e, _ := hasEvent(evs, EvKeep); g.Describe([]string{"Ann", "Bo"}, e) != "Ann keeps 1, costing 100 soldiers (4,700 left)" {
		t.Fatalf("the battle keep reads %q", g.Describe([]string{"Ann", "Bo"}, e))
	}
	if s.Players[0].Soldiers != 4700 || s.Meal != 1300 || s.Dice != 5 {
		t.Fatalf("soldiers %d meal %d dice %d", s.Players[0].Soldiers, s.Meal, s.Dice)
	}
	if legal := g.Legal(s); !slices.Equal(legal, []Action{Roll(), Retreat()}) {
		t.Fatalf("legal %v", legal)
	}
	// Retreat: the soldiers left are kept, the turn passes.
	s, evs = mustApply(t, g, s, Retreat(), src)
	if s.Players[0].Soldiers != 4700 || s.Turn != 1 || s.Mode != NoMode {
		t.Fatalf("after retreat: soldiers %d turn %d mode %s", s.Players[0].Soldiers, s.Turn, s.Mode)
	}
	if e, ok := hasEvent(evs, EvBattleEnd); !ok || e.Ending != EndRetreat || e.Total != 4700 || e.N != 0 {
		t.Fatalf("retreat events %+v", evs)
	}
}

func TestArmyWonBattle(t *testing.T) {
	g := armyGame(t, nil)
	// A Rally wounds 1; the keep is paid; the Dragon wounds 2 more and
	// wins at once: its throw's keep is not paid, but its wave is.
	src := script(throwFaces("123466", rally), throwFaces("22346", dragon))
	s, evs := mustApply(t, g, battleReady(6000), Battle(), src)
	if e, ok := hasEvent(evs, EvWound); !ok || e.N != 1 || s.Damage != 1 {
		t.Fatalf("damage %d events %+v", s.Damage, evs)
	}
	if slices.Contains(g.Legal(s), KeepRally(h("1"), Double)) {
		t.Fatal("a Rally reward offered in battle")
	}
	s, _ = mustApply(t, g, s, Keep(h("1")), src)
	s, evs = mustApply(t, g, s, Roll(), src)
	if e, ok := hasEvent(evs, EvWound); !ok || e.N != 2 || e.Total != 3 {
		t.Fatalf("events %+v", evs)
	}
	if !s.Over() || !s.Slain || !slices.Equal(s.Winners, []int{0}) {
		t.Fatalf("over %v slain %v winners %v", s.Over(), s.Slain, s.Winners)
	}
	if got, want := s.Players[0].Soldiers, 6000-1200-100-1200; got != want {
		t.Fatalf("soldiers %d, want %d", got, want)
	}
}

func TestArmyFire(t *testing.T) {
	g := armyGame(t, nil)
	farkle := "234662" // two pairs and two singles: no scoring die
	t.Run("a farkle that did not wound: fire, then six dice", func(t *testing.T) {
		s := battleReady(6000)
		src := script(throwFaces("123466", blank), throwFaces("23466", blank))
		s, _ = mustApply(t, g, s, Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src) // 4700, five dice
		s, evs := mustApply(t, g, s, Roll(), src)    // 3500, no scoring die
		e, ok := hasEvent(evs, EvFire)
		if !ok || e.N != 1000 || e.Total != 2500 {
			t.Fatalf("events %+v", evs)
		}
		if s.Players[0].Soldiers != 2500 || s.Dice != 6 || s.Kept != 0 || s.Phase != PhaseRoll || s.Mode != Battling {
			t.Fatalf("soldiers %d dice %d kept %s phase %s mode %s", s.Players[0].Soldiers, s.Dice, s.Kept, s.Phase, s.Mode)
		}
	})
	t.Run("a farkle that wounded: no fire, the same dice again", func(t *testing.T) {
		src := script(throwFaces("123466", blank), throwFaces("23466", rally))
		s, _ := mustApply(t, g, battleReady(6000), Battle(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, evs := mustApply(t, g, s, Roll(), src)
		if _, ok := hasEvent(evs, EvFire); ok {
			t.Fatalf("fire after a wounding throw: %+v", evs)
		}
		if s.Players[0].Soldiers != 3500 || s.Dice != 5 || s.Damage != 1 || s.Phase != PhaseRoll {
			t.Fatalf("soldiers %d dice %d damage %d phase %s", s.Players[0].Soldiers, s.Dice, s.Damage, s.Phase)
		}
	})
	t.Run("the Dragon face on a farkle wounds 2 and the battle goes on", func(t *testing.T) {
		src := script(throwFaces(farkle, dragon))
		s, _ := mustApply(t, g, battleReady(6000), Battle(), src)
		if s.Damage != 2 || s.Players[0].Soldiers != 4800 || s.Phase != PhaseRoll || s.Dice != 6 {
			t.Fatalf("damage %d soldiers %d phase %s", s.Damage, s.Players[0].Soldiers, s.Phase)
		}
	})
}

// TestArmyLostBattle: a battle that runs out of soldiers for the next wave
// ends by itself; the dragon heals, and the army is mostly gone.
func TestArmyLostBattle(t *testing.T) {
	g := armyGame(t, nil)
	farkle := "234662"
	src := script(throwFaces(farkle, rally), throwFaces(farkle, blank), throwFaces(farkle, blank))
	s, _ := mustApply(t, g, battleReady(5000), Battle(), src) // 3800, damage 1
	if s.Damage != 1 || s.Players[0].Soldiers != 3800 {
		t.Fatalf("damage %d soldiers %d", s.Damage, s.Players[0].Soldiers)
	}
	s, _ = mustApply(t, g, s, Roll(), src) // wave 2600, fire 1600
	if s.Players[0].Soldiers != 1600 || s.Mode != Battling || s.Phase != PhaseRoll {
		t.Fatalf("soldiers %d mode %s phase %s", s.Players[0].Soldiers, s.Mode, s.Phase)
	}
	s, evs := mustApply(t, g, s, Roll(), src) // wave 400, fire burns the 400
	if e, ok := hasEvent(evs, EvFire); !ok || e.N != 400 || e.Total != 0 {
		t.Fatalf("fire %+v", evs)
	}
	if e, ok := hasEvent(evs, EvBattleEnd); !ok || e.Ending != EndNoWave || e.N != 1 || e.Total != 0 || e.Other != 1200 {
		t.Fatalf("the battle did not end by fire with 1 damage dealt and no soldier kept: %+v", evs)
	}
	if e, _ := hasEvent(evs, EvBattleEnd); g.Describe([]string{"Ann", "Bo"}, e) != "Ann cannot send another wave of 1,200: the battle ends with 0 soldiers kept and 1 damage dealt" {
		t.Fatalf("the end reads %q", g.Describe([]string{"Ann", "Bo"}, e))
	}
	if e, ok := hasEvent(evs, EvHeal); !ok || e.N != 1 {
		t.Fatalf("heal %+v", evs)
	}
	if s.Players[0].Soldiers != 0 || s.Meal != 5000 || s.Turn != 1 || s.Damage != 0 || s.Mode != NoMode {
		t.Fatalf("soldiers %d meal %d turn %d damage %d", s.Players[0].Soldiers, s.Meal, s.Turn, s.Damage)
	}
}

// TestArmyEndsWithoutAWave: after a keep that leaves less than a wave the
// battle ends at once, the rest of the army kept.
func TestArmyEndsWithoutAWave(t *testing.T) {
	g := armyGame(t, nil)
	src := script(throwFaces("111234", blank))
	s, _ := mustApply(t, g, battleReady(5000), Battle(), src) // 3800
	s, evs := mustApply(t, g, s, Keep(h("111")), src)         // 1000 paid: 2800
	if s.Mode != Battling || s.Phase != PhaseRoll {
		t.Fatalf("mode %s phase %s: %+v", s.Mode, s.Phase, evs)
	}
	src = script(throwFaces("555", blank))
	s, _ = mustApply(t, g, s, Roll(), src) // 1600, three dice
	s, evs = mustApply(t, g, s, Keep(h("555")), src)
	if _, ok := hasEvent(evs, EvBattleEnd); !ok || s.Mode != NoMode || s.Turn != 1 {
		t.Fatalf("the battle goes on with %d soldiers: %+v", s.Players[0].Soldiers, evs)
	}
	if s.Players[0].Soldiers != 1100 {
		t.Fatalf("soldiers %d, want 1100", s.Players[0].Soldiers)
	}
}

// TestArmyCannotPay: a throw whose cheapest keep costs more than the
// soldiers left after the wave loses the battle and those soldiers.
func TestArmyCannotPay(t *testing.T) {
	r := DefaultRules()
	r.BattleWave = 4950
	g := MustGame(r, NoCards())
	s, evs := mustApply(t, g, battleReady(5000), Battle(), script(throwFaces("111234", blank)))
	e, ok := hasEvent(evs, EvBattleLost)
	if !ok || e.N != 100 || e.Total != 50 || s.Players[0].Soldiers != 0 || s.Meal != 5000 {
		t.Fatalf("soldiers %d meal %d events %+v", s.Players[0].Soldiers, s.Meal, evs)
	}
}

// TestArmyNeedsAWave: with a battle minimum below the wave, a battle still
// needs one wave.
func TestArmyNeedsAWave(t *testing.T) {
	r := DefaultRules()
	r.BattleMinimum = 0
	g := MustGame(r, NoCards())
	s := battleReady(1150)
	if slices.Contains(g.Legal(s), Battle()) {
		t.Fatal("battle legal with less than a wave")
	}
	if err := mustReject(t, g, s, Battle(), script()); !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), "1,200") {
		t.Fatalf("battle with 1150: %v", err)
	}
	if s = battleReady(1200); !slices.Contains(g.Legal(s), Battle()) {
		t.Fatal("battle not legal with a wave")
	}
}

// TestArmyDiscount: battle_discount lowers the keep, not the wave.
func TestArmyDiscount(t *testing.T) {
	g := armyGame(t, DefaultCards())
	st := withCards("hen")
	give(&st, 0, 6000)
	src := script(throwFaces("152346", blank))
	s, _ := mustApply(t, g, st, Battle(), src)
	s, _ = mustApply(t, g, s, Keep(h("15")), src)
	if got := s.Players[0].Soldiers; got != 6000-1200-100 {
		t.Fatalf("soldiers %d, want %d", got, 6000-1200-100)
	}
}

// TestSeatBonus: with seat_bonus every player after the first starts with
// that many soldiers, from the stockpile.
func TestSeatBonus(t *testing.T) {
	r := DefaultRules()
	r.SeatBonus = 300
	g := MustGame(r, NoCards())
	s, evs, err := g.New([]string{"A", "B", "C"}, dice.NewSource(dice.SeedFrom("seat")))
	if err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		seat := (s.First + k) % 3
		if want := min(k, 1) * 300; s.Players[seat].Soldiers != want {
			t.Errorf("place %d (seat %d) starts with %d", k+1, seat, s.Players[seat].Soldiers)
		}
	}
	if s.Stockpile != -600 || len(evs) != 3 || evs[0].Kind != EvStart || evs[2].Kind != EvTurn {
		t.Fatalf("stockpile %d events %+v", s.Stockpile, evs)
	}
	checkConservation(t, s)
}

// TestBattleFromFile: a rule file chooses the battle; the classic battle's
// odds are the old flat curve, the army's rise.
func TestBattleFromFile(t *testing.T) {
	r, err := ParseRules([]byte("battle = \"classic\"\n"))
	if err != nil || r.Army() {
		t.Fatalf("classic from TOML: %+v, %v", r, err)
	}
	if _, err := ParseRules([]byte("battle = \"siege\"\n")); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "battle") {
		t.Fatalf("unknown battle: %v", err)
	}
	army, err := ParseRulesJSON([]byte(`{"battle_wave": 1000, "battle_fire": 500}`))
	if err != nil || !army.Army() || army.BattleWave != 1000 || army.BattleFire != 500 {
		t.Fatalf("army from JSON: %+v, %v", army, err)
	}
	c, a := NewBattleOdds(r, 15000), NewBattleOdds(DefaultRules(), 15000)
	if d := c.Win(15000) - c.Win(7000); d > 0.01 {
		t.Errorf("classic odds rise by %.4f from 7000 to 15000 soldiers", d)
	}
	if d := a.Win(15000) - a.Win(7000); d < 0.3 {
		t.Errorf("army odds rise by only %.4f from 7000 to 15000 soldiers", d)
	}
}
