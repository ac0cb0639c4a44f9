package bot

import (
	"sync"
	"sync/atomic"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

func init() {
	addLevel(Level{
		Name:        "perfect",
		Description: "plays to win: every choice maximises its exact chance of winning the game",
		new: func(r rules.Rules, o *options) (Strategy, error) {
			return &Perfect{r: r, tables: o.tables, expert: newExpert(r, o.tables)}, nil
		},
	})
}

// Perfect maximises the probability of winning with the exact two-player
// table of the duel solver (solve.Table): each keep is the one of the
// highest win probability (the first such in keep order), and it banks when
// banking is at least as good as throwing on (solve.Choice.BankBest).
//
// With three or more players it uses the two-player table against the
// strongest opponent (the highest score of the others, ties going to the
// next to play) as if the others did not exist; on the last turn of a final
// round that is exact: it must beat the leader. The table is solved for two
// players, so with more players the chances are an approximation.
//
// With one player, or rules that allow no two-player game, or when the table
// cannot be had (too large), it plays as expert.
//
// Cost: the first decision of a turn solves that turn from the table (about
// 50 microseconds for classic); the duel table keeps recent turns, so the
// later decisions of the turn are lookups (well under a microsecond), and the
// bank-or-throw choice after the keep it picks is remembered from the keep
// decision. It is safe for concurrent use.
type Perfect struct {
	r      rules.Rules
	tables *Tables
	expert *Expert

	once  sync.Once
	table *solve.Table
	err   error
	memo  atomic.Pointer[choiceMemo]
}

// choiceMemo is the bank choice after the keep last picked.
type choiceMemo struct {
	pos  solve.DuelPosition
	bank bool
}

// Prepare loads or solves the duel table (see Tables.Duel).
func (p *Perfect) Prepare() error {
	p.once.Do(func() {
		p.table, p.err = p.tables.Duel(p.r)
		if p.err != nil {
			p.table = nil
		}
	})
	return p.err
}

// Table returns the duel table, nil when perfect plays as expert.
func (p *Perfect) Table() *solve.Table {
	p.Prepare()
	return p.table
}

// DuelPosition returns the two-player position of v for the duel table:
// the player to move against the strongest opponent (none, score 0, in a
// one-player game), with the turn total total and dice dice.
func DuelPosition(v *View, total, dice int) solve.DuelPosition {
	pos := solve.DuelPosition{Me: v.Me(), Total: total, Dice: dice}
	pen := v.Rules.Turn.FarklePenalty.Count > 0
	if pen {
		pos.MyStreak = v.Streaks[v.Seat]
	}
	if o := v.Opponent(); o >= 0 {
		pos.Them = v.Scores[o]
		if pen {
			pos.TheirStreak = v.Streaks[o]
		}
	}
	return pos
}

func (p *Perfect) duel(v *View) bool {
	return v.Players >= 2 && p.Table() != nil
}

// Keep implements Decider.
func (p *Perfect) Keep(v *View) int {
	if !p.duel(v) {
		return p.expert.Keep(v)
	}
	opts, _, err := p.table.Options(DuelPosition(v, v.Total, v.Left), v.Throw)
	if err != nil || len(opts) == 0 {
		return p.expert.Keep(v)
	}
	for i, o := range opts {
		if o.Best {
			after := DuelPosition(v, v.Total+int(o.Keep.Points), v.Left-int(o.Keep.N))
			p.memo.Store(&choiceMemo{pos: after, bank: o.Choice.BankBest})
			return i
		}
	}
	return 0
}

// Bank implements Decider.
func (p *Perfect) Bank(v *View) bool {
	if !p.duel(v) {
		return p.expert.Bank(v)
	}
	pos := DuelPosition(v, v.Total, v.Left)
	if m := p.memo.Load(); m != nil && m.pos == pos {
		return m.bank
	}
	c, err := p.table.Choice(pos)
	if err != nil {
		return p.expert.Bank(v)
	}
	return c.BankBest
}

// Choose implements Strategy.
func (p *Perfect) Choose(s engine.State) engine.Action { return choose(p, s) }
