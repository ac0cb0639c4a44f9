package bot

import (
	"errors"

	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// threeReason is Reason for the three-player table.
func threeReason(err error) string {
	switch {
	case errors.Is(err, solved.ErrNoThreeTable):
		return "three players: no three-player table for these rules (farkle solve --players 3 makes it)"
	case errors.Is(err, solve.ErrRules):
		return "three players: the three-player solver needs rules without a farkle penalty or bank minimum"
	}
	return "three players: " + solved.Reason(err)
}

// three returns the three-player table for a decision of v, nil to play as
// expert (the reason is then the bot's Fallback). It applies to games of
// three seats all still in.
func (p *Perfect) three() *solve.Three {
	p.threeOnce.Do(func() {
		t, err := p.tables.Three(p.r)
		p.three3 = t
		if err != nil {
			why := threeReason(err)
			p.why.Store(&why)
		}
	})
	return p.three3
}

// threePosition returns the position of v for the three-player table.
func threePosition(v *View, dice int) solve.ThreePosition {
	pos := solve.ThreePosition{Trigger: -1, Total: v.Total, Dice: dice}
	for k := 0; k < 3; k++ {
		pos.Scores[k] = v.Scores[(v.Seat+k)%3]
	}
	if v.FinalRound {
		pos.Trigger = (v.Trigger - v.Seat + 3) % 3
	}
	return pos
}

// isThree reports whether v is a decision the three-player table answers.
func isThree(v *View) bool { return v.Players == 3 && v.Out == 0 }

// keep3 is Keep with the three-player table (expert without it).
func (p *Perfect) keep3(v *View) int {
	t := p.three()
	if t == nil {
		return p.expert.Keep(v)
	}
	opts, err := t.Options(threePosition(v, v.Left), v.Throw)
	if err != nil {
		return p.expert.Keep(v)
	}
	for i, o := range opts {
		if o.Best {
			return i
		}
	}
	return 0
}

// bank3 is Bank with the three-player table (expert without it).
func (p *Perfect) bank3(v *View) bool {
	t := p.three()
	if t == nil {
		return p.expert.Bank(v)
	}
	best, _, _, err := t.BankBest(threePosition(v, v.Left))
	if err != nil {
		return p.expert.Bank(v)
	}
	return best
}
