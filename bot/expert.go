package bot

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

func init() {
	addLevel(Level{
		Name:        "expert",
		Description: "plays the keeps and banks that score the most points on average, and minds the scores near the end",
		new: func(r rules.Rules, o *options) (Strategy, error) {
			return newExpert(r, o.tables), nil
		},
	})
}

// Expert plays the solo optimum (solve.Policy: the keep and bank-or-throw
// choices of the highest expected points, with the farkle streak and the
// entry minimum taken into account), adjusted for the scores in the game:
//
//   - it banks when banking wins at once (immediate ending, or ahead of
//     everyone on its last turn of a final round);
//   - it throws on when banking would certainly lose (at or below the leader
//     on its last turn);
//   - with the immediate ending, when another player is within one average
//     turn of the target, it does not bank while it is still behind them.
//
// Keeps are judged the same way: a keep after which banking wins at once
// is taken first; one after which banking would certainly lose is valued
// by throwing on. Without a solo policy (rules whose turns never end, a
// policy too large for the limits of its Tables, or the solver busy) it
// plays as steady. It is safe for concurrent use.
type Expert struct {
	r      rules.Rules
	key    solved.Key
	tables *solved.Tables

	ready    atomic.Pointer[expertPolicy]
	refused  atomic.Pointer[error] // a refusal for good: steady from then on
	steady   sync.Once
	fallback *Threshold
}

// expertPolicy is the solo policy and the expected points of a turn,
// rounded.
type expertPolicy struct {
	policy   *solve.Policy
	expected int
}

func newExpert(r rules.Rules, ts *solved.Tables) *Expert {
	return &Expert{r: r, key: solved.KeyOf(r), tables: ts} // solver results ignore max_turns
}

// Prepare solves the solo policy (milliseconds); on an error the expert
// plays as steady (for good when the rules cannot be solved or the policy
// is too large, until the next decision when the solver was busy).
func (e *Expert) Prepare() error {
	_, err := e.policy()
	return err
}

// policy returns the solo policy, or nil and why not.
func (e *Expert) policy() (*expertPolicy, error) {
	if p := e.ready.Load(); p != nil {
		return p, nil
	}
	if err := e.refused.Load(); err != nil {
		return nil, *err
	}
	pol, err := e.tables.SoloOf(e.key)
	if err != nil {
		if solved.Permanent(err) {
			e.refused.Store(&err)
		}
		return nil, err
	}
	p := &expertPolicy{policy: pol, expected: int(math.Round(pol.ExpectedTurn()))}
	e.ready.Store(p)
	return p, nil
}

// steadyBot returns the steady bot the expert plays as without a policy.
func (e *Expert) steadyBot() *Threshold {
	e.steady.Do(func() {
		s, _ := levels["steady"].new(e.r, nil)
		e.fallback = s.(*Threshold)
	})
	return e.fallback
}

func (e *Expert) soloPos(v *View, total, dice int) solve.SoloPosition {
	p := solve.SoloPosition{Total: total, Dice: dice}
	if v.Rules.Turn.FarklePenalty.Count > 0 {
		p.Streak = v.Streaks[v.Seat]
	}
	p.OffBoard = v.Me() == 0 && v.Rules.Turn.EntryMinimum > 0
	return p
}

// chasing reports whether the expert must not bank at this total: with the
// immediate ending, another player is within one average turn of the target
// and the bank would leave the expert behind them.
func (e *Expert) chasing(p *expertPolicy, v *View, total int) bool {
	if v.Rules.Game.Ending != rules.EndImmediate || v.Players < 2 {
		return false
	}
	lead := v.Leader()
	return lead >= v.Rules.Game.Target-p.expected && v.Me()+total < lead
}

// afterKeep returns the expert's value of the position after a keep that
// made the turn total total with left dice left: +Inf when banking wins at
// once, else the better of banking (unless it certainly loses or the expert
// is chasing) and throwing on, in expected points.
func (e *Expert) afterKeep(p *expertPolicy, v *View, total, left int) float64 {
	c, err := p.policy.Choice(e.soloPos(v, total, left))
	if err != nil {
		return math.Inf(-1)
	}
	canBank := !math.IsNaN(c.Bank)
	saved := v.Total
	v.Total = total
	wins, loses := v.BankWins(), v.BankLoses()
	v.Total = saved
	if canBank && wins {
		return math.Inf(1)
	}
	if canBank && (loses || e.chasing(p, v, total)) && !math.IsNaN(c.Throw) {
		canBank = false
	}
	switch {
	case canBank && (math.IsNaN(c.Throw) || c.Bank >= c.Throw):
		return c.Bank
	case !math.IsNaN(c.Throw):
		return c.Throw
	}
	return c.NoneValue
}

// Keep implements Decider: the keep of the highest value (the first such).
func (e *Expert) Keep(v *View) int {
	p, err := e.policy()
	if err != nil {
		return e.steadyBot().Keep(v)
	}
	keeps := v.Table.Keeps(v.Throw)
	best, bestV := 0, math.Inf(-1)
	for i, k := range keeps {
		if x := e.afterKeep(p, v, v.Total+int(k.Points), v.Left-int(k.N)); x > bestV {
			best, bestV = i, x
		}
	}
	return best
}

// Bank implements Decider.
func (e *Expert) Bank(v *View) bool {
	p, err := e.policy()
	if err != nil {
		return e.steadyBot().Bank(v)
	}
	switch {
	case v.BankWins():
		return true
	case v.BankLoses(), e.chasing(p, v, v.Total):
		return false
	}
	c, err := p.policy.Choice(e.soloPos(v, v.Total, v.Left))
	return err != nil || c.BankBest
}

// Choose implements Strategy.
func (e *Expert) Choose(s engine.State) engine.Action { return choose(e, s) }
