package bot

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

func init() {
	addLevel(Level{
		Name:        "perfect",
		Description: "plays to win: every choice maximises its exact chance of winning the game",
		new: func(r rules.Rules, o *options) (Strategy, error) {
			return &Perfect{r: r, key: solved.KeyOf(r), tables: o.tables, expert: newExpert(r, o.tables)}, nil
		},
	})
}

// Perfect maximises the probability of winning with the exact two-player
// table of the duel solver (solve.Table): each keep is the one of the
// highest win probability (the first such in keep order), and it banks when
// banking is at least as good as throwing on (solve.Choice.BankBest).
//
// With three players all still in, it uses the exact three-player table
// (solve.Three, from its Tables: added, read from the cache directory
// where farkle solve --players 3 wrote it, or solved there when small
// enough: solved.Limits.ThreeSolve); without one (rules the solver
// refuses: a bank minimum without hot dice under a farkle penalty; no
// table made, too large, or, under
// Limits.NoWait, while it is being prepared) it plays those games as
// expert and Fallback says why. With four or more players,
// or three of whom one resigned, it uses the two-player table against the
// strongest opponent (the highest score of the others, ties going to the
// next to play) as if the others did not exist; on the last turn of a final
// round that is exact: it must beat the leader. The table is solved for two
// players, so with more players the chances are an approximation.
//
// With one player, or rules that allow no two-player game, or when the
// table cannot be had (too large for the limits of its Tables, the solver
// busy or failed), it plays as expert; Fallback says why. It takes the
// table from its Tables at every decision and keeps no reference to it, so
// a table dropped from memory is freed and read back when needed; under
// Limits.NoWait it plays as expert while the table is being got.
//
// Cost: the first decision of a turn solves that turn from the table (about
// 50 microseconds for classic); the duel table keeps recent turns, so the
// later decisions of the turn are lookups (well under a microsecond), and the
// bank-or-throw choice after the keep it picks is remembered from the keep
// decision. It is safe for concurrent use.
type Perfect struct {
	r      rules.Rules
	key    solved.Key
	tables *solved.Tables
	expert *Expert

	refused atomic.Pointer[error] // a refusal for good: expert from then on
	busy    atomic.Int64          // after ErrBusy: not asked again before this time (Unix ns)
	why     atomic.Pointer[error] // the last refusal of the duel table, nil if none
	memo    atomic.Pointer[choiceMemo]

	// three is set while the bot plays a three-player game with its three
	// seats in (PrepareFor(3), or its last decision): Fallback then says
	// why the three-player table is not used (three.go).
	three atomic.Bool
}

// busyBackoff is how long a perfect bot told the solver is busy plays as
// expert before it asks again (each ask computes the solve's size).
const busyBackoff = 5 * time.Second

// choiceMemo is the bank choice after the keep last picked.
type choiceMemo struct {
	pos  solve.DuelPosition
	bank bool
}

// Prepare gets the duel table (see solved.Tables.Duel), waiting for it; when it
// cannot be had, the error says why and the expert's policy is prepared
// instead. An error never stops the bot: it then plays as expert.
func (p *Perfect) Prepare() error {
	_, err := p.fetch(true)
	if err != nil {
		p.expert.Prepare()
	}
	return err
}

// fetch returns the duel table from the bot's Tables, or why not.
func (p *Perfect) fetch(wait bool) (*solve.Table, error) {
	if e := p.refused.Load(); e != nil {
		return nil, *e
	}
	now := time.Now().UnixNano()
	if now < p.busy.Load() {
		return nil, solved.ErrBusy
	}
	t, err := p.tables.DuelOf(p.key, wait)
	switch {
	case solved.Permanent(err):
		p.refused.Store(&err)
	case errors.Is(err, solved.ErrBusy):
		p.busy.Store(now + int64(busyBackoff))
	}
	if old := p.why.Load(); err != nil || old != nil {
		p.why.Store(&err)
	}
	return t, err
}

// Fallback returns why the bot plays as expert now ("its table would need
// 2.1 GiB, more than the solver memory of 512.0 MiB", "the solver is busy",
// "its table is being prepared (43%)"), in English, or "" when it plays
// with its table or has not asked for it yet.
func (p *Perfect) Fallback() string { return p.FallbackWhy().In(nil) }

// FallbackWhy is Fallback for front ends that say it in their player's
// language (solved.Why.In); the zero Why when the bot plays with its table.
// In a three-player game it asks for the table again (without waiting), so
// that the progress of its preparation is the current one.
func (p *Perfect) FallbackWhy() solved.Why {
	if p.three.Load() {
		_, err := p.tables.ThreeOf(p.key, false)
		return solved.WhyOf(err)
	}
	if e := p.why.Load(); e != nil {
		return solved.WhyOf(*e)
	}
	return solved.Why{}
}

// Table returns the duel table, waiting for it unless its Tables has
// Limits.NoWait; nil when perfect plays as expert.
func (p *Perfect) Table() *solve.Table {
	t, _ := p.fetch(!p.tables.Limits().NoWait)
	return t
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

// table returns the duel table for a decision of v, nil to play as expert.
func (p *Perfect) table(v *View) *solve.Table {
	p.three.Store(false)
	if v.Players < 2 {
		return nil
	}
	return p.Table()
}

// Keep implements Decider.
func (p *Perfect) Keep(v *View) int {
	if IsThree(v) {
		return p.keep3(v)
	}
	t := p.table(v)
	if t == nil {
		return p.expert.Keep(v)
	}
	opts, _, err := t.Options(DuelPosition(v, v.Total, v.Left), v.Throw)
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
	if IsThree(v) {
		return p.bank3(v)
	}
	t := p.table(v)
	if t == nil {
		return p.expert.Bank(v)
	}
	pos := DuelPosition(v, v.Total, v.Left)
	if m := p.memo.Load(); m != nil && m.pos == pos {
		return m.bank
	}
	c, err := t.Choice(pos)
	if err != nil {
		return p.expert.Bank(v)
	}
	return c.BankBest
}

// Choose implements Strategy.
func (p *Perfect) Choose(s engine.State) engine.Action { return choose(p, s) }
