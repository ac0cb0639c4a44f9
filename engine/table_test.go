package engine

import (
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// TestTableForSharesByScoring: the keep table is one per dice and scoring
// table. Rule sets that differ only in the target, the players or other
// turn and game rules share it; a different scoring table gets its own,
// built for that scoring.
func TestTableForSharesByScoring(t *testing.T) {
	base := rules.MustPreset("classic")
	same := map[string]func(r *rules.Rules){
		"target":  func(r *rules.Rules) { r.Game.Target = 2500 },
		"players": func(r *rules.Rules) { r.Game.MinPlayers, r.Game.MaxPlayers = 2, 3 },
		"turn":    func(r *rules.Rules) { r.Turn.HotDice, r.Turn.EntryMinimum = false, 500 },
		"name":    func(r *rules.Rules) { r.Name = "house" },
	}
	tab := TableFor(base)
	for name, edit := range same {
		r := base.Clone()
		edit(&r)
		if got := TableFor(r); got != tab {
			t.Errorf("%s: another keep table for the same dice and scoring", name)
		}
		s, err := New(r, []string{"ana", "bob"})
		if err != nil {
			t.Fatal(err)
		}
		if s.Table() != tab {
			t.Errorf("%s: the game has another keep table", name)
		}
		if s.Rules().Game.Target != r.Game.Target {
			t.Errorf("%s: the game's target is %d, want %d", name, s.Rules().Game.Target, r.Game.Target)
		}
	}
	differ := map[string]func(r *rules.Rules){
		"six_dice_nothing": func(r *rules.Rules) { r.Scoring.SixDiceNothing = 500 },
		"no single 5":      func(r *rules.Rules) { r.Scoring.Single = map[string]int{"1": 100} },
		"dice":             func(r *rules.Rules) { r.Dice = 5 },
	}
	for name, edit := range differ {
		r := base.Clone()
		edit(&r)
		got := TableFor(r)
		if got == tab {
			t.Errorf("%s: shares the classic keep table", name)
			continue
		}
		// The table is the one of these scoring rules.
		want := dice.NewTable(r)
		for _, h := range dice.AllThrows() {
			if h.N() <= r.Dice && got.Best(h) != want.Best(h) {
				t.Errorf("%s: best keep of %s is %d, want %d", name, h, got.Best(h), want.Best(h))
				break
			}
		}
		if got.Odds(r.Dice) != want.Odds(r.Dice) {
			t.Errorf("%s: odds %+v, want %+v", name, got.Odds(r.Dice), want.Odds(r.Dice))
		}
	}
}

// TestTableForIsBounded: keep tables of more distinct scorings than
// maxTables do not all stay: the cache holds at most maxTables, a game
// keeps the table it started with whatever the cache forgets, and a
// scoring used again is still shared while it is among the recent.
func TestTableForIsBounded(t *testing.T) {
	base := rules.MustPreset("classic")
	first, err := New(base, []string{"ana", "bob"})
	if err != nil {
		t.Fatal(err)
	}
	held := first.Table()
	for i := range maxTables + 50 {
		r := base.Clone()
		r.Scoring.SixDiceNothing = 50 * (i + 1) // a scoring of its own
		TableFor(r)
		TableFor(base) // used again and again: never the least recent
	}
	if n := tables.len(); n > maxTables {
		t.Fatalf("%d keep tables kept, at most %d", n, maxTables)
	}
	if TableFor(base) != held {
		t.Fatal("the scoring used throughout was forgotten")
	}
	r := base.Clone()
	r.Scoring.SixDiceNothing = 50 // the oldest of the loop: forgotten, built again
	if _, ok := tables.get(r.ScoringHash()); ok {
		t.Fatal("the least recently used scoring is still kept")
	}
	if first.Table() != held || first.Table().Odds(6) != dice.NewTable(base).Odds(6) {
		t.Fatal("a game lost its keep table")
	}
}

// BenchmarkTableFor: the keep table of rules already seen (a game's start).
func BenchmarkTableFor(b *testing.B) {
	r := rules.MustPreset("classic")
	TableFor(r)
	b.ReportAllocs()
	for b.Loop() {
		TableFor(r)
	}
}
