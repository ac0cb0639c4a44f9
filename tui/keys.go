package tui

import "charm.land/bubbles/v2/key"

// keyMap holds the key bindings of the table and the setup screen.
type keyMap struct {
	Dice, Left, Right, Toggle, Throw, Bank, Hint, Undo, Help, Quit, Skip, Back, Yes, No, Force, Mouse key.Binding
	Faster, Slower, Again                                                                             key.Binding
	Up, Down, Start                                                                                   key.Binding
}

func newKeys() keyMap {
	return keyMap{
		Dice:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6"), key.WithHelp("1-6", "choose die")),
		Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "move")),
		Right:  key.NewBinding(key.WithKeys("right")),
		Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "choose")),
		Throw:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "throw")),
		Bank:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "bank")),
		Hint:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint")),
		Undo:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo")),
		Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:   key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Skip:   key.NewBinding(key.WithKeys("s", "enter"), key.WithHelp("s", "skip ahead")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Yes:    key.NewBinding(key.WithKeys("y", "Y", "q"), key.WithHelp("y", "yes")),
		No:     key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "no")),
		Force:  key.NewBinding(key.WithKeys("ctrl+c")),
		Mouse:  key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mouse on/off")),
		Faster: key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "bots faster")),
		Slower: key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "bots slower")),
		Again:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play again")),
		Up:     key.NewBinding(key.WithKeys("up", "k", "pgup"), key.WithHelp("↑/↓", "move")),
		Down:   key.NewBinding(key.WithKeys("down", "j", "pgdown", "tab")),
		Start:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "start")),
	}
}
