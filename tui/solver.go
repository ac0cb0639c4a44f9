package tui

import (
	"fmt"
	"slices"
	"sync"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
)

// SolverAdvisor is the Advisor built on package advise: win probabilities
// with best play in a two-player game whose rules allow a duel table,
// expected points of the rest of the turn otherwise. The advise.Advisor of
// a game's rules and number of players is made at the first hint and kept;
// solving a duel table the first time for a rule set can take minutes (it
// is then cached by the tables). It is safe for concurrent use.
type SolverAdvisor struct {
	tables *bot.Tables
	mu     sync.Mutex
	made   map[string]*advise.Advisor // by rules hash and players
}

// NewSolverAdvisor returns an advisor taking solver results from ts
// (bot.DefaultTables shares them with the bots).
func NewSolverAdvisor(ts *bot.Tables) *SolverAdvisor {
	return &SolverAdvisor{tables: ts, made: map[string]*advise.Advisor{}}
}

func (a *SolverAdvisor) advisor(s engine.State) (*advise.Advisor, error) {
	r := s.Rules()
	key := fmt.Sprintf("%s/%d", r.Hash(), len(s.Players))
	a.mu.Lock()
	defer a.mu.Unlock()
	if adv := a.made[key]; adv != nil {
		return adv, nil
	}
	adv, err := advise.For(r, len(s.Players), a.tables)
	if err != nil {
		return nil, err
	}
	a.made[key] = adv
	return adv, nil
}

// Advise implements Advisor: every choice of the player to act, best first.
func (a *SolverAdvisor) Advise(s engine.State) (Advice, error) {
	adv, err := a.advisor(s)
	if err != nil {
		return Advice{}, err
	}
	got, err := adv.State(s)
	if err != nil {
		return Advice{}, err
	}
	out := Advice{Measure: string(got.Measure), Note: got.Note}
	for _, c := range got.Choices {
		ch := Choice{Value: c.Value}
		switch c.Action {
		case engine.Keep:
			ch.Keep = c.Keep
			switch c.Then {
			case "bank":
				ch.Then = engine.Bank
			case "throw":
				ch.Then = engine.Throw
			}
			ch.facts = noteFacts{kind: noteSolved, points: c.Points, total: c.Total, left: c.Left}
		default:
			ch.Then = c.Action
			ch.facts = noteFacts{kind: noteTurn, total: c.Total}
		}
		ch.Note = ch.noteIn(nil)
		out.Choices = append(out.Choices, ch)
	}
	slices.SortStableFunc(out.Choices, func(x, y Choice) int {
		switch {
		case x.Value > y.Value:
			return -1
		case x.Value < y.Value:
			return 1
		}
		return 0
	})
	return out, nil
}
