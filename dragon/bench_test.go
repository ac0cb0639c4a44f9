package dragon

import (
	"testing"

	"github.com/farkle/farkle/dice"
)

func BenchmarkApplyRecruitThrow(b *testing.B) {
	g := testGame(b, DefaultCards())
	src := dice.NewSource(dice.SeedFrom("1"))
	s, _, _ := g.New([]string{"a", "b", "c"}, src)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := g.Apply(s, Recruit(), src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyKeep(b *testing.B) {
	g := testGame(b, DefaultCards())
	s, _, _ := g.New([]string{"a", "b", "c"}, dice.NewSource(dice.SeedFrom("1")))
	s, _, _ = g.Apply(s, Recruit(), script(throwFaces("115234", blank)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := g.Apply(s, Keep(h("11")), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLegal(b *testing.B) {
	g := testGame(b, DefaultCards())
	s, _, _ := g.New([]string{"a", "b", "c"}, dice.NewSource(dice.SeedFrom("1")))
	s, _, _ = g.Apply(s, Recruit(), script(throwFaces("115555", rally)))
	b.ReportAllocs()
	for b.Loop() {
		if len(g.Legal(s)) == 0 {
			b.Fatal("no legal actions")
		}
	}
}

func BenchmarkView(b *testing.B) {
	g := testGame(b, DefaultCards())
	s, _, _ := g.New([]string{"a", "b", "c"}, dice.NewSource(dice.SeedFrom("1")))
	b.ReportAllocs()
	for b.Loop() {
		_ = g.View(s, s.Turn)
	}
}

func BenchmarkBotGame(b *testing.B) {
	g := testGame(b, DefaultCards())
	brains := NewBrains(g)
	bots := []*Bot{NewBot(Smart, brains), NewBot(Smart, brains), NewBot(Simple, brains)}
	names := []string{"a", "b", "c"}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		if _, _, _, err := playGame(g, names, bots, GameSeed(dice.SeedFrom("1"), i), DefaultMaxRounds); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBattleOdds(b *testing.B) {
	r := DefaultRules()
	b.ReportAllocs()
	for b.Loop() {
		NewBattleOdds(r, DefaultOddsMax)
	}
}

func BenchmarkNewBrains(b *testing.B) {
	g := testGame(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		NewBrains(g)
	}
}

func BenchmarkParseCards(b *testing.B) {
	data := DefaultCardsTOML()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseCards(data); err != nil {
			b.Fatal(err)
		}
	}
}
