package explore

import (
	"context"
	"errors"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/sim"
	"github.com/farkle/farkle/solved"
)

// RuleStats are the figures of one rule set in a comparison.
type RuleStats struct {
	Name   string `json:"name"`
	Hash   string `json:"hash"`
	Target int    `json:"target"`
	// Dice, PFarkle and Expected: for one throw of n dice, the chance of a
	// farkle and the expected points of its best keep (dice.Table.Odds).
	Dice     []int     `json:"dice"`
	PFarkle  []float64 `json:"p_farkle"`
	Expected []float64 `json:"expected"`
	// PointsPerTurn is the solo optimum's expected points per turn, and
	// BankAt its thresholds by dice to throw (no farkle streak).
	PointsPerTurn float64 `json:"points_per_turn"`
	BankAt        []int   `json:"bank_at"`
	// The duel: P(the first player wins) and the fair compensation, when
	// the table is at hand (Duel); DuelNote says why not.
	Duel        bool    `json:"duel"`
	DuelNote    string  `json:"duel_note,omitempty"`
	FirstPlayer float64 `json:"first_player,omitempty"`
	Fair        int     `json:"fair,omitempty"`
	FairWin     float64 `json:"fair_win,omitempty"`
	// Games expert-against-expert games were simulated; MeanTurns is the
	// turns each player took per game on average.
	Games     int     `json:"games"`
	MeanTurns float64 `json:"mean_turns"`
}

// CompareSeed is the seed of the comparison's simulations, so that the
// figures are the same every time.
var CompareSeed = dice.SeedFrom("farkle explore compare")

// Compare returns the figures of each rule set: solver results from src,
// games played by expert bots taking theirs from ts (games 0: none). A duel
// table that src cannot give is noted, not an error; duelNote turns the
// error into words for people (solved.Reason, say).
func Compare(ctx context.Context, rs []rules.Rules, src Source, ts *solved.Tables, games int, duelNote func(error) string) ([]RuleStats, error) {
	var out []RuleStats
	for _, r := range rs {
		s, err := compareOne(ctx, r, src, ts, games, duelNote)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func compareOne(ctx context.Context, r rules.Rules, src Source, ts *solved.Tables, games int, duelNote func(error) string) (RuleStats, error) {
	s := RuleStats{Name: r.Name, Hash: r.Hash(), Target: r.Game.Target}
	tb := engine.TableFor(r)
	for n := 1; n <= r.Dice; n++ {
		o := tb.Odds(n)
		s.Dice = append(s.Dice, n)
		s.PFarkle = append(s.PFarkle, o.PFarkle())
		s.Expected = append(s.Expected, o.Expected())
	}
	p, err := src.Solo(r)
	if err != nil {
		return s, err
	}
	st, err := NewSoloThresholds(p)
	if err != nil {
		return s, err
	}
	s.PointsPerTurn, s.BankAt = st.ExpectedTurn, st.BankAt[0]
	t, err := src.Duel(r)
	switch {
	case err == nil:
		s.Duel, s.FirstPlayer = true, t.FirstPlayerWins()
		s.Fair, s.FairWin = t.FairCompensation()
	case errors.Is(err, context.Canceled):
		return s, err
	default:
		s.DuelNote = duelNote(err)
	}
	if games > 0 {
		res, err := sim.Run(ctx, sim.Config{Rules: r, Players: []string{"expert", "expert"}, Games: games, Seed: CompareSeed, Tables: ts})
		if err != nil {
			return s, err
		}
		s.Games, s.MeanTurns = games, res.MeanTurns/2
	}
	return s, nil
}
