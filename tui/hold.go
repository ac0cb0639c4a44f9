package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// farkleHold is the farkle moment of both games (Model and DragonModel): a
// person's farkle stays on the table with its dead dice until a key, or
// for Options.FarkleHold. At a server, whose game goes on, the server's
// words wait here in order and are shown once the player goes on, or at
// once when one asks this seat to act (its clock runs), ends the game,
// refuses, or the link drops.
type farkleHold struct {
	held    bool        // a person's farkle is on the table
	holdGen int         // the hold a releaseMsg ends
	queued  []remoteMsg // online: the server's words that wait while a farkle is held
}

// releaseMsg ends the hold gen after its time.
type releaseMsg struct{ gen int }

// maxQueued bounds the server's words that wait while a farkle is held: at
// the bound the hold ends and they are shown.
const maxQueued = 256

// releases reports whether a word of the server ends a hold at once.
func releases(msg remoteMsg, you int) bool {
	u := msg.u
	return msg.err != nil || u.Refused != "" || u.Game != nil && (u.Game.Over() || you >= 0 && u.Game.ToAct() == you)
}

// start holds the table (a hold already on goes on).
func (h *farkleHold) start() {
	if !h.held {
		h.held = true
		h.holdGen++
	}
}

// wait keeps the server's word while the table is held and reports
// whether it waits; false: on at once (the word is kept last, for release).
func (h *farkleHold) wait(msg remoteMsg, you int) bool {
	h.queued = append(h.queued, msg)
	return len(h.queued) < maxQueued && !releases(msg, you)
}

// word handles the server's word by take, or keeps it while the table is
// held; a word that ends the hold shows all that waited (releaseTo).
func (h *farkleHold) word(msg remoteMsg, you int, take func(remoteMsg) tea.Cmd, after func() tea.Cmd) tea.Cmd {
	if !h.held {
		return take(msg)
	}
	if h.wait(msg, you) {
		return nil
	}
	return h.releaseTo(you, take, after) // the player is asked to act (or too much waits): on at once
}

// releaseTo ends the hold: the server's words that waited are taken in
// order, then after (the game goes on). A farkle held among them holds the
// table again, and the rest wait again.
func (h *farkleHold) releaseTo(you int, take func(remoteMsg) tea.Cmd, after func() tea.Cmd) tea.Cmd {
	h.held = false
	q := h.queued
	h.queued = nil
	cmds := make([]tea.Cmd, 0, len(q)+1)
	for _, msg := range q {
		cmds = append(cmds, h.word(msg, you, take, after))
	}
	return tea.Batch(append(cmds, after())...)
}

// holdTick returns the command that ends the hold after d; nil when it
// lasts until a key.
func (h *farkleHold) holdTick(d time.Duration) tea.Cmd {
	if !h.held || d <= 0 {
		return nil
	}
	gen := h.holdGen
	return tea.Tick(d, func(time.Time) tea.Msg { return releaseMsg{gen: gen} })
}

// due reports whether msg ends the hold now.
func (h *farkleHold) due(msg releaseMsg) bool { return h.held && msg.gen == h.holdGen }
