package dragon

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	g := testGame(t, DefaultCards())
	names := []string{"Ann", "Bo"}
	seen := map[string]EventKind{}
	for k := EvThrow; k <= EvStart; k++ {
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
