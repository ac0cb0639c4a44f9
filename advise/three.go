package advise

import (
	"fmt"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// NewThree returns an advisor for r whose values are, in a game of three
// seats all still in, the mover's chance to win from three (solved for r):
// exact, against the other two playing as well. Elsewhere (a seat out,
// other numbers of players) they are expected points from solo.
func NewThree(r rules.Rules, three *solve.Three, solo *solve.Policy) (*Advisor, error) {
	if three == nil || three.Rules().Hash() != r.ForSolver().Hash() {
		return nil, fmt.Errorf("advise: the three-player table is for other rules")
	}
	a, err := New(r, nil, solo)
	if err != nil {
		return nil, err
	}
	a.three = three
	return a, nil
}

// stateThree is State's advice from the three-player table; three is
// false when it does not answer s (no table, not three seats all in, or a
// throw that scored nothing), and State values s otherwise.
func (a *Advisor) stateThree(s engine.State, p Position) (adv *Advice, three bool, err error) {
	if a.three == nil {
		return nil, false, nil
	}
	var v bot.View
	bot.FromState(s, &v)
	if !bot.IsThree(&v) {
		return nil, false, nil
	}
	wrap := func(err error) error { return fmt.Errorf("%w: %w", ErrPosition, err) }
	adv = &Advice{Rules: a.r.Name, Measure: WinProbability, Position: p, Choices: []Choice{}}
	dice := a.r.Dice
	switch s.Step {
	case engine.StepKeep:
		opts, err := a.three.Options(bot.ThreePosition(&v, s.Throw.N()), s.Throw)
		if err != nil {
			return nil, true, wrap(err)
		}
		if len(opts) == 0 {
			return nil, false, nil
		}
		for _, o := range opts {
			total, left := s.Total+int(o.Keep.Points), s.Throw.N()-int(o.Keep.N)
			ch := Choice{Action: engine.Keep, Keep: o.Keep.Hand, Points: int(o.Keep.Points), Total: total, Left: left, Value: o.Win, Then: "throw"}
			if left == 0 && a.r.Turn.HotDice {
				ch.Left = dice
			}
			after := bot.ThreePosition(&v, left)
			after.Total = total
			if best, bank, throw, err := a.three.BankBest(after); err == nil {
				ch.Bank = ptr(bank)
				if ch.Left > 0 {
					ch.ThrowOn = ptr(throw)
				}
				if best {
					ch.Then = "bank"
				}
			} else {
				ch.ThrowOn = ptr(o.Win) // banking not allowed: throwing on is all
			}
			adv.Choices = append(adv.Choices, ch)
		}
	case engine.StepThrow:
		w, err := a.three.Throw(bot.ThreePosition(&v, s.ToThrow()))
		if err != nil {
			return nil, true, wrap(err)
		}
		adv.Choices = append(adv.Choices, Choice{Action: engine.Throw, Total: s.Total, Value: w})
	default:
		pos := bot.ThreePosition(&v, s.Left)
		_, bank, throw, err := a.three.BankBest(pos)
		if err != nil { // banking not allowed here: the value of throwing
			if pos.Dice == 0 {
				pos.Dice = dice
			}
			if throw, err = a.three.Throw(pos); err != nil {
				return nil, true, wrap(err)
			}
		} else if ok, _ := s.CanBank(); ok {
			adv.Choices = append(adv.Choices, Choice{Action: engine.Bank, Total: s.Total, Value: bank})
		}
		if s.CanThrow() {
			adv.Choices = append(adv.Choices, Choice{Action: engine.Throw, Total: s.Total, Value: throw})
		}
	}
	markBest(adv.Choices)
	return adv, true, nil
}
