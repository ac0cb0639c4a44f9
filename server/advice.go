package server

import (
	"encoding/json"
	"math"
	"sort"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/gameview"
	"github.com/farkle/farkle/lang"
)

// Analyzer analyses finished games of every kind for the end-of-game
// screen (the hints of every kind are the Cast's: hints.go). Server works
// without one (analysis is then reported as unavailable).
type Analyzer interface {
	// Analyze rates each player's decisions in a finished game of any
	// kind, its seed revealed.
	Analyze(rec *game.Record) (Analysis, error)
}

// MeasureName is the short name of a measure on the wire: "win",
// "points" or "soldiers".
func MeasureName(m game.Measure) string {
	switch m {
	case game.WinProbability:
		return "win"
	case game.ExpectedSoldiers:
		return "soldiers"
	}
	return "points"
}

// Advice is the value of every choice in one position, or the odds of the
// throw ahead for those not to act.
type Advice struct {
	// Measure is "win" (probability of winning), "points" (expected points
	// of the rest of the turn) or "odds" (no choices: Odds).
	Measure string `json:"measure"`
	// Note says why a weaker measure was used, e.g. "win chances are not
	// available: its table is being prepared".
	Note    string   `json:"note,omitempty"`
	Choices []Choice `json:"choices"` // best first (the server sorts them)
	Odds    *Odds    `json:"odds,omitempty"`
}

// Choice is one legal action and its value. In JSON its action is exactly
// what a client sends back in an action message: {"type":"keep","dice":[1,5]}.
type Choice struct {
	Action engine.Action `json:"action"`
	Text   string        `json:"text"` // e.g. "keep 1 5 (150), then throw 4", written by the server in the page's language
	// Then is, after a keep, what the advisor would do next: engine.Bank,
	// engine.Throw, or 0 (nothing to say). The text says it.
	Then  engine.Kind `json:"-"`
	Value float64     `json:"value"` // in Measure's unit
	Best  bool        `json:"best"`
}

// MarshalJSON writes the choice with its action in the form of an action
// message (no player: the seat says who acts).
func (c Choice) MarshalJSON() ([]byte, error) {
	a := actionMsg{Type: c.Action.Kind}
	if c.Action.Kind == engine.Keep {
		a.Dice = c.Action.Dice.Faces()
	}
	v := c.Value
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0 // JSON has no such numbers; a valid advisor never gives them
	}
	return json.Marshal(struct {
		Action actionMsg `json:"action"`
		Text   string    `json:"text"`
		Value  float64   `json:"value"`
		Best   bool      `json:"best"`
	}{a, c.Text, v, c.Best})
}

// sortChoices puts the choices of advice for s best first: by value, the
// highest first; equal values put the one marked best first, then keep the
// order of s.Legal().
func sortChoices(adv *Advice, s engine.State) {
	legal := s.Legal()
	rank := func(a engine.Action) int {
		for i, l := range legal {
			if l.Kind == a.Kind && l.Dice == a.Dice {
				return i
			}
		}
		return len(legal)
	}
	val := func(c Choice) float64 {
		if math.IsNaN(c.Value) {
			return math.Inf(-1)
		}
		return c.Value
	}
	cs := adv.Choices
	sort.SliceStable(cs, func(i, j int) bool {
		vi, vj := val(cs[i]), val(cs[j])
		switch {
		case vi != vj:
			return vi > vj
		case cs[i].Best != cs[j].Best:
			return cs[i].Best
		}
		return rank(cs[i].Action) < rank(cs[j].Action)
	})
}

// Odds are what the seat to act faces with its next throw, from the dice
// alone (no solver): given to those who may not ask the seat's advice.
type Odds = gameview.Odds

// oddsAdvice returns the odds of s's seat to act (a play phase).
func oddsAdvice(s engine.State) *Advice {
	o := gameview.OddsOf(s)
	return &Advice{Measure: "odds", Choices: []Choice{}, Odds: &o}
}

// Analysis rates the decisions of every player of a game. Its Measure is
// "win" (lost win chances), "points" (expected points) or "soldiers"
// (Dragon Farkle's expected soldiers, with the Final Battle's decisions
// valued in win chances).
type Analysis struct {
	Measure string           `json:"measure"`
	Players []PlayerAnalysis `json:"players"`
}

// PlayerAnalysis sums one seat's decisions: how many, how many fell short of
// the best, the value lost in all, and the costliest moments.
type PlayerAnalysis struct {
	Seat      int      `json:"seat"`
	Name      string   `json:"name"`
	Decisions int      `json:"decisions"`
	Mistakes  int      `json:"mistakes"`
	Lost      float64  `json:"lost"`
	Worst     []Moment `json:"worst,omitempty"`
}

// Moment is one decision that fell short: what was chosen, what was best,
// and the value lost.
type Moment struct {
	Action int     `json:"action"` // the number of the action in the record, from 1
	Chosen string  `json:"chosen"`
	Best   string  `json:"best"`
	Lost   float64 `json:"lost"`
	Where  *Where  `json:"where,omitempty"` // the position, for the explorer's link
}

// Where is the position of a decision as the explorer takes it: the
// scores of the player and of the strongest opponent, the turn total, the
// dice to throw or thrown, and the throw to keep from (none for bank or
// throw).
type Where struct {
	Me    int   `json:"me"`
	Them  int   `json:"them"`
	Turn  int   `json:"turn"`
	Dice  int   `json:"dice"`
	Throw []int `json:"throw,omitempty"`
}

// describeChoices writes the texts of adv's choices for s in the language
// of c (gameview.ChoiceText): every language's text is made here, English
// included, so an advisor gives values, not words. A choice the engine
// refuses keeps the advisor's own text, if any.
func describeChoices(c *lang.Catalogue, s engine.State, adv *Advice) {
	for i := range adv.Choices {
		ch := &adv.Choices[i]
		if text := gameview.ChoiceText(c, s, ch.Action, ch.Then); text != "" {
			ch.Text = text
		}
	}
}
