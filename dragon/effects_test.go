package dragon

import (
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// withCards is a 2-player state where seat 0 has the companion and items.
func withCards(companion string, items ...string) State {
	s := fresh(2)
	s.Players[0].Companion = companion
	s.Players[0].Items = append([]string{}, items...)
	return s
}

func TestRethrow(t *testing.T) {
	g := testGame(t, DefaultCards())
	t.Run("companion once per turn", func(t *testing.T) {
		src := script(throwFaces("223466", blank)) // a farkle
		s, _ := mustApply(t, g, withCards("pip"), Recruit(), src)
		if s.Phase != PhaseKeep {
			t.Fatalf("a farkle with a usable card must wait: phase %s", s.Phase)
		}
		want := []Action{Use("pip", 2), Use("pip", 3), Use("pip", 4), Use("pip", 6), Accept()}
		if legal := g.Legal(s); !slices.Equal(legal, want) {
			t.Fatalf("legal = %v, want %v", legal, want)
		}
		if err := mustReject(t, g, s, Use("pip", 5), src); !strings.Contains(err.Error(), "face") {
			t.Fatalf("rethrow a 5 that is not there: %v", err)
		}
		mustReject(t, g, s, Keep(h("2")), src)
		src.Then(1) // the new die
		s, evs := mustApply(t, g, s, Use("pip", 2), src)
		if s.Throw != h("123466") || s.Phase != PhaseKeep || !slices.Equal(s.Used, []string{"pip"}) {
			t.Fatalf("throw %s phase %s used %v", s.Throw, s.Phase, s.Used)
		}
		if _, ok := hasEvent(evs, EvCardChanged); !ok {
			t.Fatalf("events %+v", evs)
		}
		if err := mustReject(t, g, s, Use("pip", 2), src); !strings.Contains(err.Error(), "already used") {
			t.Fatalf("second use: %v", err)
		}
		// The companion is ready again next turn.
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, _ = mustApply(t, g, s, Stop(), src)
		if len(s.Used) != 0 {
			t.Fatalf("used %v after the turn", s.Used)
		}
	})
	t.Run("item is used up", func(t *testing.T) {
		src := script(throwFaces("123466", blank), []int{4})
		s, _ := mustApply(t, g, withCards("", "horseshoe"), Recruit(), src)
		s, _ = mustApply(t, g, s, Use("horseshoe", 6), src) // 6 -> 4
		if s.Throw != h("123446") || len(s.Players[0].Items) != 0 || !slices.Equal(s.ItemDiscard, []string{"horseshoe"}) {
			t.Fatalf("throw %s items %v discard %v", s.Throw, s.Players[0].Items, s.ItemDiscard)
		}
	})
	t.Run("accept the farkle instead", func(t *testing.T) {
		src := script(throwFaces("223466", blank))
		s, _ := mustApply(t, g, withCards("pip"), Recruit(), src)
		s, evs := mustApply(t, g, s, Accept(), src)
		if _, ok := hasEvent(evs, EvFarkle); !ok || s.Turn != 1 {
			t.Fatalf("events %+v", evs)
		}
	})
	t.Run("accept is illegal with a keep", func(t *testing.T) {
		src := script(throwFaces("123466", blank))
		s, _ := mustApply(t, g, withCards("pip"), Recruit(), src)
		mustReject(t, g, s, Accept(), src)
	})
	t.Run("in battle, the event die stays", func(t *testing.T) {
		src := script(throwFaces("223466", rally), []int{5})
		st := withCards("pip")
		give(&st, 0, 5000)
		s, _ := mustApply(t, g, st, Battle(), src)
		if s.Phase != PhaseRoll { // wounded farkle: roll on; no card needed
			t.Fatalf("phase %s", s.Phase)
		}
		src = script(throwFaces("123466", blank), []int{5})
		s, _ = mustApply(t, g, st, Battle(), src)
		s, _ = mustApply(t, g, s, Use("pip", 6), src)
		if s.Throw != h("123456") || s.Damage != 0 || s.Event != Blank {
			t.Fatalf("throw %s damage %d", s.Throw, s.Damage)
		}
	})
}

func TestTwoAsFive(t *testing.T) {
	g := testGame(t, DefaultCards())
	src := script(throwFaces("223466", blank))
	s, _ := mustApply(t, g, withCards("grubb"), Recruit(), src)
	if !slices.Contains(g.Legal(s), Use("grubb", 0)) {
		t.Fatalf("legal %v", g.Legal(s))
	}
	s, _ = mustApply(t, g, s, Use("grubb", 0), src)
	if s.Throw != h("234566") {
		t.Fatalf("throw %s", s.Throw)
	}
	s, _ = mustApply(t, g, s, Keep(h("5")), src)
	if s.Pool != 50 {
		t.Fatalf("pool %d", s.Pool)
	}
	// Without a 2 it cannot be used.
	src = script(throwFaces("133466", blank))
	s, _ = mustApply(t, g, withCards("grubb"), Recruit(), src)
	if err := mustReject(t, g, s, Use("grubb", 0), src); !strings.Contains(err.Error(), "no 2") {
		t.Fatalf("two_as_five without a 2: %v", err)
	}
}

func TestIgnoreDragon(t *testing.T) {
	g := testGame(t, DefaultCards())
	src := script(throwFaces("115234", dragon))
	s, _ := mustApply(t, g, withCards("marta"), Recruit(), src)
	s, _ = mustApply(t, g, s, Use("marta", 0), src)
	if s.Event != Blank {
		t.Fatalf("event %s", s.Event)
	}
	s, _ = mustApply(t, g, s, Keep(h("1")), src) // a partial keep is allowed again
	if s.Pool != 100 || s.Eaten != 0 {
		t.Fatalf("pool %d eaten %d", s.Pool, s.Eaten)
	}
	// Not on a Blank, not in battle.
	src = script(throwFaces("115234", blank))
	s, _ = mustApply(t, g, withCards("marta"), Recruit(), src)
	mustReject(t, g, s, Use("marta", 0), src)
	st := withCards("marta")
	give(&st, 0, 5000)
	src = script(throwFaces("115234", dragon))
	s, _ = mustApply(t, g, st, Battle(), src)
	mustReject(t, g, s, Use("marta", 0), src)
}

func TestRerollFarkle(t *testing.T) {
	g := testGame(t, DefaultCards())
	src := script(throwFaces("123466", blank), throwFaces("22346", blank), throwFaces("15234", blank))
	s, _ := mustApply(t, g, withCards("", "feather"), Recruit(), src)
	mustReject(t, g, s, Use("feather", 0), src) // not a farkle
	s, _ = mustApply(t, g, s, Keep(h("1")), src)
	s, _ = mustApply(t, g, s, Roll(), src) // farkle
	if s.Phase != PhaseKeep || s.Pool != 100 {
		t.Fatalf("phase %s pool %d", s.Phase, s.Pool)
	}
	s, _ = mustApply(t, g, s, Use("feather", 0), src)
	if s.Throw != h("12345") || s.Pool != 100 || len(s.Players[0].Items) != 0 {
		t.Fatalf("throw %s pool %d items %v", s.Throw, s.Pool, s.Players[0].Items)
	}
}

func TestMeldBonus(t *testing.T) {
	g := testGame(t, DefaultCards())
	cases := []struct {
		name, companion, item string
		throw                 string
		event                 int
		keep                  string
		reward                Reward
		pool, eaten           int
	}{
		{"fennel on a triple", "fennel", "", "222346", blank, "222", NoReward, 300, 0},
		{"fennel on four of a kind", "fennel", "", "333346", blank, "3333", NoReward, 1600, 0},
		{"fennel not on a single", "fennel", "", "123466", blank, "1", NoReward, 100, 0},
		{"poster on singles", "", "poster", "152346", blank, "15", NoReward, 250, 0},
		{"poster and fennel", "fennel", "poster", "111523", blank, "1115", NoReward, 1200, 0},
		{"quill on a straight", "quill", "", "123456", blank, "123456", NoReward, 3300, 0},
		{"quill on three pairs", "quill", "", "224466", blank, "224466", NoReward, 2300, 0},
		{"banner doubled by a rally", "", "banner", "444236", rally, "444", Double, 1200, 0},
		{"eaten with its bonus", "fennel", "", "444236", dragon, "444", NoReward, 0, 500},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var items []string
			if c.item != "" {
				items = []string{c.item}
			}
			src := script(throwFaces(c.throw, c.event))
			s, _ := mustApply(t, g, withCards(c.companion, items...), Recruit(), src)
			// The preview a front end shows is what the keep then adds.
			var preview *KeepValue
			for _, kv := range g.View(s, 0).KeepValues {
				if kv.Dice == h(c.keep) && kv.Reward == c.reward {
					preview = &kv
				}
			}
			if preview == nil || preview.Soldiers != c.pool || preview.Eaten != c.eaten {
				t.Fatalf("the view's value of keep %s (%s): %+v, want %d soldiers, %d eaten", c.keep, c.reward, preview, c.pool, c.eaten)
			}
			s, _ = mustApply(t, g, s, Action{Kind: ActKeep, Keep: h(c.keep), Reward: c.reward}, src)
			if s.Pool != c.pool || s.Eaten != c.eaten {
				t.Fatalf("pool %d eaten %d, want %d and %d", s.Pool, s.Eaten, c.pool, c.eaten)
			}
		})
	}
}

func TestRallyDamage(t *testing.T) {
	g := testGame(t, DefaultCards())
	for _, c := range []struct {
		companion, item string
		want            int
	}{{"", "", 1}, {"hask", "", 2}, {"", "horn", 2}, {"hask", "horn", 3}} {
		st := withCards(c.companion)
		if c.item != "" {
			st.Players[0].Items = []string{c.item}
		}
		give(&st, 0, 5000)
		src := script(throwFaces("123466", rally))
		s, _ := mustApply(t, g, st, Battle(), src)
		if s.Damage != c.want {
			t.Errorf("%s %s: damage %d, want %d", c.companion, c.item, s.Damage, c.want)
		}
		if c.want >= 3 && !s.Over() {
			t.Errorf("three damage did not win")
		}
	}
}

func TestExtraItem(t *testing.T) {
	g := testGame(t, DefaultCards())
	st := withCards("bellow", "map")
	st.ItemDeck = []string{"horn", "socks", "spoon"}
	src := script(throwFaces("146236", rally))
	s, _ := mustApply(t, g, st, Recruit(), src)
	s, _ = mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
	if !slices.Equal(s.Drawn, []string{"spoon", "socks", "horn"}) {
		t.Fatalf("drawn %v, want three items (one + bard + map)", s.Drawn)
	}
}

func TestBattleDiscount(t *testing.T) {
	g := testGame(t, DefaultCards())
	src := script(throwFaces("152346", blank))
	st := withCards("hen")
	give(&st, 0, 5000)
	s, _ := mustApply(t, g, st, Battle(), src)
	if kv := g.ValueKeep(s, h("15"), NoReward); kv.Cost != 100 || kv.Discount != 50 || kv.Soldiers != 0 {
		t.Fatalf("the value of 1-5 in battle with a 50 discount: %+v", kv)
	}
	n, _ := mustApply(t, g, s, Keep(h("5")), src)
	if n.Players[0].Soldiers != 5000 {
		t.Fatalf("a 5 cost %d with a 50 discount", 5000-n.Players[0].Soldiers)
	}
	n, _ = mustApply(t, g, s, Keep(h("15")), src)
	if n.Players[0].Soldiers != 4900 || n.Meal != 100 {
		t.Fatalf("1-5 cost %d, want 100", 5000-n.Players[0].Soldiers)
	}
	// The spoon makes a 600 keep affordable with 500 soldiers.
	src = script(throwFaces("111111", blank), throwFaces("223344", blank), throwFaces("666234", blank))
	st = withCards("", "spoon")
	give(&st, 0, 5200)
	s, _ = mustApply(t, g, st, Battle(), src)
	s, _ = mustApply(t, g, s, Keep(h("111111")), src) // 2400
	s, _ = mustApply(t, g, s, Roll(), src)
	s, _ = mustApply(t, g, s, Keep(h("223344")), src) // 1900
	if s.Players[0].Soldiers != 900 {
		t.Fatalf("soldiers %d, want 900", s.Players[0].Soldiers)
	}
	s, _ = mustApply(t, g, s, Roll(), src)
	if legal := g.Legal(s); !slices.Equal(legal, []Action{Keep(h("666"))}) {
		t.Fatalf("legal %v", legal)
	}
}

func TestItemLimit(t *testing.T) {
	g := testGame(t, DefaultCards())
	rallyItem := func(t *testing.T, st State) State {
		src := script(throwFaces("146236", rally))
		s, _ := mustApply(t, g, st, Recruit(), src)
		s, _ = mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
		s, _ = mustApply(t, g, s, Stop(), src)
		return s
	}
	t.Run("discard down to one", func(t *testing.T) {
		st := withCards("", "horn")
		st.ItemDeck = []string{"map"}
		s := rallyItem(t, st)
		if s.Phase != PhaseDiscard || s.Turn != 0 {
			t.Fatalf("phase %s turn %d", s.Phase, s.Turn)
		}
		if legal := g.Legal(s); !slices.Equal(legal, []Action{Discard("horn"), Discard("map")}) {
			t.Fatalf("legal %v", legal)
		}
		mustReject(t, g, s, Roll(), dice.Faces())
		if err := mustReject(t, g, s, Discard("sack"), dice.Faces()); !strings.Contains(err.Error(), "do not hold") {
			t.Fatalf("discard a card not held: %v", err)
		}
		s, evs := mustApply(t, g, s, Discard("horn"), dice.Faces())
		if s.Turn != 1 || s.Phase != PhaseChoose || !slices.Equal(s.Players[0].Items, []string{"map"}) || !slices.Equal(s.ItemDiscard, []string{"horn"}) {
			t.Fatalf("turn %d items %v discard %v", s.Turn, s.Players[0].Items, s.ItemDiscard)
		}
		if _, ok := hasEvent(evs, EvTurn); !ok {
			t.Fatalf("events %+v", evs)
		}
	})
	t.Run("sack holds two more", func(t *testing.T) {
		st := withCards("", "sack", "horn")
		st.ItemDeck = []string{"map"}
		s := rallyItem(t, st)
		if s.Phase != PhaseChoose || s.Turn != 1 || len(s.Players[0].Items) != 3 {
			t.Fatalf("phase %s items %v", s.Phase, s.Players[0].Items)
		}
		if g.ItemLimit(s, 0) != 3 || g.ItemLimit(s, 1) != 1 {
			t.Fatalf("limits %d %d", g.ItemLimit(s, 0), g.ItemLimit(s, 1))
		}
	})
	t.Run("sack over its limit, then discarded", func(t *testing.T) {
		st := withCards("", "sack", "horn", "map")
		st.ItemDeck = []string{"banner"}
		s := rallyItem(t, st)
		if s.Phase != PhaseDiscard {
			t.Fatalf("phase %s with four items", s.Phase)
		}
		s, _ = mustApply(t, g, s, Discard("sack"), dice.Faces())
		if s.Phase != PhaseDiscard { // three items, limit 1 now
			t.Fatalf("phase %s after discarding the sack", s.Phase)
		}
		s, _ = mustApply(t, g, s, Discard("horn"), dice.Faces())
		s, _ = mustApply(t, g, s, Discard("map"), dice.Faces())
		if s.Phase != PhaseChoose || !slices.Equal(s.Players[0].Items, []string{"banner"}) {
			t.Fatalf("phase %s items %v", s.Phase, s.Players[0].Items)
		}
	})
	t.Run("the limit applies after a brawl too", func(t *testing.T) {
		st := withCards("", "horn", "map")
		s, _ := mustApply(t, g, st, Brawl(1), script(throwFaces("223466", blank), throwFaces("22346", blank)))
		if s.Phase != PhaseDiscard {
			t.Fatalf("phase %s", s.Phase)
		}
	})
}

func TestRoundLimit(t *testing.T) {
	r := DefaultRules()
	r.RoundLimit = 2
	g := MustGame(r, NoCards())
	s := fresh(2)
	s.First, s.Turn = 1, 1
	src := script(throwFaces("123466", blank), throwFaces("223466", blank), // seat 1 banks 100, seat 0 farkles
		throwFaces("223466", blank)) // seat 1 farkles
	s, _ = mustApply(t, g, s, Recruit(), src)
	s, _ = mustApply(t, g, s, Keep(h("1")), src)
	s, _ = mustApply(t, g, s, Stop(), src)
	s, _ = mustApply(t, g, s, Recruit(), src)
	if s.Round != 2 || s.Turn != 1 || s.Over() {
		t.Fatalf("round %d turn %d over %v", s.Round, s.Turn, s.Over())
	}
	give(&s, 0, 300)
	s, _ = mustApply(t, g, s, Recruit(), src)
	if s.Over() {
		t.Fatal("over before seat 0 played round 2")
	}
	src.Then(throwFaces("223466", blank)...)
	end, evs := mustApply(t, g, s, Recruit(), src)
	if !end.Over() || !slices.Equal(end.Winners, []int{0}) || end.Slain {
		t.Fatalf("over %v winners %v slain %v", end.Over(), end.Winners, end.Slain)
	}
	if e, ok := hasEvent(evs, EvWin); !ok || e.Seat != 0 || e.Slain {
		t.Fatalf("events %+v", evs)
	}
	// A tie shares the win.
	tie := s.Clone()
	give(&tie, 0, 100)
	end, _ = mustApply(t, g, tie, Recruit(), script(throwFaces("223466", blank)))
	if !slices.Equal(end.Winners, []int{0, 1}) {
		t.Fatalf("winners %v, want both", end.Winners)
	}
}
