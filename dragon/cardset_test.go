package dragon

import (
	"testing"
)

// meldExample is a throw with a keep of one meld of each meld_bonus kind
// under the soldier table, with the keep's soldiers.
var meldExample = map[string]struct {
	throw, keep string
	points      int
}{
	"single":      {"523466", "5", 50},
	"kind":        {"333246", "333", 300},
	"three_pairs": {"224466", "224466", 2000},
	"straight":    {"123456", "123456", 3000},
}

// TestEveryDefaultCard checks each effect of each card of the default set
// in a scenario built for its primitive, with the expected outcome worked
// out from the primitive's documented meaning and the card's n.
func TestEveryDefaultCard(t *testing.T) {
	cs := DefaultCards()
	g := MustGame(DefaultRules(), cs)
	for _, c := range append(append([]Card{}, cs.Companions...), cs.Items...) {
		for i, e := range c.Effects {
			t.Run(c.ID+"/"+string(e.Primitive), func(t *testing.T) {
				hold := func(st *State) {
					if c.Kind == Companion {
						st.Players[0].Companion = c.ID
					} else {
						st.Players[0].Items = []string{c.ID}
					}
				}
				st := fresh(2)
				hold(&st)
				switch e.Primitive {
				case Rethrow:
					src := script(throwFaces("223466", blank), []int{1})
					s, _ := mustApply(t, g, st, Recruit(), src)
					s, _ = mustApply(t, g, s, Use(c.ID, 6), src)
					if s.Throw != h("122346") {
						t.Fatalf("throw %s", s.Throw)
					}
				case TwoAsFive:
					src := script(throwFaces("223466", blank))
					s, _ := mustApply(t, g, st, Recruit(), src)
					s, _ = mustApply(t, g, s, Use(c.ID, 0), src)
					if s.Throw != h("234566") {
						t.Fatalf("throw %s", s.Throw)
					}
				case IgnoreDragon:
					src := script(throwFaces("115234", dragon))
					s, _ := mustApply(t, g, st, Recruit(), src)
					s, _ = mustApply(t, g, s, Use(c.ID, 0), src)
					if s.Event != Blank {
						t.Fatalf("event %s", s.Event)
					}
				case RerollFarkle:
					src := script(throwFaces("223466", blank), throwFaces("111111", blank))
					s, _ := mustApply(t, g, st, Recruit(), src)
					s, _ = mustApply(t, g, s, Use(c.ID, 0), src)
					if s.Throw != h("111111") {
						t.Fatalf("throw %s", s.Throw)
					}
				case MeldBonus:
					ex := meldExample[e.Meld]
					src := script(throwFaces(ex.throw, blank))
					s, _ := mustApply(t, g, st, Recruit(), src)
					s, _ = mustApply(t, g, s, Keep(h(ex.keep)), src)
					if want := ex.points + c.Sum(MeldBonus, e.Meld); s.Pool != want {
						t.Fatalf("pool %d, want %d", s.Pool, want)
					}
				case RallyDamage:
					give(&st, 0, 5000)
					s, _ := mustApply(t, g, st, Battle(), script(throwFaces("123466", rally)))
					if want := min(3, 1+e.N); s.Damage != want && !(want >= 3 && s.Over()) {
						t.Fatalf("damage %d, want %d", s.Damage, want)
					}
				case ExtraItem:
					st.ItemDeck = []string{"spoon", "sack", "map", "horn", "socks"}
					src := script(throwFaces("146236", rally))
					s, _ := mustApply(t, g, st, Recruit(), src)
					s, _ = mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
					if len(s.Drawn) != 1+e.N {
						t.Fatalf("drew %v, want %d", s.Drawn, 1+e.N)
					}
				case BrawlGuard:
					give(&st, 0, 3000)
					give(&st, 1, 3000)
					st.Turn = 1 // seat 1 challenges the holder and wins by 950
					s, _ := mustApply(t, g, st, Brawl(0), script(throwFaces("111234", blank), throwFaces("52346", blank)))
					if lost, want := 3000-s.Players[0].Soldiers, max(0, 950-e.N); lost != want {
						t.Fatalf("lost %d, want %d", lost, want)
					}
				case BrawlBonus:
					give(&st, 1, 3000)
					s, _ := mustApply(t, g, st, Brawl(1), script(throwFaces("111234", blank), throwFaces("52346", blank)))
					if got, want := s.Players[0].Soldiers, 950+500+e.N; got != want {
						t.Fatalf("soldiers %d, want %d", got, want)
					}
				case BattleDiscount:
					give(&st, 0, 5000)
					src := script(throwFaces("152346", blank))
					s, _ := mustApply(t, g, st, Battle(), src)
					s, _ = mustApply(t, g, s, Keep(h("15")), src)
					if cost, want := 5000-s.Players[0].Soldiers, max(0, 150-e.N)+g.Rules().BattleWave; cost != want {
						t.Fatalf("cost %d, want %d", cost, want)
					}
				case HoldItems:
					if got := g.ItemLimit(st, 0); got != 1+e.N {
						t.Fatalf("limit %d, want %d", got, 1+e.N)
					}
				default:
					t.Fatalf("effect %d: no scenario for %s", i, e.Primitive)
				}
			})
		}
	}
}
