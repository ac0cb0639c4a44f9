package main

import (
	"fmt"
	"sync"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

// serveAdvisor is the server's Advisor on package advise: win
// probabilities from the duel table for two players once it is solved
// (solving it the first time takes minutes, so it is solved in the
// background after the first request), expected points from the solo
// policy meanwhile and for other numbers of players.
type serveAdvisor struct {
	tables     *bot.Tables
	solveDuels bool

	mu    sync.Mutex
	duels map[string]*advise.Advisor // rules hash -> duel advisor, once solved
	busy  map[string]bool            // duel solves under way
}

func newServeAdvisor(ts *bot.Tables, solveDuels bool) *serveAdvisor {
	return &serveAdvisor{tables: ts, solveDuels: solveDuels, duels: map[string]*advise.Advisor{}, busy: map[string]bool{}}
}

// advisor returns the best advisor ready now for a game of n players.
func (a *serveAdvisor) advisor(r rules.Rules, n int) (*advise.Advisor, error) {
	if n == 2 {
		h := r.Hash()
		a.mu.Lock()
		d, start := a.duels[h], false
		if d == nil && a.solveDuels && !a.busy[h] {
			a.busy[h], start = true, true
		}
		a.mu.Unlock()
		if d != nil {
			return d, nil
		}
		if start {
			go func() {
				d, err := advise.For(r, 2, a.tables)
				a.mu.Lock()
				defer a.mu.Unlock()
				delete(a.busy, h)
				if err == nil && d.Measure() == advise.WinProbability {
					a.duels[h] = d
				}
			}()
		}
	}
	solo, err := a.tables.Solo(r)
	if err != nil {
		return nil, err
	}
	return advise.New(r, nil, solo)
}

func measureName(m advise.Measure) string {
	if m == advise.WinProbability {
		return "win"
	}
	return "points"
}

// Advise implements server.Advisor.
func (a *serveAdvisor) Advise(s engine.State) (server.Advice, error) {
	adv, err := a.advisor(s.Rules(), len(s.Players))
	if err != nil {
		return server.Advice{}, err
	}
	res, err := adv.State(s)
	if err != nil {
		return server.Advice{}, err
	}
	out := server.Advice{Measure: measureName(res.Measure)}
	for i := range res.Choices {
		c := &res.Choices[i]
		var text string
		switch c.Action {
		case engine.Keep:
			text = fmt.Sprintf("keep %s (%d)", c.Keep, c.Points)
			switch c.Then {
			case "bank":
				text += fmt.Sprintf(", then bank %d", c.Total)
			case "throw":
				text += fmt.Sprintf(", then throw %d", c.Left)
			}
		case engine.Throw:
			text = fmt.Sprintf("throw %d", s.ToThrow())
		case engine.Bank:
			text = fmt.Sprintf("bank %d", c.Total)
		default:
			text = c.Action.String()
		}
		out.Choices = append(out.Choices, server.Choice{Action: c.Engine(), Text: text, Value: c.Value, Best: c.Best})
	}
	return out, nil
}

// Analyze implements server.Advisor.
func (a *serveAdvisor) Analyze(rec *record.Record) (server.Analysis, error) {
	adv, err := a.advisor(rec.Rules, len(rec.Players))
	if err != nil {
		return server.Analysis{}, err
	}
	rep, err := adv.Analyze(rec)
	if err != nil {
		return server.Analysis{}, err
	}
	out := server.Analysis{Measure: measureName(rep.Measure)}
	for _, p := range rep.Players {
		pa := server.PlayerAnalysis{Seat: p.Player, Name: p.Name, Decisions: p.Decisions, Mistakes: p.Decisions - p.Best, Lost: p.TotalLoss}
		for _, w := range p.Worst {
			pa.Worst = append(pa.Worst, server.Moment{Action: w.Action, Chosen: w.Played, Best: w.Best, Lost: w.Loss})
		}
		out.Players = append(out.Players, pa)
	}
	return out, nil
}
