package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"path/filepath"
	"slices"
	"strings"

	"github.com/farkle/farkle/rules"
)

// Play again. At the end of a game p starts another with the same rules
// and the same players, with new dice. Who starts is what the rules say:
// with game.next_first = "winner" (the Farkle Dice rules) the seats turn
// round to put the winner (the first of shared winners) first and the next
// game starts in seat order, without a roll-off; otherwise the next game
// starts as game.first_player says (a new roll-off, or the first seat),
// seats unchanged. The game just ended stays saved in its own file; the new
// one gets a file of its own.

// rematch returns the seats and the rules of the next game (winner < 0:
// no winner, as the rules say without one).
func rematch(seats []Seat, winner int, r rules.Rules) ([]Seat, rules.Rules) {
	out := slices.Clone(seats)
	if winner < 0 || r.Game.NextFirst != rules.NextWinner {
		return out, r
	}
	next := r.Clone()
	next.Game.FirstPlayer = rules.SeatOrder
	return append(out[winner:], out[:winner]...), next
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
	seats, next := rematch(g.Seats(), winner, g.Rules())
	m.startGame(next, seats)
	if m.game == g {
		return nil // the setup screen shows why not
	}
	first := m.lc.Msg("tui.again.rollOff")
	you := func(name string) bool { return strings.EqualFold(name, youName(m.lc)) }
	switch {
	case next.Game.NextFirst == rules.NextWinner && winner >= 0 && you(s.Players[winner].Name):
		first = m.lc.Msg("tui.again.winnerYou")
	case next.Game.NextFirst == rules.NextWinner && winner >= 0:
		first = m.lc.Msg("tui.again.winner", "name", s.Players[winner].Name)
	case next.Game.FirstPlayer == rules.SeatOrder && you(seats[0].Name):
		first = m.lc.Msg("tui.again.startsYou")
	case next.Game.FirstPlayer == rules.SeatOrder:
		first = m.lc.Msg("tui.again.starts", "name", seats[0].Name)
	}
	m.note(false, "%s", m.lc.Msg("tui.again", "first", first))
	return tea.Batch(m.prepare(), m.schedule())
}
