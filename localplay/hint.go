package localplay

import (
	"math"
	"slices"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/gameview"
	"github.com/farkle/farkle/solved"
)

// hinter values the choices of a local game by the solo policy of its
// rules, solved at the first hint (milliseconds natively) and shared with
// the expert bots through solved.DefaultTables.
type hinter struct {
	adv *advise.Advisor
	err error
}

// HintMsg is the answer to a hint request, as the server's.
type HintMsg struct {
	Type    string `json:"type"` // "hint"
	Version int    `json:"version"`
	Advice  Advice `json:"advice"`
}

// Advice is the value of every choice of the seat to act, best first
// (measure "points": the expected points of the rest of the turn), or the
// odds of the throw ahead (measure "odds") for anyone else.
type Advice struct {
	Measure string         `json:"measure"`
	Choices []Choice       `json:"choices"`
	Odds    *gameview.Odds `json:"odds,omitempty"`
}

// Choice is one legal action, its text in the game's language and its
// value; the action is what an action message carries.
type Choice struct {
	Action gameview.Legal `json:"action"`
	Text   string         `json:"text"`
	Value  float64        `json:"value"`
	Best   bool           `json:"best"`
}

// Hint answers seat's hint request: the values of the choices when seat
// is to act (a person), else the odds of the throw ahead; a refusal
// (unavailable) during a roll-off, once the game is over, or when the
// rules have no solo policy.
func (g *Game) Hint(seat int) (*HintMsg, *ErrorMsg) {
	s := g.state()
	if s.Phase != engine.PhasePlay {
		return nil, g.refuse(codeUnavailable, "no hint during a roll-off or after the game")
	}
	if seat != s.Actor() || g.bots[s.Actor()] != nil {
		o := gameview.OddsOf(s)
		return &HintMsg{Type: "hint", Version: s.Version, Advice: Advice{Measure: "odds", Choices: []Choice{}, Odds: &o}}, nil
	}
	if g.hints == nil {
		g.hints = &hinter{}
		solo, err := solved.DefaultTables().Solo(s.Rules())
		if err == nil {
			g.hints.adv, err = advise.New(s.Rules(), nil, solo)
		}
		g.hints.err = err
	}
	if g.hints.err != nil {
		return nil, g.refuse(codeUnavailable, "no hint under these rules: %v", g.hints.err)
	}
	res, err := g.hints.adv.State(s)
	if err != nil {
		return nil, g.refuse(codeUnavailable, "this position cannot be advised")
	}
	out := Advice{Measure: "points", Choices: []Choice{}}
	legal := s.Legal()
	rank := make([]int, 0, len(res.Choices))
	for _, c := range res.Choices {
		a := c.Engine()
		var then engine.Kind
		switch c.Then {
		case "bank":
			then = engine.Bank
		case "throw":
			then = engine.Throw
		}
		v := c.Value
		if math.IsNaN(v) || math.IsInf(v, 0) {
			v = 0
		}
		out.Choices = append(out.Choices, Choice{Action: gameview.Legal{Type: a.Kind.String(), Dice: a.Dice.Faces()},
			Text: gameview.ChoiceText(g.cat, s, a, then), Value: v, Best: c.Best})
		rank = append(rank, slices.IndexFunc(legal, func(l engine.Action) bool { return l.Kind == a.Kind && l.Dice == a.Dice }))
	}
	order := make([]int, len(out.Choices))
	for i := range order {
		order[i] = i
	}
	// Best first, as the server sorts: by value, then the one marked best,
	// then the order of the legal actions.
	slices.SortStableFunc(order, func(i, j int) int {
		ci, cj := out.Choices[i], out.Choices[j]
		switch {
		case ci.Value != cj.Value:
			if ci.Value > cj.Value {
				return -1
			}
			return 1
		case ci.Best != cj.Best:
			if ci.Best {
				return -1
			}
			return 1
		}
		return rank[i] - rank[j]
	})
	sorted := make([]Choice, len(order))
	for k, i := range order {
		sorted[k] = out.Choices[i]
	}
	out.Choices = sorted
	return &HintMsg{Type: "hint", Version: s.Version, Advice: out}, nil
}
