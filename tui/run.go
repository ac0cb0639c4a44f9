package tui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run plays the game of o full-screen on the terminal (keys from in, the
// screen to out) until the player quits, and returns the game, nil when the
// setup screen was left without starting one. The game has been saved.
func Run(ctx context.Context, o Options, in io.Reader, out io.Writer) (*Game, error) {
	g, _, err := RunSetup(ctx, o, in, out)
	return g, err
}

// RunSetup is Run for a screen that may start either game: it returns the
// ordinary game, or the Dragon Farkle game chosen on the setup screen
// (one of them nil, or both when none was started).
func RunSetup(ctx context.Context, o Options, in io.Reader, out io.Writer) (*Game, *DragonGame, error) {
	if o.Renderer == nil {
		o.Renderer = lipgloss.NewRenderer(out)
	}
	m := New(o)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	_, err := p.Run()
	if m.game != nil && !m.quitting {
		// Stopped from outside (ctx, a signal): save all the same.
		m.game.saved = m.game.Save()
	}
	if m.dragon != nil && !m.dragon.quitting {
		m.dragon.g.saved = m.dragon.g.Save()
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil
	}
	return m.game, m.DragonGame(), err
}
