package tui

import (
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/rules"
)

// goldenDragonModel is a model of a game whose bots play at once, without
// colours, not yet sized (teatest sends the size).
func goldenDragonModel(t *testing.T, g *DragonGame) *DragonModel {
	t.Helper()
	return NewDragon(DragonOptions{Game: g})
}

func TestGoldenDragonChoose(t *testing.T) {
	seed := dragonSeed(t, "golden-choose", "you,bot:smart", youStart)
	m := goldenDragonModel(t, newDragonGame(t, "you,bot:smart", seed, ""))
	goldenScreen(t, m, 80, 30, screenStep{"", "Choose your action"})
}

// TestGoldenDragonRally: a recruiting throw with a Rally; a scoring die is
// chosen and r asks for the reward.
func TestGoldenDragonRally(t *testing.T) {
	seed := dragonSeed(t, "golden-rally", "you,bot:smart", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && v.Event == dragon.Rally && v.Throw.Count(1) > 0
	})
	g := newDragonGame(t, "you,bot:smart", seed, "")
	m := goldenDragonModel(t, g)
	// The same game, played ahead, tells where the first 1 will be.
	probe := newDragonGame(t, "you,bot:smart", seed, "")
	probe.Do(dragon.Recruit())
	one := faceKeys(t, probe.View(0).Throw.Faces(), dice.Of(1))[0]
	goldenScreen(t, m, 80, 32,
		screenStep{"", "Choose your action"},
		screenStep{"r", "rally"},
		screenStep{one, "chosen 1"},
		screenStep{"r", "Rally! Your reward"})
}

// battleGame returns a game of seats (the first a person, the second a
// bot) where the first player, armed with 6,000 soldiers, goes into the
// Final Battle on a throw that will wound the dragon.
func battleGame(t *testing.T, seats string) *DragonGame {
	t.Helper()
	arm := func(g *DragonGame) {
		g.setState(func(s *dragon.State) {
			s.Stockpile -= 6000
			s.Players[0].Soldiers = 6000
		})
	}
	seed := dragonSeed(t, "golden-battle", seats, func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		arm(g)
		g.Do(dragon.Battle())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && v.Damage == 1 && firstKeepAction(v).Kind != 0
	})
	g := newDragonGame(t, seats, seed, "")
	arm(g)
	return g
}

// TestGoldenDragonBattle: the Final Battle after a throw that wounded the
// dragon.
func TestGoldenDragonBattle(t *testing.T) {
	m := goldenDragonModel(t, battleGame(t, "you,bot:smart"))
	goldenScreen(t, m, 80, 32,
		screenStep{"", "Choose your action"},
		screenStep{"f", "1 of 3 damage"})
}

func TestGoldenDragonHelp(t *testing.T) {
	m := goldenDragonModel(t, newDragonGame(t, "you,bot:smart", dice.SeedFrom("help"), ""))
	goldenScreen(t, m, 80, 100, screenStep{"?", "Soldiers (melds"})
}

// TestGoldenDragonForcedKeep: the Dragon shows while recruiting; its
// scoring dice are chosen for the player and the screen says why.
func TestGoldenDragonForcedKeep(t *testing.T) {
	seed := dragonFaceSeed(t, "golden-forced")
	m := goldenDragonModel(t, newDragonGame(t, "you,bot:smart", seed, ""))
	goldenScreen(t, m, 80, 30,
		screenStep{"", "Choose your action"},
		screenStep{"r", "must be set aside"},
		screenStep{"1", "the Dragon chose these dice: they cannot be unchosen"})
}

// TestGoldenSetupDragon: the setup screen with Dragon Farkle chosen.
func TestGoldenSetupDragon(t *testing.T) {
	m := plainModel(t, Options{Rules: rules.MustPreset("classic")})
	goldenScreen(t, m, 80, 24, screenStep{"left", "Dragon Farkle"}, screenStep{"down", "▶ Players"})
}

// TestGoldenDragonBrawlShow: the first step of a brawl shown at the
// bots' pace: the challenger's throw, the soldiers and the log as before.
func TestGoldenDragonBrawlShow(t *testing.T) {
	seed := dragonSeed(t, "golden-brawl", "you,bot:smart", func(g *DragonGame) bool {
		return g.Turn() == 0 && hasKind(g.View(0).Legal, dragon.ActBrawl)
	})
	g := newDragonGame(t, "you,bot:smart", seed, "")
	m := NewDragon(DragonOptions{Game: g, BotDelay: time.Hour})
	goldenScreen(t, m, 80, 24,
		screenStep{"", "Choose your action"},
		screenStep{"b", "throw for the brawl"})
}
