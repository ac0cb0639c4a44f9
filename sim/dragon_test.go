package sim

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// dragonVariant is Dragon Farkle under r and the default cards.
func dragonVariant(t testing.TB, r dragon.Rules) game.Variant {
	t.Helper()
	g, err := dragon.NewGame(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return game.NewDragon(g)
}

// TestRunDragon: a tournament of Dragon Farkle is played as every
// tournament is: every game has its winners, the result does not depend
// on the workers, the seed changes it, and Smart beats Random.
func TestRunDragon(t *testing.T) {
	v := dragonVariant(t, dragon.DefaultRules())
	res, err := Run(context.Background(), Config{Variant: v, Players: []string{"smart", "random"}, Games: 200, Seed: dice.SeedFrom("1")})
	if err != nil {
		t.Fatal(err)
	}
	sole, shared := 0, 0
	for _, p := range res.Players {
		sole += p.Wins - p.Shared
		shared += p.Shared
		if p.CI95[0] > p.WinRate || p.CI95[1] < p.WinRate {
			t.Errorf("interval %v misses %v", p.CI95, p.WinRate)
		}
		if p.MeanTurns < 1 || p.MeanScore <= 0 {
			t.Errorf("%s: %.1f turns, %.0f soldiers a game", p.Name, p.MeanTurns, p.MeanScore)
		}
	}
	if sole > 200 || 2*(200-sole) > shared || res.Games != 200 || res.Rules != v.Name() {
		t.Fatalf("%d sole wins, %d shared, in %d games of %q", sole, shared, res.Games, res.Rules)
	}
	if res.Players[0].Name != "smart" || res.Players[1].Name != "random" {
		t.Errorf("names %q, %q", res.Players[0].Name, res.Players[1].Name)
	}
	// Smart wins about 0.9 against random (3,000 games); in these 200 its
	// 95% interval must lie above three games in four.
	if res.Players[0].CI95[0] < 0.75 {
		t.Errorf("smart won only %.2f against random (interval from %.2f)", res.Players[0].WinRate, res.Players[0].CI95[0])
	}
	cfg := Config{Variant: v, Players: []string{"simple", "smart", "random"}, Games: 60, Seed: dice.SeedFrom("9"), Workers: 1}
	one, _ := Run(context.Background(), cfg)
	cfg.Workers = 2
	two, _ := Run(context.Background(), cfg)
	if !reflect.DeepEqual(one, two) {
		t.Fatalf("the result depends on the workers:\n%+v\n%+v", one, two)
	}
	cfg.Seed = dice.SeedFrom("10")
	if other, _ := Run(context.Background(), cfg); reflect.DeepEqual(one.Players, other.Players) {
		t.Fatal("the seed changes nothing")
	}
	for _, bad := range [][]string{{"smart"}, {"smart", "genius"}, {"a", "b", "c", "d", "e", "f"}} {
		if _, err := Run(context.Background(), Config{Variant: v, Players: bad, Games: 1}); !errors.Is(err, ErrConfig) {
			t.Errorf("players %q: %v", bad, err)
		}
	}
	if _, err := Run(context.Background(), Config{Variant: v, Players: []string{"smart", "smart"}}); !errors.Is(err, ErrConfig) {
		t.Error("0 games accepted")
	}
}

func TestSmartBeatsSimple(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 3000 games")
	}
	res, err := Run(context.Background(), Config{Variant: dragonVariant(t, dragon.DefaultRules()), Players: []string{"smart", "simple"}, Games: 3000, Seed: dice.SeedFrom("4")})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[0]
	t.Logf("smart %.3f [%.3f, %.3f]", p.WinRate, p.CI95[0], p.CI95[1])
	if p.CI95[0] <= 0.5 {
		t.Errorf("smart does not beat simple: %+v", p)
	}
}

// TestDragonRoundLimitAndCap: games under a round limit of 3 end by it;
// with a Stop hook (dragon.RoundCap) games end at its cap, counted and
// tallied with its winners, and recorded without an outcome.
func TestDragonRoundLimitAndCap(t *testing.T) {
	r := dragon.DefaultRules()
	r.RoundLimit = 3
	rounds, games := 0, 0
	_, err := Run(context.Background(), Config{Variant: dragonVariant(t, r), Players: []string{"random", "random"}, Games: 20, Seed: dice.SeedFrom("1"),
		Tally: func(_ int, g game.Game, _ []int, _ []game.Action, _ bool) {
			rounds += g.(*game.DragonGame).State().Round
			games++
		}})
	if err != nil {
		t.Fatal(err)
	}
	if games != 20 || float64(rounds)/20 > 4 {
		t.Fatalf("%d games with a round limit of 3 lasted %.1f rounds", games, float64(rounds)/20)
	}
	stopped := 0
	var records []*game.Record
	res, err := Run(context.Background(), Config{Variant: dragonVariant(t, dragon.DefaultRules()), Players: []string{"random", "random"}, Games: 10, Seed: dice.SeedFrom("cap"),
		Stop: func(g game.Game) ([]int, string) {
			if ws, ok := dragon.RoundCap(g.(*game.DragonGame).State(), 2); ok {
				return ws, "capped at two rounds"
			}
			return nil, ""
		},
		Tally: func(_ int, g game.Game, winners []int, _ []game.Action, wasStopped bool) {
			s := g.(*game.DragonGame).State()
			if wasStopped {
				stopped++
				best := max(s.Players[0].Soldiers, s.Players[1].Soldiers)
				for _, w := range winners {
					if s.Players[w].Soldiers != best {
						t.Errorf("winner %d has %d of %d soldiers", w, s.Players[w].Soldiers, best)
					}
				}
				if s.Round != 3 || g.Over() {
					t.Errorf("stopped in round %d (over %v)", s.Round, g.Over())
				}
			}
		},
		Record:  func(_ int, rec *game.Record) error { records = append(records, rec); return nil },
		Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	wins := 0
	for _, p := range res.Players {
		wins += p.Wins
	}
	if stopped == 0 || wins < 10 {
		t.Fatalf("%d games stopped, %d wins in 10 games", stopped, wins)
	}
	capped := 0
	for _, rec := range records {
		if rec.Meta.Extra["capped"] == "capped at two rounds" {
			capped++
			if rec.Meta.Winners != nil {
				t.Errorf("a capped game's record has winners %v", rec.Meta.Winners)
			}
		}
		if _, _, err := game.Verify(rec); err != nil {
			t.Errorf("a record does not verify: %v", err)
		}
	}
	if capped != stopped {
		t.Errorf("%d records say capped, %d games stopped", capped, stopped)
	}
}
