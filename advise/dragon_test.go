package advise_test

import (
	"errors"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// dragonGame plays a game of Dragon Farkle in which every player takes the
// best action of the advice whenever the advice values the choices in one
// unit (the Smart bot decides the rest), except that seat 0 takes the
// worst one at its first such choice from its sixth on where that loses
// something. It returns the record, the number of advised choices of each
// seat and the number of the planted action (0 if none).
func dragonGame(t testing.TB, v *game.DragonVariant, seed string) (rec *game.Record, advised []int, planted int) {
	t.Helper()
	players := []string{"Ana", "Bo"}
	p, _, err := game.Start(v, players, dice.SeedFrom(seed))
	if err != nil {
		t.Fatal(err)
	}
	brains := dragon.NewBrains(v.Game())
	smart := dragon.NewBot(dragon.Smart, brains)
	botSrc := dice.NewSource(dice.SeedFrom("bot " + seed))
	advised = make([]int, len(players))
	for n := 0; !p.Game().Over(); n++ {
		if n > 20000 {
			t.Fatal("no end after 20000 actions")
		}
		g := p.Game().(*game.DragonGame)
		seat := g.ToAct()
		view := v.Game().View(g.State(), seat)
		a := smart.Choose(view, botSrc)
		if adv := brains.Advise(view); len(adv) >= 2 && dragon.OneUnit(adv) {
			hi, lo := 0, 0
			for i := range adv {
				if adv[i].Value > adv[hi].Value {
					hi = i
				}
				if adv[i].Value < adv[lo].Value {
					lo = i
				}
			}
			a = adv[hi].Action
			advised[seat]++
			if seat == 0 && planted == 0 && advised[0] > 5 && adv[hi].Value-adv[lo].Value > 0.01 {
				a = adv[lo].Action
				planted = len(p.Record().Actions) + 1
			}
		}
		if _, err := p.Do(seat, a); err != nil {
			t.Fatalf("action %d %s: %v", n+1, a, err)
		}
	}
	return p.Record(), advised, planted
}

func TestAnalyzeDragonFindsThePlantedBlunder(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	rec, advised, planted := dragonGame(t, v, "dragon blunder")
	if planted == 0 {
		t.Fatal("no blunder planted")
	}
	rep, err := advise.Analyze(rec, game.DefaultCast())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rules != v.Name() || rep.Measure != advise.Soldiers || len(rep.Players) != 2 {
		t.Fatalf("rules %q measure %q, %d players", rep.Rules, rep.Measure, len(rep.Players))
	}
	if len(rep.Decisions) != advised[0]+advised[1] {
		t.Errorf("%d decisions, %d advised choices", len(rep.Decisions), advised[0]+advised[1])
	}
	ana, bo := rep.Players[0], rep.Players[1]
	if bo.Decisions != advised[1] || bo.Best != bo.Decisions || bo.TotalLoss != 0 || len(bo.Worst) != 0 || bo.Accuracy == nil || *bo.Accuracy != 1 {
		t.Errorf("the player who always took the best: %+v", bo)
	}
	if ana.Decisions != advised[0] || ana.Best != ana.Decisions-1 || len(ana.Worst) != 1 {
		t.Fatalf("the blunderer: %+v (planted at action %d)", ana, planted)
	}
	w := ana.Worst[0]
	if w.Action != planted || w.Loss <= 0 || w.Value >= w.BestValue || w.Played == w.Best || w.Measure == "" {
		t.Errorf("the worst decision %+v, planted at action %d", w, planted)
	}
	if ana.Losses[w.Measure] != w.Loss || (w.Measure == rep.Measure) != (ana.TotalLoss == w.Loss) {
		t.Errorf("losses %v, total %v, the blunder lost %v %s", ana.Losses, ana.TotalLoss, w.Loss, w.Measure)
	}
	for _, d := range rep.Decisions {
		if d.Measure != advise.Soldiers && d.Measure != advise.WinProbability {
			t.Fatalf("decision %d has the measure %q", d.Action, d.Measure)
		}
	}
}

func TestAnalyzeDragonRefuses(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	rec, _, _ := dragonGame(t, v, "dragon refused")
	tampered := *rec
	tampered.Seed = dice.SeedFrom("another").Hex()
	if _, err := advise.Analyze(&tampered, game.DefaultCast()); !errors.Is(err, game.ErrDiscrepancy) {
		t.Errorf("a record whose seed is not its commitment's: %v", err)
	}
	_, steps, err := game.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	adv, err := game.DefaultCast().Advisor(v, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := advise.AnalyzeSteps(v, rec.Players[:1], steps, adv); err == nil {
		t.Error("the steps of a two-player game analysed for one player")
	}
	f, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		t.Fatal(err)
	}
	ordinary := game.NewRecord(f, []string{"a", "b"}, dice.SeedFrom("x"))
	if _, err := advise.Analyze(ordinary, game.DefaultCast()); err == nil {
		t.Error("an ordinary record analysed as Dragon Farkle")
	}
}

// BenchmarkAnalyzeDragon is the analysis of a whole two-player game of
// Dragon Farkle: the verification, the bots' tables and every decision.
func BenchmarkAnalyzeDragon(b *testing.B) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	rec, _, _ := dragonGame(b, v, "dragon bench")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := advise.Analyze(rec, game.DefaultCast()); err != nil {
			b.Fatal(err)
		}
	}
}
