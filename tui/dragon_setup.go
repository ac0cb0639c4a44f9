package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
)

// dragonSetup offers Dragon Farkle on the setup screen: its preset's
// rules and cards.
type dragonSetup struct{}

func init() { kindSetups[game.Dragon] = dragonSetup{} }

func (dragonSetup) title() string { return "Dragon Farkle" }

func (dragonSetup) describe(c *lang.Catalogue, v game.Variant) string {
	lo, hi := v.Seats()
	return c.Msg("setup.dragon", "players", playersText(c, lo, hi))
}

func (dragonSetup) countError(c *lang.Catalogue, n, lo, hi int) string {
	return c.Msg("setup.err.countDragon", "n", n, "min", lo, "max", hi)
}

// dragonLevelText are the keys of the descriptions of the bot levels of
// Dragon Farkle.
var dragonLevelText = map[string]string{
	"random": "setup.dragonBot.random",
	"simple": "setup.dragonBot.simple",
	"smart":  "setup.dragonBot.smart",
}

func (dragonSetup) levelText(c *lang.Catalogue, level string) string {
	return c.Msg(dragonLevelText[level])
}

func (dragonSetup) rulesText(c *lang.Catalogue, v game.Variant, width int) []string {
	return DragonRulesTextIn(c, v.(*game.DragonVariant).Game(), width) // this view's own variant
}

// start starts the game of Dragon Farkle chosen on the setup screen with
// seats, saved in the games directory, and hands the screen to its model.
// The dice seed is the options' seed.
func (dragonSetup) start(m *Model, v game.Variant, seats []Seat) tea.Cmd {
	path := m.savePath(seats, DragonGamePath)
	dg, err := startDragon(v.(*game.DragonVariant), seats, [32]byte(m.o.Seed), path, m.o.Now) // this view's own variant
	if err != nil {
		m.startErr = err
		m.setup.err = err.Error()
		return nil
	}
	m.dragon = NewDragon(DragonOptions{Game: dg, BotDelay: m.o.BotDelay, FarkleHold: m.o.FarkleHold, Lang: m.o.Lang})
	m.dragon.st = m.st // the terminal's background is known by now
	m.dragon.Update(tea.WindowSizeMsg{Width: m.width, Height: m.height})
	return m.dragon.Init()
}

// DragonGame returns the game of Dragon Farkle started from the setup
// screen, nil if none was.
func (m *Model) DragonGame() *DragonGame {
	if m.dragon == nil {
		return nil
	}
	return m.dragon.g
}
