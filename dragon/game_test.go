package dragon

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestNew(t *testing.T) {
	g := testGame(t, DefaultCards())
	names := []string{"ann", "bob", "cy"}
	s, evs, err := g.New(names, dice.NewSource(dice.SeedFrom("1")))
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := g.New(names, dice.NewSource(dice.SeedFrom("1")))
	if !reflect.DeepEqual(s, again) {
		t.Fatal("New is not reproducible from the seed")
	}
	if s.First < 0 || s.First >= 3 || s.Turn != s.First || s.Round != 1 || s.Phase != PhaseChoose {
		t.Fatalf("first %d turn %d round %d phase %s", s.First, s.Turn, s.Round, s.Phase)
	}
	if len(evs) != 1 || evs[0].Kind != EvTurn || evs[0].Seat != s.First {
		t.Fatalf("events %+v", evs)
	}
	seen := map[string]bool{}
	for i, p := range s.Players {
		if p.Name != names[i] || p.Soldiers != 0 || len(p.Items) != 1 {
			t.Fatalf("player %d = %+v", i, p)
		}
		c, it := g.cards.Card(p.Companion), g.cards.Card(p.Items[0])
		if c == nil || c.Kind != Companion || it == nil || it.Kind != Item {
			t.Fatalf("player %d dealt %q and %q", i, p.Companion, p.Items[0])
		}
		seen[p.Companion], seen[p.Items[0]] = true, true
	}
	if len(seen) != 6 {
		t.Fatal("a card was dealt twice")
	}
	if len(s.CompanionDeck) != len(g.cards.Companions)-3 || len(s.ItemDeck) != len(g.cards.Items)-3 {
		t.Fatalf("decks %d and %d", len(s.CompanionDeck), len(s.ItemDeck))
	}
	for _, bad := range [][]string{{"solo"}, {"a", "b", "c", "d", "e", "f"}, {"a", " "}} {
		if _, _, err := g.New(bad, dice.NewSource(dice.SeedFrom("1"))); !errors.Is(err, ErrPlayers) {
			t.Errorf("New(%q) = %v, want ErrPlayers", bad, err)
		}
	}
	// Different seeds shuffle differently (at least one of 20 seeds differs).
	differs := false
	for k := uint64(2); k < 22 && !differs; k++ {
		o, _, _ := g.New(names, dice.NewSource(dice.SeedFrom(fmt.Sprint(k))))
		differs = !slices.Equal(o.ItemDeck, s.ItemDeck)
	}
	if !differs {
		t.Fatal("the item deck order does not depend on the seed")
	}
}

func TestView(t *testing.T) {
	g := testGame(t, DefaultCards())
	s := fresh(3)
	s.Players[0].Companion, s.Players[0].Items = "pip", []string{"horn"}
	s.Players[1].Companion, s.Players[1].Items = "wren", []string{"buckler"}
	s.ItemDeck = []string{"sack", "map"}
	s.ItemDiscard = []string{"spoon"}
	src := script(throwFaces("146236", rally))
	s, evs := mustApply(t, g, s, Recruit(), src)
	s, drawEvs := mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
	evs = append(evs, drawEvs...)

	mine := g.View(s, 0)
	if len(mine.Players[0].Items) != 1 || mine.Players[0].Items[0].ID != "horn" || len(mine.Drawn) != 1 || mine.Drawn[0].ID != "map" {
		t.Fatalf("own view: items %+v drawn %+v", mine.Players[0].Items, mine.Drawn)
	}
	if len(mine.Legal) == 0 || mine.Players[0].Companion.ID != "pip" {
		t.Fatalf("own view lacks legal actions or companion")
	}
	for _, seat := range []int{1, 2, Spectator} {
		v := g.View(s, seat)
		if v.Players[0].Items != nil || v.Players[0].ItemCount != 1 || v.Drawn != nil || v.DrawnCount != 1 || v.Legal != nil {
			t.Fatalf("seat %d sees seat 0's items: %+v", seat, v.Players[0])
		}
		if v.Players[0].Companion == nil || v.Players[0].Companion.ID != "pip" {
			t.Fatalf("seat %d does not see the face-up companion", seat)
		}
		if v.ItemDeck != 1 || len(v.ItemDiscard) != 1 || v.ItemDiscard[0].ID != "spoon" {
			t.Fatalf("seat %d: deck %d discard %+v", seat, v.ItemDeck, v.ItemDiscard)
		}
		b, err := json.Marshal(struct {
			V View
			E []Event
		}{v, ViewEvents(evs, seat)})
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"horn", "map", "sack", "War Horn", "Treasure Map"} {
			if strings.Contains(string(b), secret) {
				t.Fatalf("seat %d's view shows %q: %s", seat, secret, b)
			}
		}
		if seat == 1 && !strings.Contains(string(b), "buckler") {
			t.Fatal("seat 1 does not see its own item")
		}
	}
	if e := ViewEvents(evs, 0); !slices.ContainsFunc(e, func(e Event) bool { return e.Card == "map" }) {
		t.Fatal("the drawer does not see the drawn card in the events")
	}
}

func TestActionJSON(t *testing.T) {
	for _, a := range []Action{Recruit(), Brawl(0), Brawl(2), Battle(), Keep(h("115")), KeepRally(h("1"), DrawItem), Use("pip", 3), Use("socks", 0), Accept(), Roll(), Stop(), Retreat(), Discard("map")} {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Action
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Fatalf("%s -> %s -> %+v (%v)", a, b, back, err)
		}
	}
	var a Action
	if err := json.Unmarshal([]byte(`{"kind":"fly"}`), &a); err == nil {
		t.Fatal("unknown action kind accepted")
	}
}

func TestStateJSONRoundTrip(t *testing.T) {
	g := testGame(t, DefaultCards())
	brains := NewBrains(g)
	bot := NewBot(Smart, brains)
	src := dice.NewSource(dice.SeedFrom("11"))
	s, _, _ := g.New([]string{"a", "b", "c"}, src)
	for i := 0; i < 300 && !s.Over(); i++ {
		var evs []Event
		var err error
		s, evs, err = g.Apply(s, bot.Choose(g.View(s, s.Turn), src), src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back State
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Fatalf("state JSON round trip differs:\n%s\n%s", b, b2)
		}
		eb, _ := json.Marshal(evs)
		var evBack []Event
		if err := json.Unmarshal(eb, &evBack); err != nil || !reflect.DeepEqual(evs, evBack) {
			t.Fatalf("events round trip: %v\n%s", err, eb)
		}
	}
}

func TestApplyFor(t *testing.T) {
	g := testGame(t, nil)
	s := fresh(2)
	before := s.Clone()
	n, _, err := g.ApplyFor(s, 1, Recruit(), dice.Faces())
	if !errors.Is(err, ErrNotTurn) || !reflect.DeepEqual(n, before) || !strings.Contains(err.Error(), "A's turn") {
		t.Fatalf("ApplyFor seat 1 = %v", err)
	}
	if _, _, err := g.ApplyFor(s, Spectator, Recruit(), dice.Faces()); !errors.Is(err, ErrNotTurn) {
		t.Fatalf("spectator: %v", err)
	}
	if _, _, err := g.ApplyFor(s, 0, Recruit(), script(throwFaces("123466", blank))); err != nil {
		t.Fatal(err)
	}
}
