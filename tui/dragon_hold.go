package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The farkle moment in Dragon Farkle, as in the ordinary game (Model.held):
// a person's farkle, or the end of their Final Battle, stays on the table
// with its dead dice until a key, or for DragonOptions.FarkleHold. Locally
// the bots wait; at a server, whose game goes on, the server's words wait
// here in order and are shown once the player goes on, or at once when one
// asks this seat to act (its clock runs), ends the game, refuses, or the
// link drops.

// dragonReleaseMsg ends the hold gen after its time.
type dragonReleaseMsg struct{ gen int }

// maxQueued bounds the server's words that wait while a farkle is held: at
// the bound the hold ends and they are shown.
const maxQueued = 256

// releases reports whether a word of the server ends a hold at once.
func releases(msg remoteMsg, you int) bool {
	u := msg.u
	return msg.err != nil || u.Refused != "" || u.Game != nil && (u.Game.Over() || you >= 0 && u.Game.ToAct() == you)
}

// hold holds the table after seat's farkle when a person at this keyboard
// played it.
func (m *DragonModel) hold(seat int) {
	if m.held || seat < 0 || seat >= len(m.g.seats) {
		return
	}
	person := !m.g.seats[seat].IsBot()
	if m.online != nil {
		person = seat == m.online.you
	}
	if person {
		m.held = true
		m.holdGen++
	}
}

// unholdIfDue ends a hold nobody waits for: the game is over, or it is a
// person's decision here (locally: no bot is to play).
func (m *DragonModel) unholdIfDue() {
	if !m.held {
		return
	}
	due := m.g.Over()
	if m.online == nil {
		due = due || !m.g.BotToAct()
	} else {
		due = due || m.online.you >= 0 && m.g.ToAct() == m.online.you
	}
	if due {
		m.held = false
	}
}

// holdTick returns the command that ends the hold after its time; nil
// when it lasts until a key.
func (m *DragonModel) holdTick() tea.Cmd {
	if m.o.FarkleHold <= 0 {
		return nil
	}
	gen := m.holdGen
	return tea.Tick(m.o.FarkleHold, func(time.Time) tea.Msg { return dragonReleaseMsg{gen: gen} })
}

// release ends the hold: the server's words that waited are shown in
// order, and the bots play on.
func (m *DragonModel) release() tea.Cmd {
	m.held = false
	q := m.queued
	m.queued = nil
	cmds := make([]tea.Cmd, 0, len(q)+1)
	for _, msg := range q {
		cmds = append(cmds, m.take(msg))
	}
	return tea.Batch(append(cmds, m.after())...)
}
