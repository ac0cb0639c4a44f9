package bot

import (
	"github.com/farkle/farkle/solve"
)

// threeTable returns the three-player table for a decision of v, nil to play
// as expert (FallbackWhy then says why). It applies to games of three
// seats all still in. Under Limits.NoWait it never waits: the table is
// asked for at every decision (a map lookup once it is there).
func (p *Perfect) threeTable() *solve.Three {
	p.three.Store(true)
	t, err := p.tables.ThreeOf(p.key, !p.tables.Limits().NoWait)
	if err != nil {
		return nil
	}
	return t
}

// PrepareFor is Prepare for a game of players seats. With three it first
// gets the three-player table (solved.Tables.Three), waiting for it, then
// the duel table (played once a seat resigns); the error is the
// three-player table's, else the duel table's.
func (p *Perfect) PrepareFor(players int) error {
	if players != 3 {
		return p.Prepare()
	}
	p.three.Store(true)
	_, err := p.tables.ThreeOf(p.key, true)
	if err != nil {
		p.expert.Prepare()
	}
	if derr := p.Prepare(); err == nil {
		err = derr
	}
	return err
}

// ThreePosition returns the position of v for the three-player table,
// with dice dice (see solve.ThreePosition.Dice).
func ThreePosition(v *View, dice int) solve.ThreePosition {
	pos := solve.ThreePosition{Trigger: -1, Total: v.Total, Dice: dice}
	for k := 0; k < 3; k++ {
		pos.Scores[k] = v.Scores[(v.Seat+k)%3]
		pos.Streaks[k] = v.Streaks[(v.Seat+k)%3]
	}
	if v.FinalRound {
		pos.Trigger = (v.Trigger - v.Seat + 3) % 3
	}
	return pos
}

// IsThree reports whether v is a decision the three-player table answers:
// a game of three seats, all still in.
func IsThree(v *View) bool { return v.Players == 3 && v.Out == 0 }

// keep3 is Keep with the three-player table (expert without it).
func (p *Perfect) keep3(v *View) int {
	t := p.threeTable()
	if t == nil {
		return p.expert.Keep(v)
	}
	opts, err := t.Options(ThreePosition(v, v.Left), v.Throw)
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
	t := p.threeTable()
	if t == nil {
		return p.expert.Bank(v)
	}
	best, _, _, err := t.BankBest(ThreePosition(v, v.Left))
	if err != nil {
		return p.expert.Bank(v)
	}
	return best
}
