package tui

import (
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// The golden screens in Norwegian Bokmål: the table mid-game with the
// hint showing, the setup screen and the rules help (-update rewrites).

func norwegian() *lang.Catalogue { return lang.Get("nb") }

func TestGoldenNorwegianHint(t *testing.T) {
	seed := seedWhere(t, "golden-table", loneTwo)
	m := plainModel(t, Options{Lang: norwegian(), Rules: seatOrder("classic"), Seats: []Seat{{Name: "du"}, {Name: "steady", Bot: "steady"}}, Seed: seed})
	faces := dice.Throw(dice.NewSource(seed), 6).Faces()
	one := faceKeys(t, faces, dice.Of(1))[0]
	goldenScreen(t, m, 100, 35,
		screenStep{"", "trykk r for å kaste"},
		screenStep{"r", "velg poengterninger"},
		screenStep{"h", "tips: poeng nå (h skjuler)"},
		screenStep{one, "+100"})
}

func TestGoldenNorwegianSetup(t *testing.T) {
	m := plainModel(t, Options{Lang: norwegian(), Rules: rules.MustPreset("farkle-dice")})
	goldenScreen(t, m, 80, 24,
		screenStep{"down", ""}, screenStep{"right", "Spillere  ◀ 3 ▶"},
		screenStep{"down", ""}, screenStep{"down", "▶ Plass 2"})
}

func TestGoldenNorwegianHelp(t *testing.T) {
	m := plainModel(t, Options{Lang: norwegian(), Rules: rules.MustPreset("farkle-dice"), Seats: []Seat{{Name: "du"}, {Name: "steady", Bot: "steady"}}, Seed: dice.SeedFrom("help")})
	goldenScreen(t, m, 80, 52, screenStep{"?", "Poeng"})
}
