package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// chrome is the state both game models (Model, DragonModel) keep around
// the table: the message line, the quit question and the scroll of the
// help screen. It is embedded in both so that its keys behave alike.
type chrome struct {
	flash    string
	flashErr bool
	confirm  bool // asking whether to quit
	helpTop  int  // first line of the help screen shown
}

// note sets the message line.
func (c *chrome) note(isErr bool, format string, args ...any) {
	c.flash, c.flashErr = fmt.Sprintf(format, args...), isErr
}

// chromeKey says what chrome.tableKey made of a key.
type chromeKey uint8

const (
	chromePass chromeKey = iota // not a chrome key: the game handles it
	chromeDone                  // handled: nothing more to do
	chromeQuit                  // the player quits: save and end
	chromeHelp                  // open the help screen (at its top)
)

// tableKey handles the keys shared by the tables: the answer to the quit
// question, q and ?. Any other key clears the message line and passes;
// over says the game has ended (q then quits without asking).
func (c *chrome) tableKey(msg tea.KeyMsg, k keyMap, over bool) chromeKey {
	if c.confirm {
		switch {
		case key.Matches(msg, k.Yes):
			return chromeQuit
		case key.Matches(msg, k.No):
			c.confirm = false
		}
		return chromeDone
	}
	c.flash, c.flashErr = "", false
	switch {
	case key.Matches(msg, k.Quit):
		if over {
			return chromeQuit
		}
		c.confirm = true
		return chromeDone
	case key.Matches(msg, k.Help):
		c.helpTop = 0
		return chromeHelp
	}
	return chromePass
}

// helpKey scrolls the help screen, whose lines are lines(), in a window
// height lines high; it reports whether the key closes the help screen.
func (c *chrome) helpKey(msg tea.KeyMsg, k keyMap, lines func() []string, height int) (closed bool) {
	step := 1
	if msg.Type == tea.KeyPgUp || msg.Type == tea.KeyPgDown {
		step = max(1, height-3)
	}
	switch {
	case key.Matches(msg, k.Up):
		c.helpTop = max(0, c.helpTop-step)
	case key.Matches(msg, k.Down):
		c.helpTop = min(c.helpTop+step, max(0, len(lines())-height))
	case key.Matches(msg, k.Back, k.Help, k.Quit):
		return true
	}
	return false
}
