package tui

import tea "charm.land/bubbletea/v2"

// The farkle moment in Dragon Farkle (farkleHold, as in the ordinary game):
// a person's farkle, or the end of their Final Battle, stays on the table
// with its dead dice until a key, or for DragonOptions.FarkleHold. Locally
// the bots wait; at a server, the server's words wait (farkleHold.wait).

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
		m.start()
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

// releaseHeld ends the hold: the server's words that waited are shown in
// order, and the bots play on.
func (m *DragonModel) releaseHeld() tea.Cmd {
	return m.releaseTo(m.onlineSeat(), m.take, m.after)
}

// onlineSeat is this terminal's seat at a server, -1 for a watcher or a
// local game.
func (m *DragonModel) onlineSeat() int {
	if m.online == nil {
		return -1
	}
	return m.online.you
}
