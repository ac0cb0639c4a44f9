package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"path/filepath"
	"slices"

	"github.com/farkle/farkle/rules"
)

// Play again. At the end of a game p starts another with the same rules
// and the same players, with new dice. Who starts is what the rules say:
// with first_player = "seat-order" the first seat starts, so the seats turn
// round to put the winner (the first of shared winners) first — the winner
// starts the next game; with a roll-off a new roll-off decides, seats
// unchanged. The game just ended stays saved in its own file; the new one
// gets a file of its own.

// rematchSeats returns the seats of the next game: seats as they were,
// turned round to put seat winner first when the rules play in seat
// order (winner < 0: no winner, unchanged).
func rematchSeats(seats []Seat, winner int, r rules.Rules) []Seat {
	out := slices.Clone(seats)
	if winner < 0 || r.Game.FirstPlayer != rules.SeatOrder {
		return out
	}
	return append(out[winner:], out[:winner]...)
}

// playAgain starts the next game at the table (see above).
func (m *Model) playAgain() tea.Cmd {
	g := m.game
	s := g.State()
	winner := -1
	if len(s.Winners) > 0 {
		winner = s.Winners[0]
	}
	if p := g.Path(); p != "" {
		m.o.GamesDir = filepath.Dir(p)
	}
	m.o.Seed = dice.NewSeed()
	m.preparing, m.shown, m.hot, m.advice, m.showHint, m.skipping, m.scheduled = nil, shownThrow{}, false, nil, false, false, -1
	m.startGame(g.Rules(), rematchSeats(g.Seats(), winner, g.Rules()))
	if m.game == g {
		return nil // the setup screen shows why not
	}
	first := "a roll-off decides who starts"
	if g.Rules().Game.FirstPlayer == rules.SeatOrder && winner >= 0 {
		first = s.Players[winner].Name + ", the winner, starts"
	}
	m.note(false, "A new game with the same players: %s.", first)
	return tea.Batch(m.prepare(), m.schedule())
}
