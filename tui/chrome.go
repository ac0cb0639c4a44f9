package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/farkle/farkle/lang"
)

// chrome is the state both game models (Model, DragonModel) keep around
// the table: the message line, the quit question and the scroll of the
// help screen. It is embedded in both so that its keys behave alike.
type chrome struct {
	flash    string
	flashErr bool
	confirm  bool            // asking whether to quit
	helpTop  int             // first line of the help screen shown
	mouseOff bool            // the player turned the mouse off (m), for the terminal's text selection
	lc       *lang.Catalogue // the language of the table's texts; nil: English
	logBack  int             // lines the log is scrolled back from its end (PgUp/PgDn)
}

// logStep is how many lines PgUp and PgDn scroll the log.
const logStep = 5

// logWindow returns the lines of log to show in room lines under its
// head: the last ones, or those logBack lines before the end while the
// player scrolls back (logBack is kept within the log).
func (c *chrome) logWindow(log []string, room int) []string {
	n := min(len(log), room)
	c.logBack = max(0, min(c.logBack, len(log)-n))
	end := len(log) - c.logBack
	return log[end-n : end]
}

// logHead is the log's head: "log", or "log · 10 lines back" while it is
// scrolled, and "PgUp/PgDn" when there is more than shows.
func (c *chrome) logHead(total, shown int) string {
	lc := c.tr()
	switch {
	case c.logBack > 0:
		return lc.Msg("tui.logBack", "n", c.logBack)
	case total > shown:
		return lc.Msg("tui.logMore")
	}
	return lc.Msg("tui.log")
}

// panelHead is the head of a panel under the table (the log, the hint):
// its title in a rule across the whole width of the window.
func panelHead(st styles, title string, width int) string {
	head := "─ " + title + " "
	return st.dim.Render(head + strings.Repeat("─", max(0, width-lipgloss.Width(head))))
}

// tr returns the language of the table's texts.
func (c *chrome) tr() *lang.Catalogue { return orEnglish(c.lc) }

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
func (c *chrome) tableKey(msg tea.KeyPressMsg, k keyMap, over bool) chromeKey {
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
	switch msg.Code {
	case tea.KeyPgUp:
		c.logBack += logStep
		return chromeDone
	case tea.KeyPgDown:
		c.logBack = max(0, c.logBack-logStep)
		return chromeDone
	}
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

// settingKey handles the keys that change how the table plays rather
// than the game: m turns the mouse off or on, + and - change the bots'
// pace (delay). It reports whether msg was one of them.
func (c *chrome) settingKey(msg tea.KeyPressMsg, k keyMap, delay *time.Duration) bool {
	if key.Matches(msg, k.Mouse) {
		c.mouseOff = !c.mouseOff
		c.note(false, "%s", mouseNoteIn(c.tr(), c.mouseOff))
		return true
	}
	if d := paceKey(msg, k); d != 0 {
		*delay = stepPace(*delay, d)
		c.note(false, "%s", c.tr().Msg("tui.paceKeys", "pace", paceNoteIn(c.tr(), *delay)))
		return true
	}
	return false
}

// click handles a left click at c on a table drawn as l: on a die of sel
// it chooses or unchooses it (unless refuse says why not), on a button it
// presses the button's key through press.
func (c *chrome) click(at tea.Mouse, l *layout, sel *diceSelection, refuse func() string, press func(tea.Msg) (tea.Model, tea.Cmd)) tea.Cmd {
	if at.Button != tea.MouseLeft {
		return nil
	}
	die, k := l.hit(at.X, at.Y)
	switch {
	case die >= 0:
		c.flash, c.flashErr = "", false
		sel.clickDie(die, refuse, c.note)
	case k != "":
		_, cmd := press(clickKey(k))
		return cmd
	}
	return nil
}

// helpKey scrolls the help screen, whose lines are lines(), in a window
// height lines high; it reports whether the key closes the help screen.
func (c *chrome) helpKey(msg tea.KeyPressMsg, k keyMap, lines func() []string, height int) (closed bool) {
	step := 1
	if msg.Code == tea.KeyPgUp || msg.Code == tea.KeyPgDown {
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

// narrowViewIn is narrowView in the language of c.
func narrowViewIn(c *lang.Catalogue, game string, width, height int) string {
	msg := orEnglish(c).Msg("tui.narrow", "game", game, "min", MinWidth, "width", width)
	return fit(strings.Join(wrap(msg, max(width, 10), ""), "\n"), max(width, 10), height)
}

// helpKeys returns the top of a help screen width columns wide: its title
// and the list of keys, each keys[i] a pair of the keys and what they do,
// then an empty line (the game's rules follow).
func helpKeys(st styles, width int, keys [][2]string) []string {
	return helpKeysIn(nil, st, width, keys)
}

// helpKeysIn is helpKeys in the language of c.
func helpKeysIn(c *lang.Catalogue, st styles, width int, keys [][2]string) []string {
	c = orEnglish(c)
	lines := []string{st.title.Render(c.Msg("tui.help.title")) + st.dim.Render("  ("+c.Msg("tui.help.scroll")+")"), "", c.Msg("tui.help.keys")}
	for _, kw := range keys {
		head := fmt.Sprintf("  %-14s ", kw[0])
		for i, l := range wrap(kw[1], width-17, "") {
			if i > 0 {
				head = strings.Repeat(" ", 17)
			}
			lines = append(lines, head+l)
		}
	}
	return append(lines, "")
}

// helpPage returns the help screen's lines from the scroll position on.
func (c *chrome) helpPage(lines []string) string {
	return strings.Join(lines[min(c.helpTop, len(lines)):], "\n")
}
