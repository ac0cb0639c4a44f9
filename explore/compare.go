package explore

import (
	"context"
	"errors"
	"fmt"
	"math"

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
	Duel     bool   `json:"duel"`
	DuelNote string `json:"duel_note,omitempty"`
	// DuelPreparing: the duel table is being prepared (solved.ErrNotReady),
	// so the same comparison asked again later has it.
	DuelPreparing bool    `json:"duel_preparing,omitempty"`
	FirstPlayer   float64 `json:"first_player,omitempty"`
	Fair          int     `json:"fair,omitempty"`
	FairWin       float64 `json:"fair_win,omitempty"`
	// Games expert-against-expert games were simulated; MeanTurns is the
	// turns each player took per game on average. SimNote says why fewer
	// games than asked were played, or none (CompareOptions.MaxTurns).
	Games     int     `json:"games"`
	MeanTurns float64 `json:"mean_turns"`
	SimNote   string  `json:"sim_note,omitempty"`
}

// CompareSeed is the seed of the comparison's simulations, so that the
// figures are the same every time.
var CompareSeed = dice.SeedFrom("farkle explore compare")

// Compare returns the figures of each rule set: solver results from src,
// games played by expert bots taking theirs from ts (games 0: none). A duel
// table that src cannot give is noted, not an error; duelNote turns the
// error into words for people (solved.Reason, say). It is CompareWith without
// a bound on the simulation.
func Compare(ctx context.Context, rs []rules.Rules, src Source, ts *solved.Tables, games int, duelNote func(error) string) ([]RuleStats, error) {
	return CompareWith(ctx, rs, src, ts, CompareOptions{Games: games, DuelNote: duelNote})
}

// CompareOptions tune CompareWith.
type CompareOptions struct {
	// Games is the number of expert-against-expert games simulated per
	// rule set (0: none).
	Games int
	// MaxTurns bounds the simulation of one rule set, before it starts:
	// it plays only the games that MaxTurns turns hold, a game taking
	// about EstimateTurns turns, and none when fewer than MinGames fit.
	// 0: no bound.
	MaxTurns int
	// DuelNote turns the error of a duel table the source cannot give
	// into words for people (solved.Reason, say).
	DuelNote func(error) string
}

// MinGames is the fewest games a comparison simulates of a rule set: a
// mean of fewer says little.
const MinGames = 20

// EstimateTurns is about the turns a game of two experts takes (both
// players together) under rules whose target is target and whose solo
// optimum banks pointsPerTurn a turn on average: 2 × target ÷ points per
// turn. The experts play near the solo optimum, so the estimate is within
// a tenth or so of the simulated mean for the presets (TestEstimateTurns);
// +Inf when a turn scores nothing on average.
func EstimateTurns(target int, pointsPerTurn float64) float64 {
	if pointsPerTurn <= 0 {
		return math.Inf(1)
	}
	return 2 * float64(target) / pointsPerTurn
}

// CompareWith returns the figures of each rule set as Compare does, the
// simulation bounded by opt. It stops with ctx's error once ctx is done:
// between rule sets, and between games of a simulation.
func CompareWith(ctx context.Context, rs []rules.Rules, src Source, ts *solved.Tables, opt CompareOptions) ([]RuleStats, error) {
	var out []RuleStats
	for _, r := range rs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := compareOne(ctx, r, src, ts, opt)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// simGames returns the games to simulate of rules whose solo optimum banks
// ppt points a turn, and why fewer than asked ("" when all are).
func (opt CompareOptions) simGames(target int, ppt float64) (int, string) {
	if opt.Games <= 0 || opt.MaxTurns <= 0 {
		return max(opt.Games, 0), ""
	}
	est := EstimateTurns(target, ppt)
	fit := float64(opt.MaxTurns) / est
	if fit >= float64(opt.Games) {
		return opt.Games, ""
	}
	if fit < MinGames {
		return 0, fmt.Sprintf("no games simulated: a game of these rules takes about %.0f turns, and this server simulates at most %d turns of a rule set (%d games would take %.0f)",
			est, opt.MaxTurns, MinGames, MinGames*est)
	}
	n := int(fit)
	return n, fmt.Sprintf("%d games simulated, not %d: a game of these rules takes about %.0f turns, and this server simulates at most %d turns of a rule set",
		n, opt.Games, est, opt.MaxTurns)
}

func compareOne(ctx context.Context, r rules.Rules, src Source, ts *solved.Tables, opt CompareOptions) (RuleStats, error) {
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
	case errors.Is(err, context.DeadlineExceeded):
		return s, err
	case opt.DuelNote != nil:
		s.DuelNote = opt.DuelNote(err)
	default:
		s.DuelNote = err.Error()
	}
	s.DuelPreparing = !s.Duel && errors.Is(err, solved.ErrNotReady)
	games, note := opt.simGames(r.Game.Target, s.PointsPerTurn)
	s.SimNote = note
	if games > 0 {
		res, err := sim.Run(ctx, sim.Config{Rules: r, Players: []string{"expert", "expert"}, Games: games, Seed: CompareSeed, Tables: ts})
		if err != nil {
			return s, err
		}
		s.Games, s.MeanTurns = games, res.MeanTurns/2
	}
	return s, nil
}
