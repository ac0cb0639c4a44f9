package explore

import (
	"context"
	"fmt"
	"math"

	"github.com/farkle/farkle/solve"
)

// WinMap is the probability that the player to move wins at the start of
// their turn, over a grid of both scores (no farkle streaks), with the fair
// compensation of each cell.
type WinMap struct {
	Rules  string `json:"rules"`
	Target int    `json:"target"`
	Step   int    `json:"step"`   // points between grid lines
	Scores []int  `json:"scores"` // the grid's scores, for both axes
	// Win[i][j] is P(the player to move wins) with my score Scores[i] and
	// theirs Scores[j].
	Win [][]float64 `json:"win"`
	// Comp[i][j] is the fair compensation of the cell: the points given to
	// the other player (negative: to the player to move) that bring the
	// chance closest to 1/2 (see Compensation).
	Comp [][]int `json:"comp"`
	// CompWin[i][j] is the mover's chance once the compensation is given.
	CompWin [][]float64 `json:"comp_win"`
	// FirstPlayer is P(the first player wins) from 0 to 0; Fair and FairWin
	// are the table's fair compensation and the first player's chance with
	// it (solve.Table.FairCompensation).
	FirstPlayer float64 `json:"first_player"`
	Fair        int     `json:"fair"`
	FairWin     float64 `json:"fair_win"`
}

// NewWinMap returns the map of t with about cells scores per axis (a step
// that is a multiple of the table's unit).
func NewWinMap(t *solve.Table, cells int) (*WinMap, error) {
	return NewWinMapContext(context.Background(), t, cells)
}

// NewWinMapContext is NewWinMap that stops with ctx's error, between two
// rows of the map, once ctx is done.
func NewWinMapContext(ctx context.Context, t *solve.Table, cells int) (*WinMap, error) {
	r := t.Rules()
	if cells < 1 {
		return nil, fmt.Errorf("explore: %d cells: want at least 1", cells)
	}
	step := roundStep(r.Game.Target, cells, t.Unit())
	m := &WinMap{Rules: r.Name, Target: r.Game.Target, Step: step, Scores: axis(step, r.Game.Target), FirstPlayer: t.FirstPlayerWins()}
	m.Fair, m.FairWin = t.FairCompensation()
	for _, me := range m.Scores {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		row := make([]float64, len(m.Scores))
		comp := make([]int, len(m.Scores))
		compWin := make([]float64, len(m.Scores))
		for j, them := range m.Scores {
			p, err := t.WinProbability(me, them, 0, 0)
			if err != nil {
				return nil, err
			}
			row[j] = p
			if comp[j], compWin[j], err = Compensation(t, me, them); err != nil {
				return nil, err
			}
		}
		m.Win = append(m.Win, row)
		m.Comp = append(m.Comp, comp)
		m.CompWin = append(m.CompWin, compWin)
	}
	return m, nil
}

// Compensation returns the fair compensation at scores me (to move) and
// them: the multiple of 50 points (and of the unit) that, added to the
// other player's score (or, when negative, to the mover's), brings the
// mover's chance closest to 1/2, and that chance. Ties go to the smaller
// size. At 0 to 0 it is solve.Table.FairCompensation.
func Compensation(t *solve.Table, me, them int) (points int, p float64, err error) {
	target := t.Rules().Game.Target
	step := lcm(50, t.Unit())
	best := 0
	bestP, err := t.WinProbability(me, them, 0, 0)
	if err != nil {
		return 0, 0, err
	}
	for c := step; c < target; c += step {
		for _, sign := range []int{1, -1} {
			m, o := me, them+c
			if sign < 0 {
				m, o = me+c, them
			}
			if m >= target || o >= target {
				continue
			}
			q, err := t.WinProbability(m, o, 0, 0)
			if err != nil {
				return 0, 0, err
			}
			if math.Abs(q-0.5) < math.Abs(bestP-0.5)-1e-15 {
				best, bestP = sign*c, q
			}
		}
	}
	return best, bestP, nil
}
