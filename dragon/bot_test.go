package dragon

import (
	"errors"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestParseLevel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Level
	}{{"random", Random}, {"bot:simple", Simple}, {" Smart ", Smart}} {
		if got, err := ParseLevel(c.in); err != nil || got != c.want {
			t.Errorf("ParseLevel(%q) = %v, %v", c.in, got, err)
		}
	}
	if _, err := ParseLevel("perfect"); !errors.Is(err, ErrPlayers) {
		t.Errorf("ParseLevel(perfect) = %v", err)
	}
}

func TestBotDecisions(t *testing.T) {
	g := testGame(t, DefaultCards())
	brains := NewBrains(g)
	smart, simple := NewBot(Smart, brains), NewBot(Simple, brains)

	t.Run("attack when allowed", func(t *testing.T) {
		ag := armyGame(t, DefaultCards())
		ab := NewBrains(ag)
		smart, simple := NewBot(Smart, ab), NewBot(Simple, ab)
		s := battleReady(5000)
		if a := simple.Choose(ag.View(s, 0), nil); a != Battle() {
			t.Errorf("simple chose %s with 5000 soldiers", a)
		}
		// Smart waits for better odds while no one else can attack...
		if a := smart.Choose(ag.View(s, 0), nil); a.Kind == ActBattle {
			t.Errorf("smart attacked with 5000 soldiers (odds %.2f) and no threat", ab.Odds().Win(5000))
		}
		// ...attacks with odds of attackOdds or more...
		s = battleReady(12000)
		if a := smart.Choose(ag.View(s, 0), nil); a != Battle() {
			t.Errorf("smart chose %s with 12000 soldiers (odds %.2f)", a, ab.Odds().Win(12000))
		}
		// ...and sooner when an opponent could attack with better odds.
		s = battleReady(6000)
		give(&s, 1, 9000)
		if a := smart.Choose(ag.View(s, 0), nil); a != Battle() {
			t.Errorf("smart chose %s with 6000 soldiers against 9000", a)
		}
		s = battleReady(4950)
		if a := smart.Choose(ag.View(s, 0), nil); a.Kind == ActBattle {
			t.Error("smart attacked with 4950 soldiers")
		}
	})
	t.Run("rally reward", func(t *testing.T) {
		// A lone 5 doubled is 100; with an item it is 50 + an item (300): item.
		s, _ := mustApply(t, g, fresh(2), Recruit(), script(throwFaces("523466", rally)))
		if a := smart.Choose(g.View(s, 0), nil); a != KeepRally(h("5"), DrawItem) {
			t.Errorf("smart chose %s for a lone 5 on a Rally", a)
		}
		if a := simple.Choose(g.View(s, 0), nil); a != KeepRally(h("5"), Double) {
			t.Errorf("simple chose %s", a)
		}
		// Three 1s doubled are 2000 against 1300: double.
		s, _ = mustApply(t, g, fresh(2), Recruit(), script(throwFaces("111234", rally)))
		if a := smart.Choose(g.View(s, 0), nil); a.Reward != Double || a.Keep.Count(1) != 3 {
			t.Errorf("smart chose %s for three 1s on a Rally", a)
		}
	})
	t.Run("when to stop", func(t *testing.T) {
		s, _ := mustApply(t, g, fresh(2), Recruit(), script(throwFaces("123456", blank)))
		s, _ = mustApply(t, g, s, Keep(h("123456")), nil) // 3000 and six dice again
		for _, c := range []struct {
			pool, dice int
			smart      Action
			simple     Action
		}{
			{0, 6, Roll(), Roll()},
			{250, 6, Roll(), Roll()},
			{300, 2, Action{}, Stop()}, // (no hand-derived answer for smart)
			// One die, 50 in the pool: even stopping after one more throw
			// is worth 16P/36 + 37.5 >= P (a Rally's item counted 300).
			{50, 1, Roll(), Roll()},
			{300, 3, Roll(), Roll()},
			{1000, 6, Roll(), Stop()}, // six fresh dice farkle 2.3% of the time
			{3000, 1, Stop(), Stop()},
			{6000, 6, Stop(), Stop()},
		} {
			st := s.Clone()
			st.Stockpile += st.Pool - c.pool
			st.Pool, st.Dice = c.pool, c.dice
			v := g.View(st, 0)
			if a := smart.Choose(v, nil); c.smart.Kind != 0 && a != c.smart {
				t.Errorf("smart with %d in the pool and %d dice: %s, want %s", c.pool, c.dice, a, c.smart)
			}
			if a := simple.Choose(v, nil); a != c.simple {
				t.Errorf("simple with %d in the pool and %d dice: %s, want %s", c.pool, c.dice, a, c.simple)
			}
		}
	})
	t.Run("battle keeps", func(t *testing.T) {
		s, _ := mustApply(t, g, battleReady(5000), Battle(), script(throwFaces("111523", blank)))
		want, _, _ := brains.Odds().Choose(5000, 0, h("111235"))
		if a := smart.Choose(g.View(s, 0), nil); a != Keep(want) {
			t.Errorf("smart kept %s, the odds say %s", a, want.Join("-"))
		}
		if a := simple.Choose(g.View(s, 0), nil); a != Keep(h("5")) {
			t.Errorf("simple kept %s, want the cheapest (5)", a)
		}
	})
	t.Run("keep the sack", func(t *testing.T) {
		s := withCards("", "sack", "horn", "map", "poster")
		s.Phase = PhaseDiscard
		if a := smart.Choose(g.View(s, 0), nil); a != Discard("horn") {
			t.Errorf("discarded %s", a)
		}
	})
	t.Run("rescue a farkle", func(t *testing.T) {
		src := script(throwFaces("123466", blank), throwFaces("22346", blank))
		s, _ := mustApply(t, g, withCards("grubb"), Recruit(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, _ = mustApply(t, g, s, Roll(), src)
		if a := smart.Choose(g.View(s, 0), nil); a != Use("grubb", 0) {
			t.Errorf("smart chose %s on a farkle it can rescue", a)
		}
	})
}

func TestBotBrawlsTheRichest(t *testing.T) {
	r := DefaultRules()
	r.BrawlBonus = 2000 // makes brawling clearly better than recruiting
	g := MustGame(r, NoCards())
	b := NewBot(Smart, NewBrains(g))
	s := fresh(3)
	give(&s, 1, 100)
	give(&s, 2, 4000)
	if a := b.Choose(g.View(s, 0), nil); a != Brawl(2) {
		t.Fatalf("chose %s, want brawl seat 2", a)
	}
	// Under the default rules recruiting is worth more than any brawl here.
	g = testGame(t, nil)
	b = NewBot(Smart, NewBrains(g))
	if a := b.Choose(g.View(s, 0), nil); a != Recruit() {
		t.Fatalf("chose %s, want recruit", a)
	}
}

func TestRandomBotIsLegal(t *testing.T) {
	g := testGame(t, DefaultCards())
	b := NewBot(Random, NewBrains(g))
	src := dice.NewSource(dice.SeedFrom("3"))
	s, _, _ := g.New([]string{"a", "b"}, src)
	for range 500 {
		if s.Over() {
			break
		}
		a := b.Choose(g.View(s, s.Turn), src)
		var err error
		if s, _, err = g.Apply(s, a, src); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSmartRaceToTheBattle(t *testing.T) {
	g := testGame(t, nil)
	smart := NewBot(Smart, NewBrains(g))
	// 300 in the pool with six dice: the plan throws on, but 4800 + 300
	// is enough to attack next turn.
	s, _ := mustApply(t, g, fresh(2), Recruit(), script(throwFaces("123456", blank)))
	s, _ = mustApply(t, g, s, Keep(h("123456")), nil)
	s.Stockpile += s.Pool - 300
	s.Pool = 300
	if a := smart.Choose(g.View(s, 0), nil); a != Roll() {
		t.Fatalf("with no soldiers: %s, want roll", a)
	}
	give(&s, 0, 4800)
	if a := smart.Choose(g.View(s, 0), nil); a != Stop() {
		t.Fatalf("with 4800 soldiers: %s, want stop", a)
	}
	// An opponent who can attack next turn is brawled.
	st := fresh(2)
	give(&st, 0, 1000)
	give(&st, 1, 5000)
	if a := smart.Choose(g.View(st, 0), nil); a != Brawl(1) {
		t.Fatalf("against 5000 soldiers: %s, want brawl", a)
	}
	give(&st, 1, 9000) // out of reach of one brawl's difference
	if a := smart.Choose(g.View(st, 0), nil); a != Recruit() {
		t.Fatalf("against 9000 soldiers: %s, want recruit", a)
	}
}
