package game_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// TestKindNames: every kind of Kinds once, the ordinary game first, and
// Open's refusal of another kind names them in that order.
func TestKindNames(t *testing.T) {
	got := game.KindNames()
	if len(got) != len(game.Kinds) || got[0] != game.Farkle {
		t.Fatalf("KindNames() = %q, want every kind of Kinds (%d), the ordinary game first", got, len(game.Kinds))
	}
	seen := map[game.Kind]bool{}
	for _, k := range got {
		if _, ok := game.Kinds[k]; !ok || seen[k] {
			t.Errorf("KindNames() = %q: %q not once a kind of Kinds", got, k)
		}
		seen[k] = true
	}
	if _, err := game.Open("chess", nil); err == nil || !strings.Contains(err.Error(), `unknown kind "chess" (kinds: farkle, dragon)`) {
		t.Fatalf("Open(chess): %v, want the kinds named", err)
	}
}

// TestFamilies: every variant's family, marked or not, is one its kind
// lists (or none), and Families is every kind's, sorted, once each.
func TestFamilies(t *testing.T) {
	for _, v := range variants(t) {
		for _, marked := range []bool{false, true} {
			f := v.Family(marked)
			if f != "" && !slices.Contains(game.Kinds[v.Kind()].Families, f) {
				t.Errorf("%s (marked %v): family %q is not one of its kind's %q", v.Name(), marked, f, game.Kinds[v.Kind()].Families)
			}
		}
	}
	house := rules.MustPreset("classic")
	house.Game.Target = 7000
	hv, err := game.NewFarkle(house)
	if err != nil {
		t.Fatal(err)
	}
	capped := rules.MustPreset("classic")
	capped.Game.MaxTurns = 12
	cv, err := game.NewFarkle(capped)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v      game.Variant
		marked bool
		want   string
	}{
		{variants(t)[0], false, "farkle"}, {cv, false, "farkle"}, {hv, false, ""}, {hv, true, "house"},
		{game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil)), false, "dragon"},
	} {
		if got := c.v.Family(c.marked); got != c.want {
			t.Errorf("%s (marked %v): family %q, want %q", c.v.Name(), c.marked, got, c.want)
		}
	}
	if got := game.Families(); !slices.Equal(got, []string{"dragon", "farkle", "house"}) {
		t.Errorf("Families() = %q", got)
	}
}

// TestInvalidRules: an invalid rule set of either kind is InvalidRules;
// an unreadable one is not.
func TestInvalidRules(t *testing.T) {
	bad := rules.MustPreset("classic")
	bad.Dice = 0
	_, ordinary := game.NewFarkle(bad)
	_, dragonErr := game.Open(game.Dragon, []byte(`{"min_players":9}`))
	_, syntax := game.Open(game.Dragon, []byte(`{`))
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{{"ordinary", ordinary, true}, {"dragon", dragonErr, true}, {"not JSON", syntax, true}, {"nil", nil, false}, {"other", errors.New("rules: no such file"), false}} {
		if got := game.InvalidRules(c.err); got != c.want {
			t.Errorf("%s: InvalidRules(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}
