package game_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// TestResumeKeepsTheStart: a game resumed from its record and seed has the
// events of its start (the deal of Dragon Farkle) as the game started had
// them, so a front end that resumes it can show it from the beginning.
func TestResumeKeepsTheStart(t *testing.T) {
	for _, v := range variants(t) {
		seed := dice.SeedFrom("started " + v.Name())
		p, evs, err := game.Start(v, []string{"Ana", "Bo"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Started(), evs) {
			t.Fatalf("%s: Started %v, Start gave %v", v.Name(), p.Started(), evs)
		}
		for range 5 {
			seat := p.Game().ToAct()
			if _, err := p.Do(seat, p.Game().Legal(seat)[0]); err != nil {
				t.Fatal(err)
			}
		}
		r, _, err := game.Resume(p.Record(), seed)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(r.Started()) != fmt.Sprint(evs) {
			t.Fatalf("%s: resumed with the start %v, the game started with %v", v.Name(), r.Started(), evs)
		}
		if v.Kind() == game.Dragon && len(evs) == 0 {
			t.Fatalf("%s: a deal without events", v.Name())
		}
	}
}
