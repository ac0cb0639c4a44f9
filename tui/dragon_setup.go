package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dragon"
)

// startDragon starts the game of Dragon Farkle chosen on the setup screen
// (its default rules and cards) with seats, saved in the games directory,
// and hands the screen to its model. The dice seed is the options' seed.
func (m *Model) startDragon(seats []Seat) tea.Cmd {
	g, err := dragon.NewGame(m.setup.dragon, dragon.DefaultCards())
	if err == nil {
		path := ""
		if m.o.GamesDir != "" {
			names := make([]string, len(seats))
			for i, s := range seats {
				names[i] = s.Name
			}
			path = DragonGamePath(m.o.GamesDir, m.o.Now(), names)
		}
		var dg *DragonGame
		if dg, err = NewDragonGame(g, seats, [32]byte(m.o.Seed), path, m.o.Now); err == nil {
			m.dragon = NewDragon(DragonOptions{Game: dg, BotDelay: m.o.BotDelay, FarkleHold: m.o.FarkleHold, Lang: m.o.Lang})
			m.dragon.st = m.st // the terminal's background is known by now
			m.dragon.Update(tea.WindowSizeMsg{Width: m.width, Height: m.height})
			return m.dragon.Init()
		}
	}
	m.startErr = err
	m.setup.err = err.Error()
	return nil
}

// DragonGame returns the game of Dragon Farkle started from the setup
// screen, nil if none was.
func (m *Model) DragonGame() *DragonGame {
	if m.dragon == nil {
		return nil
	}
	return m.dragon.g
}
