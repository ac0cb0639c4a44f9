package bot

import (
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// Threshold is a simple personality: it keeps the keep with the most points
// per die kept (all dice when that makes hot dice), and banks once the turn
// total reaches BankAt[dice left] (index 0: hot dice, never bank below).
type Threshold struct {
	BankAt [7]int
}

func init() {
	addLevel(Level{
		Name:        "steady",
		Description: "banks 300 or more with three dice or fewer left; a sensible club player",
		new: func(rules.Rules) (Strategy, error) {
			return &Threshold{BankAt: [7]int{1 << 30, 300, 300, 300, 400, 600, 1000}}, nil
		},
	})
}

// Choose implements Strategy.
func (t *Threshold) Choose(s engine.State) engine.Action {
	legal := s.Legal()
	if s.Phase != engine.PhasePlay || len(legal) == 1 {
		return legal[0]
	}
	if s.Step == engine.StepKeep {
		return legal[t.pickKeep(s)]
	}
	var bank, throw *engine.Action
	for i := range legal {
		switch legal[i].Kind {
		case engine.Bank:
			bank = &legal[i]
		case engine.Throw:
			throw = &legal[i]
		}
	}
	if bank != nil && (throw == nil || s.Total >= t.BankAt[s.Left]) {
		return *bank
	}
	return *throw
}

// pickKeep returns the index into s.Legal() of the keep to take.
func (t *Threshold) pickKeep(s engine.State) int {
	keeps := s.Table().Keeps(s.Throw)
	best, bestScore := 0, -1.0
	for i, k := range keeps {
		score := float64(k.Points) / float64(k.N)
		if k.Hand == s.Throw {
			score += 1000 // hot dice (or the last dice): keep them all
		}
		if score > bestScore || (score == bestScore && k.Points > keeps[best].Points) {
			best, bestScore = i, score
		}
	}
	return best
}
