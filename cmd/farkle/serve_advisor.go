package main

import (
	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solved"
)

// serveAdvisor is the server's Cast and Analyzer: package advise's Cast,
// live (advise.Live), whose bots play and whose advisors give the hints of
// every kind, and the analyses on it. The ordinary game's hints are win
// probabilities from the duel table for two players once it is in memory,
// expected points from the solo policy otherwise (more or fewer players,
// rules without a duel, or the duel table not ready, too large or the
// solver busy; the advice's note says which). It never waits for a duel
// table: the first request starts getting it through the scheduler of its
// Tables (solving it the first time takes minutes), and it keeps no table
// itself, so the Tables' limits hold.
type serveAdvisor struct {
	cast game.Cast
}

// newServeAdvisor returns the advisor of the solver results of ts; with
// solveDuels false it never starts a duel solve (tests).
func newServeAdvisor(ts *solved.Tables, solveDuels bool) *serveAdvisor {
	return &serveAdvisor{cast: advise.Cast(ts, advise.Live(solveDuels))}
}

// Analyze implements server.Analyzer: advise.Analyze, whatever the kind.
func (a *serveAdvisor) Analyze(rec *game.Record) (server.Analysis, error) {
	rep, err := advise.Analyze(rec, a.cast)
	if err != nil {
		return server.Analysis{}, err
	}
	out := server.Analysis{Measure: server.MeasureName(rep.Measure)}
	for _, p := range rep.Players {
		pa := server.PlayerAnalysis{Seat: p.Player, Name: p.Name, Decisions: p.Decisions, Mistakes: p.Decisions - p.Best, Lost: p.TotalLoss}
		for _, w := range p.Worst {
			where := &server.Where{Me: w.Position.Me, Them: w.Position.Them, Turn: w.Position.Total, Dice: w.Position.Dice}
			if w.Position.Throw != 0 {
				where.Throw = w.Position.Throw.Faces()
			}
			pa.Worst = append(pa.Worst, server.Moment{Action: w.Action, Chosen: w.Played, Best: w.Best, Lost: w.Loss, Where: where})
		}
		out.Players = append(out.Players, pa)
	}
	return out, nil
}
