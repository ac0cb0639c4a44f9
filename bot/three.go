package bot

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// ErrNoThreeTable is returned by Tables.Three when no three-player table
// of the rules is at hand: none was added and the cache directory holds
// none (farkle solve --players 3 makes it; a bot never solves one itself,
// as that takes minutes to hours).
var ErrNoThreeTable = errors.New("bot: no three-player table for these rules")

// threeStore holds the three-player tables of a Tables: added ones, and
// those read from the cache directory (each read once; a failed read is
// tried again by the next bot that asks).
type threeStore struct {
	mu   sync.Mutex
	tabs map[string]*solve.Three
}

// Three returns the three-player table of r (solved with the mixed orbit
// rule): one added with AddThree, else read from the cache directory within
// the solver memory (Limits.Memory, or the solver's default). Errors wrap
// solve.ErrRules (rules the three-player solver cannot solve),
// solve.ErrTooLarge, solve.ErrCache (a bad file) or ErrNoThreeTable.
func (ts *Tables) Three(r rules.Rules) (*solve.Three, error) {
	r = r.ForSolver()
	if err := solve.CheckThreeRules(r); err != nil {
		return nil, err
	}
	h := r.Hash()
	s := &ts.three
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabs[h]; t != nil {
		return t, nil
	}
	if ts.Dir == "" {
		return nil, ErrNoThreeTable
	}
	f, err := os.Open(solve.ThreeCacheFile(ts.Dir, r, solve.OrbitMixed))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoThreeTable
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", solve.ErrCache, err)
	}
	defer f.Close()
	t, err := solve.ReadThree(bufio.NewReaderSize(f, 1<<16), r, solve.OrbitMixed, ts.lim.Memory)
	if err != nil {
		return nil, err
	}
	if s.tabs == nil {
		s.tabs = map[string]*solve.Three{}
	}
	s.tabs[h] = t
	return t, nil
}

// AddThree makes t the three-player table of its rules for the life of ts.
func (ts *Tables) AddThree(t *solve.Three) {
	s := &ts.three
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tabs == nil {
		s.tabs = map[string]*solve.Three{}
	}
	s.tabs[t.Rules().Hash()] = t
}

// threeReason is Reason for the three-player table.
func threeReason(err error) string {
	switch {
	case errors.Is(err, ErrNoThreeTable):
		return "three players: no three-player table for these rules (farkle solve --players 3 makes it)"
	case errors.Is(err, solve.ErrRules):
		return "three players: the three-player solver needs rules without a farkle penalty or bank minimum"
	}
	return "three players: " + Reason(err)
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
