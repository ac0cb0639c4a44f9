package dragon

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestReplay(t *testing.T) {
	g := testGame(t, DefaultCards())
	brains := NewBrains(g)
	bots := []*Bot{NewBot(Smart, brains), NewBot(Random, brains), NewBot(Simple, brains)}
	names := []string{"a", "b", "c"}
	seed := dice.SeedFrom("replay")
	s, actions, _, err := playGame(g, names, bots, seed, 0)
	if err != nil || !s.Over() {
		t.Fatalf("game: %v", err)
	}
	got, evs, err := g.Replay(names, seed, actions)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Fatal("the replay differs from the game")
	}
	if e := evs[len(evs)-1]; e.Kind != EvWin || e.Seat != s.Winners[len(s.Winners)-1] {
		t.Fatalf("last event %+v, winners %v", e, s.Winners)
	}
	// A wrong action is reported with its number.
	bad := append(append([]Action{}, actions[:3]...), Discard("nothing"))
	if _, _, err := g.Replay(names, seed, bad); !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrBadAction) || err == nil || !strings.Contains(err.Error(), "action 4") {
		t.Fatalf("bad replay: %v", err)
	}
}
