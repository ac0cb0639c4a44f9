package dragon

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// anytimeGame is the default rules (card_timing "anytime", hiring) with
// the default cards.
func anytimeGame(t testing.TB) *Game {
	t.Helper()
	return MustGame(DefaultRules(), DefaultCards())
}

// brawlers is a two-player state at the start of seat 0's turn: seat 0
// (the challenger) and seat 1 (the defender) hold the given items, no
// Companions, and 2,000 soldiers each.
func brawlers(mine, theirs []string) State {
	s := fresh(2)
	give(&s, 0, 2000)
	give(&s, 1, 2000)
	s.Players[0].Items = append([]string{}, mine...)
	s.Players[1].Items = append([]string{}, theirs...)
	return s
}

// TestBrawlDefenderUsesItem: the defender's Lucky Horseshoe turns their
// farkle into a win, on the challenger's turn; the game waits for the
// defender, who alone may act.
func TestBrawlDefenderUsesItem(t *testing.T) {
	g := anytimeGame(t)
	src := script(throwFaces("523466", blank), throwFaces("22346", blank)) // 50 against a farkle
	s, evs := mustApply(t, g, brawlers(nil, []string{"horseshoe"}), Brawl(1), src)
	if s.Phase != PhaseBrawl || s.ToAct() != 1 || s.Turn != 0 || !s.Brawl.Defending || s.Brawl.Score != 50 {
		t.Fatalf("phase %s, to act %d, turn %d, brawl %+v", s.Phase, s.ToAct(), s.Turn, s.Brawl)
	}
	if _, ok := hasEvent(evs, EvBrawl); ok {
		t.Fatal("the brawl was resolved before the defender could use the card")
	}
	want := []Action{Use("horseshoe", 2), Use("horseshoe", 3), Use("horseshoe", 4), Use("horseshoe", 6), Pass()}
	if legal := g.LegalFor(s, 1); !slices.Equal(legal, want) {
		t.Fatalf("defender's legal = %v, want %v", legal, want)
	}
	if legal := g.LegalFor(s, 0); len(legal) != 0 {
		t.Fatalf("the challenger may act while the defender decides: %v", legal)
	}
	if err := g.Check(s, 0, Pass()); !errors.Is(err, ErrNotTurn) || !strings.Contains(err.Error(), "defending") {
		t.Fatalf("the challenger passes for the defender: %v", err)
	}
	v := g.View(s, 1)
	if v.ToAct != 1 || len(v.Legal) != len(want) || !v.Players[1].Items[0].Usable || v.BrawlScore != 0 {
		t.Fatalf("defender's view: to act %d, legal %v, items %+v, score %d", v.ToAct, v.Legal, v.Players[1].Items, v.BrawlScore)
	}
	if v0 := g.View(s, 0); len(v0.Legal) != 0 || v0.ToAct != 1 {
		t.Fatalf("challenger's view: to act %d, legal %v", v0.ToAct, v0.Legal)
	}
	src.Then(1) // the 6 thrown again shows a 1: 1-2-2-3-4 scores 100
	n, evs, err := g.ApplyFor(s, 1, Use("horseshoe", 6), src)
	if err != nil {
		t.Fatal(err)
	}
	checkConservation(t, n)
	if e, ok := hasEvent(evs, EvCardChanged); !ok || e.Seat != 1 || e.N != 100 || e.Dice != h("12234") {
		t.Fatalf("card change %+v", e)
	}
	e, ok := hasEvent(evs, EvBrawl)
	if !ok || e.Winner != 1 || e.N != 50 || e.Other != 100 || e.Total != 50 || e.Bonus != 500 {
		t.Fatalf("brawl %+v", e)
	}
	if n.Players[0].Soldiers != 1950 || n.Players[1].Soldiers != 2550 || len(n.Players[1].Items) != 0 || !slices.Equal(n.ItemDiscard, []string{"horseshoe"}) {
		t.Fatalf("soldiers %d, %d; items %v; discard %v", n.Players[0].Soldiers, n.Players[1].Soldiers, n.Players[1].Items, n.ItemDiscard)
	}
	if n.Turn != 1 || n.Phase != PhaseChoose || n.Brawl != nil || n.Mode != NoMode || src.Left() != 0 {
		t.Fatalf("after the brawl: turn %d phase %s brawl %+v mode %s, %d dice left", n.Turn, n.Phase, n.Brawl, n.Mode, src.Left())
	}
}

// TestBrawlChallengerPasses: the challenger may keep their card for later
// (Pass), then the defender throws; neither side waits without a card.
func TestBrawlChallengerPasses(t *testing.T) {
	g := anytimeGame(t)
	src := script(throwFaces("122346", blank)) // 100, and a 2 the Knucklebone could turn
	s, _ := mustApply(t, g, brawlers([]string{"loaded-bone"}, nil), Brawl(1), src)
	if s.Phase != PhaseBrawl || s.ToAct() != 0 || s.Brawl.Defending {
		t.Fatalf("phase %s to act %d brawl %+v", s.Phase, s.ToAct(), s.Brawl)
	}
	if legal := g.Legal(s); !slices.Equal(legal, []Action{Use("loaded-bone", 0), Pass()}) {
		t.Fatalf("legal %v", legal)
	}
	src.Then(throwFaces("11234", blank)...) // the defender: 200
	s, evs := mustApply(t, g, s, Pass(), src)
	if e, ok := hasEvent(evs, EvPass); !ok || e.Seat != 0 || e.N != 100 {
		t.Fatalf("pass %+v", e)
	}
	if e, ok := hasEvent(evs, EvBrawl); !ok || e.Winner != 1 || e.Total != 100 {
		t.Fatalf("brawl %+v", e)
	}
	if !slices.Equal(s.Players[0].Items, []string{"loaded-bone"}) || s.Turn != 1 {
		t.Fatalf("items %v turn %d", s.Players[0].Items, s.Turn)
	}
}

// TestBrawlCards: each active primitive on a brawl throw, and the cards
// whose text keeps them out of a brawl.
func TestBrawlCards(t *testing.T) {
	g := anytimeGame(t)
	t.Run("socks ignore the Dragon", func(t *testing.T) {
		src := script(throwFaces("111234", dragon)) // 0 under the Dragon
		s, _ := mustApply(t, g, brawlers([]string{"socks"}, nil), Brawl(1), src)
		src.Then(throwFaces("52346", blank)...)
		_, evs := mustApply(t, g, s, Use("socks", 0), src)
		if e, ok := hasEvent(evs, EvCardChanged); !ok || e.Face != Blank || e.N != 1000 {
			t.Fatalf("card change %+v", e)
		}
		if e, ok := hasEvent(evs, EvBrawl); !ok || e.N != 1000 || e.Other != 50 || e.Winner != 0 {
			t.Fatalf("brawl %+v", e)
		}
	})
	t.Run("potion throws a farkle again", func(t *testing.T) {
		src := script(throwFaces("523466", blank), throwFaces("22346", blank))
		s, _ := mustApply(t, g, brawlers(nil, []string{"potion"}), Brawl(1), src)
		if g.Legal(s)[0] != Use("potion", 0) || s.ToAct() != 1 {
			t.Fatalf("legal %v to act %d", g.Legal(s), s.ToAct())
		}
		src.Then(throwFaces("11123", rally)...) // 1000, doubled
		s, evs := mustApply(t, g, s, Use("potion", 0), src)
		if e, ok := hasEvent(evs, EvThrow); !ok || e.Seat != 1 || e.N != 2000 {
			t.Fatalf("the new throw %+v", e)
		}
		if e, ok := hasEvent(evs, EvBrawl); !ok || e.Winner != 1 || e.Other != 2000 {
			t.Fatalf("brawl %+v", e)
		}
		if s.Players[0].Soldiers != 50 {
			t.Fatalf("the challenger keeps %d, want 2000 - 1950", s.Players[0].Soldiers)
		}
	})
	t.Run("knucklebone turns a 2", func(t *testing.T) {
		src := script(throwFaces("523466", blank), throwFaces("22346", blank))
		s, _ := mustApply(t, g, brawlers(nil, []string{"loaded-bone"}), Brawl(1), src)
		s, evs := mustApply(t, g, s, Use("loaded-bone", 0), src) // 2-2-3-4-6 -> 2-3-4-5-6: 50
		if e, ok := hasEvent(evs, EvBrawl); !ok || e.Winner != -1 || e.Other != 50 {
			t.Fatalf("brawl %+v", e)
		}
		if s.Turn != 1 {
			t.Fatalf("turn %d", s.Turn)
		}
	})
	t.Run("a card that is not for brawls", func(t *testing.T) {
		// The Phoenix Feather is for recruiting only; Pip the Squire
		// re-throws on his owner's recruiting and battle throws only.
		src := script(throwFaces("523466", blank), throwFaces("22346", blank))
		st := brawlers(nil, []string{"feather"})
		st.Players[0].Companion, st.Players[1].Companion = "pip", "grubb"
		s, evs := mustApply(t, g, st, Brawl(1), src)
		if _, ok := hasEvent(evs, EvBrawl); !ok || s.Turn != 1 || src.Left() != 0 {
			t.Fatalf("the brawl waited: phase %s, events %+v", s.Phase, evs)
		}
	})
	t.Run("own-turn timing: a brawl in one action", func(t *testing.T) {
		old := MustGame(ClassicRules(), DefaultCards())
		src := script(throwFaces("523466", blank), throwFaces("22346", blank))
		s, evs := mustApply(t, old, brawlers(nil, []string{"horseshoe"}), Brawl(1), src)
		if e, ok := hasEvent(evs, EvBrawl); !ok || e.Winner != 0 || s.Turn != 1 || len(s.Players[1].Items) != 1 {
			t.Fatalf("brawl %+v, turn %d, items %v", e, s.Turn, s.Players[1].Items)
		}
	})
	t.Run("a Companion of a card file of one's own in a brawl", func(t *testing.T) {
		// A card file of one's own may let a Companion into brawls.
		cs, err := ParseCards([]byte(`[[companion]]
id = "kit"
name = "Kit"
text = "Once per turn, re-throw one die, in a Brawl too."
effects = [{ primitive = "rethrow", when = ["brawl"] }]
`))
		if err != nil {
			t.Fatal(err)
		}
		g := MustGame(DefaultRules(), cs)
		st := brawlers(nil, nil)
		st.Players[1].Companion = "kit"
		src := script(throwFaces("523466", blank), throwFaces("22346", blank), []int{3})
		s, _ := mustApply(t, g, st, Brawl(1), src)
		s, evs := mustApply(t, g, s, Use("kit", 6), src) // 2-2-3-3-4: still nothing
		if s.Phase != PhaseChoose || s.Turn != 1 || len(s.Used) != 0 {
			t.Fatalf("phase %s turn %d used %v", s.Phase, s.Turn, s.Used)
		}
		if e, ok := hasEvent(evs, EvBrawl); !ok || e.Winner != 0 {
			t.Fatalf("brawl %+v", e)
		}
		// Recruiting, Kit has no moment.
		src = script(throwFaces("223466", blank))
		st = fresh(2)
		st.Players[0].Companion = "kit"
		s, evs = mustApply(t, g, st, Recruit(), src)
		if _, ok := hasEvent(evs, EvFarkle); !ok {
			t.Fatalf("a brawl-only card waited on a recruiting farkle: %+v", evs)
		}
	})
}

// TestHire: paying for a Companion, keeping one of two, once a turn; the
// dismissed one goes to the Companion discard pile.
func TestHire(t *testing.T) {
	g := anytimeGame(t)
	base := fresh(2)
	give(&base, 0, 500)
	base.Players[0].Companion = "quill"
	base.CompanionDeck = []string{"wren", "hask"} // hask on top
	s, evs := mustApply(t, g, base, Hire(), dice.Faces())
	if s.Phase != PhaseHire || s.Offer != "hask" || s.Players[0].Soldiers != 300 || s.Stockpile-base.Stockpile != 200 || !s.Hired {
		t.Fatalf("phase %s offer %q soldiers %d stockpile %+d", s.Phase, s.Offer, s.Players[0].Soldiers, s.Stockpile-base.Stockpile)
	}
	if e, ok := hasEvent(evs, EvHire); !ok || e.N != 200 || e.Total != 300 || e.Card != "hask" {
		t.Fatalf("hire %+v", e)
	}
	if legal := g.Legal(s); !slices.Equal(legal, []Action{Dismiss("quill"), Dismiss("hask")}) {
		t.Fatalf("legal %v", legal)
	}
	mustReject(t, g, s, Dismiss("wren"), dice.Faces())
	mustReject(t, g, s, Recruit(), dice.Faces())
	t.Run("keep the new one", func(t *testing.T) {
		n, evs := mustApply(t, g, s, Dismiss("quill"), dice.Faces())
		if n.Players[0].Companion != "hask" || !slices.Equal(n.CompanionDiscard, []string{"quill"}) || n.Phase != PhaseChoose || n.Offer != "" {
			t.Fatalf("companion %q discard %v phase %s", n.Players[0].Companion, n.CompanionDiscard, n.Phase)
		}
		if e, ok := hasEvent(evs, EvDismiss); !ok || e.Card != "quill" {
			t.Fatalf("dismiss %+v", e)
		}
		if slices.Contains(g.Legal(n), Hire()) {
			t.Fatal("a second hire in one turn")
		}
		if err := mustReject(t, g, n, Hire(), dice.Faces()); !strings.Contains(err.Error(), "one hire a turn") {
			t.Fatalf("second hire: %v", err)
		}
		// The turn goes on: recruit, and the next turn may hire again.
		n, _ = mustApply(t, g, n, Recruit(), script(throwFaces("234662", blank)))
		if n.Turn != 1 || n.Hired {
			t.Fatalf("turn %d hired %v", n.Turn, n.Hired)
		}
	})
	t.Run("keep the old one", func(t *testing.T) {
		n, _ := mustApply(t, g, s, Dismiss("hask"), dice.Faces())
		if n.Players[0].Companion != "quill" || !slices.Equal(n.CompanionDiscard, []string{"hask"}) {
			t.Fatalf("companion %q discard %v", n.Players[0].Companion, n.CompanionDiscard)
		}
	})
	t.Run("without a Companion the hired one joins", func(t *testing.T) {
		st := base.Clone()
		st.Players[0].Companion = ""
		n, _ := mustApply(t, g, st, Hire(), dice.Faces())
		if n.Players[0].Companion != "hask" || n.Phase != PhaseChoose {
			t.Fatalf("companion %q phase %s", n.Players[0].Companion, n.Phase)
		}
	})
	t.Run("too few soldiers", func(t *testing.T) {
		st := base.Clone()
		give(&st, 0, 199)
		if err := mustReject(t, g, st, Hire(), dice.Faces()); !strings.Contains(err.Error(), "costs 200") {
			t.Fatalf("hire with 199: %v", err)
		}
		if slices.Contains(g.Legal(st), Hire()) {
			t.Fatal("hire listed with 199 soldiers")
		}
	})
	t.Run("no hiring in the rules", func(t *testing.T) {
		r := DefaultRules()
		r.HireCost = 0
		if err := mustReject(t, MustGame(r, DefaultCards()), base, Hire(), dice.Faces()); !strings.Contains(err.Error(), "no hiring") {
			t.Fatalf("hire_cost 0: %v", err)
		}
	})
	t.Run("no Companion left", func(t *testing.T) {
		st := base.Clone()
		st.CompanionDeck = []string{}
		mustReject(t, g, st, Hire(), dice.Faces())
	})
}

// TestDecksReshuffle: either deck, once empty, is its discard pile
// shuffled (Fisher-Yates from the source), and the top card is drawn.
func TestDecksReshuffle(t *testing.T) {
	g := anytimeGame(t)
	// Shuffling [wren bellow hen] with the draws 0, 0: i=2 swaps with 0
	// (hen bellow wren), i=1 swaps with 0 (bellow hen wren); wren is on top.
	t.Run("companions", func(t *testing.T) {
		st := fresh(2)
		give(&st, 0, 500)
		st.Players[0].Companion = "quill"
		st.CompanionDiscard = []string{"wren", "bellow", "hen"}
		src := &dice.Scripted{Values: []uint64{0, 0}}
		s, evs := mustApply(t, g, st, Hire(), src)
		if e, ok := hasEvent(evs, EvReshuffle); !ok || e.Card != string(Companion) {
			t.Fatalf("reshuffle %+v", e)
		}
		if s.Offer != "wren" || !slices.Equal(s.CompanionDeck, []string{"bellow", "hen"}) || len(s.CompanionDiscard) != 0 || src.Left() != 0 {
			t.Fatalf("offer %q deck %v discard %v", s.Offer, s.CompanionDeck, s.CompanionDiscard)
		}
		s, _ = mustApply(t, g, s, Dismiss("quill"), src)
		if !slices.Equal(s.CompanionDiscard, []string{"quill"}) {
			t.Fatalf("discard %v", s.CompanionDiscard)
		}
	})
	t.Run("items", func(t *testing.T) {
		st := fresh(2)
		st.ItemDiscard = []string{"map", "horn", "spoon"}
		src := script(throwFaces("146236", rally))
		s, _ := mustApply(t, g, st, Recruit(), src)
		src.Values = append(src.Values, 0, 0)
		s, evs := mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
		if _, ok := hasEvent(evs, EvReshuffle); !ok {
			t.Fatalf("no reshuffle: %+v", evs)
		}
		if !slices.Equal(s.Drawn, []string{"map"}) || !slices.Equal(s.ItemDeck, []string{"horn", "spoon"}) {
			t.Fatalf("drawn %v deck %v", s.Drawn, s.ItemDeck)
		}
	})
}

// TestBotsBrawlCards: the bots and the advice on a defender's brawl throw,
// against values worked out by hand.
func TestBotsBrawlCards(t *testing.T) {
	g := anytimeGame(t)
	brains := NewBrains(g)
	smart, simple := NewBot(Smart, brains), NewBot(Simple, brains)
	value := func(adv []Advice, a Action) float64 {
		for _, x := range adv {
			if x.Action == a {
				return x.Value
			}
		}
		t.Fatalf("no advice for %s in %+v", a, adv)
		return 0
	}
	t.Run("socks save a rich throw", func(t *testing.T) {
		// The challenger scores 500; the defender's 1-1-1-2-3 scores 0
		// under the Dragon (-500), 1000 as a Blank (+500 taken, +500 bonus).
		src := script(throwFaces("555234", blank), throwFaces("11123", dragon))
		s, _ := mustApply(t, g, brawlers(nil, []string{"socks"}), Brawl(1), src)
		v := g.View(s, 1)
		adv := brains.Advise(v)
		if value(adv, Use("socks", 0)) != 1000 || value(adv, Pass()) != -500 {
			t.Fatalf("advice %+v", adv)
		}
		for _, b := range []*Bot{smart, simple} {
			if a := b.Choose(v, nil); a != Use("socks", 0) {
				t.Errorf("%s bot chose %s", b.Level, a)
			}
		}
	})
	t.Run("a horseshoe kept for later", func(t *testing.T) {
		// The challenger scores 50; the defender's 2-2-3-4-6 scores 0
		// (-50). Throwing the 3 again: a 1 wins 100 to 50 (+550), a 2
		// makes three 2s (+650), a 5 ties (0), a 3, 4 or 6 loses (-50):
		// (550 + 650 - 150) / 6 = 175. Throwing a 2 again: a 1 wins, a 5
		// ties, the rest lose: (550 - 200) / 6. A gain of 225 is less than
		// the item is worth (300): the Smart bot passes.
		src := script(throwFaces("523466", blank), throwFaces("22346", blank))
		s, _ := mustApply(t, g, brawlers(nil, []string{"horseshoe"}), Brawl(1), src)
		v := g.View(s, 1)
		adv := brains.Advise(v)
		near := func(a Action, want float64) bool { return math.Abs(value(adv, a)-want) < 1e-9 }
		if !near(Pass(), -50) || !near(Use("horseshoe", 3), 175) || !near(Use("horseshoe", 6), 175) || !near(Use("horseshoe", 2), 350.0/6) {
			t.Fatalf("advice %+v", adv)
		}
		for _, b := range []*Bot{smart, simple} {
			if a := b.Choose(v, nil); a != Pass() {
				t.Errorf("%s bot chose %s", b.Level, a)
			}
		}
		// Pip would be free to use: with a Companion of the brawl moment
		// the Smart bot throws the 3 again.
		cs, err := ParseCards([]byte("[[companion]]\nid = \"kit\"\nname = \"Kit\"\ntext = \"t\"\neffects = [{ primitive = \"rethrow\", when = [\"brawl\"] }]\n"))
		if err != nil {
			t.Fatal(err)
		}
		gk := MustGame(DefaultRules(), cs)
		st := brawlers(nil, nil)
		st.Players[1].Companion = "kit"
		s, _ = mustApply(t, gk, st, Brawl(1), script(throwFaces("523466", blank), throwFaces("22346", blank)))
		if a := NewBot(Smart, NewBrains(gk)).Choose(gk.View(s, 1), nil); a != Use("kit", 3) {
			t.Errorf("smart bot with a free re-throw chose %s", a)
		}
	})
}

// TestBotHires: the Smart bot hires early with a weak Companion, not with
// a strong one nor when it is about to attack, and keeps the better of two.
func TestBotHires(t *testing.T) {
	g := anytimeGame(t)
	bot := NewBot(Smart, NewBrains(g))
	st := fresh(2)
	give(&st, 0, 300)
	st.Players[1].Companion = "wren"
	st.CompanionDeck = []string{"pip", "grubb", "hask", "fennel", "marta"}
	for _, c := range []struct {
		companion string
		soldiers  int
		want      ActionKind
	}{
		{"quill", 300, ActHire},     // 170 against a deck worth far more
		{"pip", 300, ActRecruit},    // the best there is
		{"quill", 4900, ActRecruit}, // too late to pay back
	} {
		s := st.Clone()
		s.Players[0].Companion = c.companion
		give(&s, 0, c.soldiers)
		if a := bot.Choose(g.View(s, 0), nil); a.Kind != c.want {
			t.Errorf("%s with %d soldiers: chose %s, want %s", c.companion, c.soldiers, a, c.want)
		}
	}
	s := st.Clone()
	s.Players[0].Companion = "quill"
	s, _ = mustApply(t, g, s, Hire(), dice.Faces()) // draws marta
	if a := bot.Choose(g.View(s, 0), nil); a != Dismiss("quill") {
		t.Fatalf("offered Marta for Quill, chose %s", a)
	}
	s.Offer, s.CompanionDeck = "bellow", []string{"pip", "grubb", "hask", "fennel", "marta"}
	s.Players[0].Companion = "pip"
	if a := bot.Choose(g.View(s, 0), nil); a != Dismiss("bellow") {
		t.Fatalf("offered Bellow for Pip, chose %s", a)
	}
}
