package main

import (
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// TestServeAdvisorAnalyzesDragon: the server's advisor analyses a finished
// Dragon Farkle record as advise.Analyze does, a line a player, in
// expected soldiers; it needs no solver table for it.
func TestServeAdvisorAnalyzesDragon(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	p, _, err := game.Start(v, []string{"Ann", "Bo"}, dice.SeedFrom("serve dragon analysis"))
	if err != nil {
		t.Fatal(err)
	}
	pick := rand.New(rand.NewPCG(3, 4))
	for n := 0; !p.Game().Over(); n++ {
		if n > 5000 {
			t.Fatal("no end after 5000 actions")
		}
		seat := p.Game().ToAct()
		legal := p.Game().Legal(seat)
		if _, err := p.Do(seat, legal[pick.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := newServeAdvisor(nil, false).Analyze(p.Record())
	if err != nil {
		t.Fatal(err)
	}
	want, err := advise.Analyze(p.Record(), game.DefaultCast())
	if err != nil {
		t.Fatal(err)
	}
	if got.Measure != "soldiers" || len(got.Players) != len(want.Players) {
		t.Fatalf("analysis in %q of %d players; want soldiers, %d", got.Measure, len(got.Players), len(want.Players))
	}
	decisions := 0
	for i, s := range want.Players {
		g := got.Players[i]
		if g.Seat != s.Player || g.Name != s.Name || g.Decisions != s.Decisions || g.Mistakes != s.Decisions-s.Best || g.Lost != s.TotalLoss {
			t.Errorf("player %d: %+v; the report says %+v", i, g, s)
		}
		decisions += g.Decisions
	}
	if decisions == 0 || decisions != len(want.Decisions) {
		t.Fatalf("%d decisions in the analysis, %d in the report", decisions, len(want.Decisions))
	}
}
