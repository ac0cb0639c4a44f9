package online

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// TestSeenGameShowsTheView plays whole games of Dragon Farkle between
// bots of every level and, after every action, rebuilds the game from
// each seat's view as the server sends it (JSON, as the wire carries it)
// and from the watcher's: the rebuilt game shows the seat exactly the
// view it was rebuilt from, refuses and accepts the seat's actions as the
// real game does, and gives the same hint. So the terminal's screen,
// checks and hints at an online table are those of the game itself,
// without any card the seat may not see.
func TestSeenGameShowsTheView(t *testing.T) {
	v, _ := game.Preset("dragon")
	dv := v.(*game.DragonVariant)
	cast := game.DefaultCast()
	adv, err := cast.Advisor(v, 3)
	if err != nil {
		t.Fatal(err)
	}
	games := 6
	if testing.Short() {
		games = 2
	}
	checked, hidden := 0, 0
	for i := range games {
		levels := []string{"random", "simple", "smart"}
		names := []string{"ann", "bea", "cid"}[:2+i%2]
		p, _, err := game.Start(dv.Capped(8), names, dice.SeedFrom(fmt.Sprint("seen ", i)))
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]game.Bot, len(names))
		for s := range bots {
			if bots[s], err = cast.Bot(v, levels[(i+s)%3]); err != nil {
				t.Fatal(err)
			}
		}
		src := dice.NewSource(dice.SeedFrom(fmt.Sprint("bots ", i)))
		for steps := 0; !p.Game().Over(); steps++ {
			g := p.Game()
			for seat := -1; seat < len(names); seat++ {
				want := g.View(seat).(dragon.View)
				data, err := json.Marshal(want)
				if err != nil {
					t.Fatal(err)
				}
				var wire dragon.View
				if err := json.Unmarshal(data, &wire); err != nil {
					t.Fatal(err)
				}
				got := dv.At(seen(dv.Game(), wire), g.Version())
				// Compared as the wire has them (an empty list and none are
				// one there).
				if gv, _ := json.Marshal(got.View(seat)); string(gv) != string(data) {
					t.Fatalf("game %d, action %d, seat %d: the rebuilt game shows\n%s\nthe view it was rebuilt from is\n%s", i, steps, seat, gv, data)
				}
				for s := range names {
					if s != seat {
						hidden += len(got.State().Players[s].Items)
					}
				}
				if seat < 0 || g.ToAct() != seat {
					continue
				}
				for _, a := range g.Legal(seat) {
					if err := got.Check(seat, a); err != nil {
						t.Fatalf("game %d, action %d: the rebuilt game refuses the legal %v: %v", i, steps, a, err)
					}
				}
				for _, a := range []dragon.Action{dragon.Keep(dice.Single(2, 1)), dragon.Stop(), dragon.Battle(), dragon.Hire(), dragon.Discard("poster")} {
					if (g.Check(seat, a) == nil) != (got.Check(seat, a) == nil) {
						t.Fatalf("game %d, action %d: %v is checked %v by the game, %v by the rebuilt one", i, steps, a, g.Check(seat, a), got.Check(seat, a))
					}
				}
				a1, err1 := adv.Advise(g, seat)
				a2, err2 := adv.Advise(got, seat)
				if (err1 == nil) != (err2 == nil) || err1 == nil && !reflect.DeepEqual(a1.Choices, a2.Choices) {
					t.Fatalf("game %d, action %d: the hint of the game is %+v (%v), of the rebuilt one %+v (%v)", i, steps, a1, err1, a2, err2)
				}
				checked++
			}
			seat := g.ToAct()
			a, err := bots[seat].Choose(g, seat, src)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Do(seat, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 100 || hidden == 0 {
		t.Fatalf("checked %d decisions, %d hidden items: the games were too short to say anything", checked, hidden)
	}
}
