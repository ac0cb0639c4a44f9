package main

import (
	"context"
	"sync"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/sim"
	"github.com/farkle/farkle/solved"
)

// TestAnalysisMomentsSayWhere: each costly moment of the server's
// analysis carries its position, and that position is one the explorer
// takes (the end screen links it there).
func TestAnalysisMomentsSayWhere(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Game.Target = 2000
	r.Turn.FarklePenalty = rules.Penalty{}
	ts := solved.NewTables("")
	var mu sync.Mutex
	var recs []*game.Record
	_, err := sim.Run(context.Background(), sim.Config{Rules: r, Players: []string{"reckless", "cautious"}, Games: 4, Seed: dice.SeedFrom("where"), Tables: ts,
		Record: func(_ int, rec *game.Record) error { mu.Lock(); recs = append(recs, rec); mu.Unlock(); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := ts.Solo(r)
	if err != nil {
		t.Fatal(err)
	}
	check, err := advise.New(r, nil, pol)
	if err != nil {
		t.Fatal(err)
	}
	a := newServeAdvisor(ts, false)
	moments := 0
	for _, rec := range recs {
		an, err := a.Analyze(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range an.Players {
			for _, m := range p.Worst {
				moments++
				if m.Where == nil {
					t.Fatalf("moment %+v has no position", m)
				}
				pos := advise.Position{Me: m.Where.Me, Them: m.Where.Them, Total: m.Where.Turn, Dice: m.Where.Dice}
				if len(m.Where.Throw) > 0 {
					pos.Throw = dice.Of(m.Where.Throw...)
				}
				if err := check.Check(pos); err != nil {
					t.Errorf("moment %+v: the explorer would refuse its position: %v", m, err)
				}
			}
		}
	}
	if moments == 0 {
		t.Fatal("no costly moments in four games of reckless against cautious")
	}
}
