package rating

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/sim"
)

// TestAnchorsCoverEveryLevel: every bot level has its fixed rating, the
// base levels are at 1500, and the perfect bot is at the top.
func TestAnchorsCoverEveryLevel(t *testing.T) {
	for _, fl := range []struct {
		f      Family
		levels []string
	}{{Ordinary, bot.LevelNames()}, {House, bot.LevelNames()}, {Dragon, dragon.Levels()}} {
		for _, l := range fl.levels {
			if _, ok := Anchor(fl.f, l); !ok {
				t.Errorf("%s level %s has no anchor: run go generate ./rating", fl.f, l)
			}
		}
		if len(anchors[fl.f]) > 0 && len(anchors[fl.f]) != len(fl.levels) {
			t.Errorf("%s: %d anchors for %d levels", fl.f, len(anchors[fl.f]), len(fl.levels))
		}
	}
	for f, base := range AnchorBase {
		if a, _ := Anchor(f, base); a.R != Initial {
			t.Errorf("%s base %s is rated %.1f, not %v", f, base, a.R, Initial)
		}
	}
	top := ""
	for l, a := range anchors[Ordinary] {
		if top == "" || a.R > anchors[Ordinary][top].R {
			top = l
		}
	}
	if top != "perfect" {
		t.Errorf("the top of the ordinary bots is %s, not perfect", top)
	}
}

// TestAnchorsPredictFreshGames plays pairs of levels again with another
// seed than the anchors were fitted with: each pair's score must be
// within four standard errors of what the anchors predict. (The perfect
// and expert bots are left out: their tables take minutes to solve.)
func TestAnchorsPredictFreshGames(t *testing.T) {
	const games = 2000
	pairs := [][2]string{{"steady", "reckless"}, {"cautious", "bold"}, {"bold", "steady"}}
	if testing.Short() {
		pairs = pairs[:1]
	}
	for _, pr := range pairs {
		res, err := sim.Run(context.Background(), sim.Config{Rules: rules.MustPreset("classic"), Players: pr[:], Games: games, Seed: dice.SeedFrom("anchors-check")})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Players[0]
		score := (float64(p.Wins-p.Shared) + float64(p.Shared)/2) / games
		a, _ := Anchor(Ordinary, pr[0])
		b, _ := Anchor(Ordinary, pr[1])
		e := Expected(a, b)
		se := math.Sqrt(e * (1 - e) / games)
		if math.Abs(score-e) > 4*se {
			t.Errorf("%s against %s scored %.3f of each game; the anchors predict %.3f ± %.3f", pr[0], pr[1], score, e, 4*se)
		}
	}
	for _, pr := range [][2]string{{"simple", "random"}, {"smart", "simple"}} {
		v, _ := game.Preset("dragon")
		res, err := sim.Run(context.Background(), sim.Config{Variant: v, Players: pr[:], Games: games / 2, Seed: dice.SeedFrom("anchors-check")})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Players[slices.IndexFunc(res.Players, func(q sim.Player) bool { return q.Level == pr[0] })]
		score := (float64(p.Wins-p.Shared) + float64(p.Shared)/2) / (games / 2)
		a, _ := Anchor(Dragon, pr[0])
		b, _ := Anchor(Dragon, pr[1])
		e := Expected(a, b)
		se := math.Sqrt(e * (1 - e) / (games / 2))
		if math.Abs(score-e) > 4*se {
			t.Errorf("dragon %s against %s scored %.3f of each game; the anchors predict %.3f ± %.3f", pr[0], pr[1], score, e, 4*se)
		}
	}
}
