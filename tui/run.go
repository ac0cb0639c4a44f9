package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
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
	m := New(o)
	err := runProgram(ctx, m, in, out)
	if m.game != nil && !m.quitting {
		// Stopped from outside (ctx, a signal): save all the same.
		m.game.saved = m.game.Save()
	}
	if m.dragon != nil && !m.dragon.quitting {
		m.dragon.g.saved = m.dragon.g.Save()
	}
	return m.game, m.DragonGame(), err
}

// runProgram runs m on the terminal of in and out until it quits, with the
// colours the terminal and the environment allow (colorProfile). A program
// stopped by the end of ctx is no error.
func runProgram(ctx context.Context, m tea.Model, in io.Reader, out io.Writer) error {
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithColorProfile(colorProfile(out, os.Environ())))
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil
	}
	return err
}

// colorProfile returns the colours the program may use on out under the
// environment environ ("KEY=value" entries): what the terminal supports
// (colorprofile.Detect), and no colours when NO_COLOR is set to anything
// but "" (https://no-color.org), bold and borders staying. Detect alone
// honours only NO_COLOR values that read as true.
func colorProfile(out io.Writer, environ []string) colorprofile.Profile {
	p := colorprofile.Detect(out, environ)
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "NO_COLOR="); ok && v != "" {
			p = min(p, colorprofile.ASCII)
		}
	}
	return p
}

// RunModel runs a model of this package (a LobbyModel, say) on the
// terminal of in and out until it quits.
func RunModel(ctx context.Context, m tea.Model, in io.Reader, out io.Writer) error {
	return runProgram(ctx, m, in, out)
}
