package main

import (
	"errors"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solve"
)

// serveAdvisor is the server's Advisor on package advise: win
// probabilities from the duel table for two players once it is in memory,
// expected points from the solo policy otherwise (more or fewer players,
// rules without a duel, or the duel table not ready, too large or the
// solver busy; the advice's note says which). It never waits for a duel
// table: the first request starts getting it through the scheduler of its
// Tables (solving it the first time takes minutes), and it keeps no table
// itself, so the Tables' limits hold.
type serveAdvisor struct {
	tables     *bot.Tables
	solveDuels bool // false: never start a duel solve (tests)
}

func newServeAdvisor(ts *bot.Tables, solveDuels bool) *serveAdvisor {
	return &serveAdvisor{tables: ts, solveDuels: solveDuels}
}

// advisor returns the best advisor ready now for a game of n players, and
// why it is not a win-probability advisor when one was wanted.
func (a *serveAdvisor) advisor(r rules.Rules, n int) (*advise.Advisor, string, error) {
	solo, err := a.tables.Solo(r)
	if err != nil {
		return nil, "", errors.New(bot.Reason(err))
	}
	var note string
	if n == 2 && a.solveDuels {
		duel, err := a.tables.DuelNow(r)
		if err == nil {
			adv, err := advise.New(r, duel, solo)
			return adv, "", err
		}
		if !errors.Is(err, solve.ErrRules) {
			note = "win chances are not available: " + bot.Reason(err)
		}
	}
	adv, err := advise.New(r, nil, solo)
	return adv, note, err
}

func measureName(m advise.Measure) string {
	switch m {
	case advise.WinProbability:
		return "win"
	case advise.Soldiers:
		return "soldiers"
	}
	return "points"
}

// Advise implements server.Advisor.
func (a *serveAdvisor) Advise(s engine.State) (server.Advice, error) {
	adv, note, err := a.advisor(s.Rules(), len(s.Players))
	if err != nil {
		return server.Advice{}, err
	}
	res, err := adv.State(s)
	if err != nil {
		return server.Advice{}, errors.New("this position cannot be advised")
	}
	out := server.Advice{Measure: measureName(res.Measure), Note: note}
	for i := range res.Choices {
		c := &res.Choices[i]
		ch := server.Choice{Action: c.Engine(), Value: c.Value, Best: c.Best} // the server writes its text
		switch c.Then {
		case "bank":
			ch.Then = engine.Bank
		case "throw":
			ch.Then = engine.Throw
		}
		out.Choices = append(out.Choices, ch)
	}
	return out, nil
}

// Analyze implements server.Advisor: advise.Analyze for the ordinary
// game, advise.AnalyzeDragon for Dragon Farkle.
func (a *serveAdvisor) Analyze(rec *game.Record) (server.Analysis, error) {
	rep, err := a.report(rec)
	if err != nil {
		return server.Analysis{}, err
	}
	out := server.Analysis{Measure: measureName(rep.Measure)}
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

// report analyses rec as its kind is analysed.
func (a *serveAdvisor) report(rec *game.Record) (*advise.Report, error) {
	if rec.Kind == game.Dragon {
		return advise.AnalyzeDragon(rec)
	}
	old, err := rec.Ordinary()
	if err != nil {
		return nil, err
	}
	adv, _, err := a.advisor(old.Rules, len(old.Players))
	if err != nil {
		return nil, err
	}
	return adv.Analyze(old)
}
