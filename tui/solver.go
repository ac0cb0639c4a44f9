package tui

import (
	"fmt"
	"slices"
	"sync"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/solved"
)

// SolverAdvisor is the Advisor of the Cast (package advise's): win
// probabilities with best play in a two-player game whose rules allow a
// duel table, expected points of the rest of the turn otherwise. The
// advisor of a game's rules and number of players is made at the first
// hint and kept; solving a duel table the first time for a rule set can
// take minutes (it is then cached by the tables). It is safe for
// concurrent use.
type SolverAdvisor struct {
	cast game.Cast
	mu   sync.Mutex
	made map[string]solverFor // by rules hash and players
}

// solverFor is the advisor of one rule set and number of players.
type solverFor struct {
	v   *game.FarkleVariant
	adv game.Advisor
}

// NewSolverAdvisor returns an advisor taking solver results from ts
// (solved.DefaultTables shares them with the bots).
func NewSolverAdvisor(ts *solved.Tables) *SolverAdvisor {
	return &SolverAdvisor{cast: advise.Cast(ts), made: map[string]solverFor{}}
}

func (a *SolverAdvisor) advisor(s engine.State) (solverFor, error) {
	r := s.Rules()
	key := fmt.Sprintf("%s/%d", r.Hash(), len(s.Players))
	a.mu.Lock()
	defer a.mu.Unlock()
	if f, ok := a.made[key]; ok {
		return f, nil
	}
	v, err := game.NewFarkle(r)
	if err != nil {
		return solverFor{}, err
	}
	adv, err := a.cast.Advisor(v, len(s.Players))
	if err != nil {
		return solverFor{}, err
	}
	f := solverFor{v: v, adv: adv}
	a.made[key] = f
	return f, nil
}

// Advise implements Advisor: every choice of the player to act, best first.
func (a *SolverAdvisor) Advise(s engine.State) (Advice, error) {
	f, err := a.advisor(s)
	if err != nil {
		return Advice{}, err
	}
	got, err := f.adv.Advise(f.v.At(s), s.Actor())
	if err != nil {
		return Advice{}, err
	}
	out := Advice{Measure: string(got.Measure), Note: got.Note}
	for _, c := range got.Choices {
		ch := Choice{Value: c.Value}
		switch a, _ := c.Action.(engine.Action); a.Kind {
		case engine.Keep:
			ch.Keep = a.Dice
			switch c.Then {
			case "bank":
				ch.Then = engine.Bank
			case "throw":
				ch.Then = engine.Throw
			}
			points, _ := s.Table().Points(a.Dice)
			left := s.Throw.N() - a.Dice.N()
			if r := s.Rules(); left == 0 && r.Turn.HotDice {
				left = r.Dice
			}
			ch.facts = noteFacts{kind: noteSolved, points: points, total: s.Total + points, left: left}
		default:
			ch.Then = a.Kind
			ch.facts = noteFacts{kind: noteTurn, total: s.Total}
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
