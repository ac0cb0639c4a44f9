package dragon

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	g := testGame(t, DefaultCards())
	names := []string{"Ann", "Bo"}
	seen := map[string]EventKind{}
	for k := EvThrow; int(k) < len(eventNames); k++ {
		e := Event{Kind: k, Seat: 1, Target: 0, Winner: 1, Dice: h("115"), Face: Rally, N: 7, Total: 9, Card: "sack", Reward: Double}
		s := g.Describe(names, e)
		if s == "" || s == k.String() {
			t.Errorf("%s: no description", k)
		}
		if prev, dup := seen[s]; dup {
			t.Errorf("%s and %s both read %q", prev, k, s)
		}
		seen[s] = k
	}
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Kind: EvKeep, Seat: 0, Dice: h("1"), N: 50, Total: 4950, Battle: true}, "Ann keeps 1, costing 50 soldiers (4,950 left)"},
		{Event{Kind: EvKeep, Seat: 0, Dice: h("15"), N: 150}, "Ann keeps 1 5 for +150 soldiers"},
		{Event{Kind: EvBattleEnd, Seat: 0, Ending: EndRetreat, N: 2, Total: 3000}, "Ann retreats: the battle ends with 3,000 soldiers kept and 2 damage dealt"},
		{Event{Kind: EvBattleEnd, Seat: 0, Ending: EndFarkle, Total: 5000}, "Ann farkles in battle: the battle ends with 5,000 soldiers kept and no damage dealt"},
		{Event{Kind: EvBattleEnd, Seat: 0, Ending: EndUnpaid, N: 1}, "Ann's army is lost: the battle ends with 0 soldiers kept and 1 damage dealt"},
		{Event{Kind: EvHeal, Seat: 0, N: 2}, "the dragon heals its 2 damage"},
		{Event{Kind: EvHire, Seat: 0, N: 200, Total: 300, Card: "hask"}, "Ann pays 200 soldiers to hire Sergeant Hask (300 left)"},
		{Event{Kind: EvDismiss, Seat: 1, Card: "quill"}, "Bo dismisses Tinker Quill"},
		{Event{Kind: EvPass, Seat: 1, N: 50}, "Bo stands by the brawl throw (score 50)"},
		{Event{Kind: EvCardChanged, Seat: 1, Dice: h("12234"), Face: Blank, N: 100}, "Bo's throw is now 1 2 2 3 4 and a Blank (brawl score 100)"},
	} {
		if s := g.Describe(names, c.e); s != c.want {
			t.Errorf("%s: %q, want %q", c.e.Kind, s, c.want)
		}
	}
	if s := g.Describe(names, Event{Kind: EvItemDrawn, Seat: 0}); !strings.Contains(s, "a Magic Item") {
		t.Errorf("hidden item: %q", s)
	}
	if s := g.Describe(names, Event{Kind: EvItemDrawn, Seat: 0, Card: "sack"}); !strings.Contains(s, "Sack of Holding") {
		t.Errorf("own item: %q", s)
	}
	if s := g.Describe(names, Event{Kind: EvBrawl, Seat: 0, Target: 1, Winner: 1, N: 50, Other: 1000, Total: 950, Bonus: 500}); !strings.Contains(s, "Bo wins") || !strings.Contains(s, "from Ann") {
		t.Errorf("brawl: %q", s)
	}
}
