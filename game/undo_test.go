package game_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// TestUndoTakesBackTheLastAction: through whole random games of every
// variant, each action played, taken back and played again leaves the
// game, its record and its events exactly as playing it once does (the
// dice source restored: the same throw comes again), and the action
// after it plays as in a game where nothing was taken back. A second Undo,
// and an Undo before any action, fail.
func TestUndoTakesBackTheLastAction(t *testing.T) {
	for _, v := range variants(t) {
		for k := range 3 {
			seed := dice.SeedFrom(fmt.Sprintf("undo %s %d", v.Name(), k))
			p, _, err := game.Start(v, []string{"Ana", "Bo"}, seed)
			if err != nil {
				t.Fatal(err)
			}
			ref, _, _ := game.Start(v, []string{"Ana", "Bo"}, seed) // the same game, nothing taken back
			if p.Undo() == nil {
				t.Fatalf("%s: Undo before any action succeeded", v.Name())
			}
			pick := rand.New(rand.NewPCG(uint64(k), 7))
			for n := 0; !p.Game().Over() && n < 3000; n++ {
				g := p.Game()
				seat := g.ToAct()
				legal := g.Legal(seat)
				a := legal[pick.IntN(len(legal))]
				before := snapshot(t, p)
				evs, err := p.Do(seat, a)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Undo(); err != nil {
					t.Fatalf("%s, action %d: %v", v.Name(), n+1, err)
				}
				if after := snapshot(t, p); after != before {
					t.Fatalf("%s, action %d taken back:\n%s\nwas\n%s", v.Name(), n+1, after, before)
				}
				if p.Undo() == nil {
					t.Fatalf("%s, action %d: a second Undo succeeded", v.Name(), n+1)
				}
				again, err := p.Do(seat, a)
				if err != nil {
					t.Fatal(err)
				}
				want, err := ref.Do(seat, a)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(again) != fmt.Sprint(evs) || fmt.Sprint(again) != fmt.Sprint(want) {
					t.Fatalf("%s, action %d played again: %v; the first time %v, in a game without Undo %v", v.Name(), n+1, again, evs, want)
				}
				if s, r := snapshot(t, p), snapshot(t, ref); s != r {
					t.Fatalf("%s, action %d: the game with Undo\n%s\nwithout\n%s", v.Name(), n+1, s, r)
				}
			}
			if !p.Game().Over() {
				t.Fatalf("%s: the game did not end", v.Name())
			}
		}
	}
}

// snapshot is the game of p as every seat sees it, its record and its
// version, as text.
func snapshot(t *testing.T, p *game.Play) string {
	t.Helper()
	g := p.Game()
	views := []any{g.Version(), g.ToAct(), g.Scores()}
	for seat := -1; seat < len(g.Players()); seat++ {
		views = append(views, g.View(seat))
	}
	b, err := json.Marshal(struct {
		Views  []any
		Record *game.Record
	}{views, p.Record()})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
