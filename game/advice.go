package game

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// Measure is what the values of advice are.
type Measure string

// The measures.
const (
	// WinProbability: the probability of winning (the ordinary game: a
	// two-player game with best play from then on; Dragon Farkle: the Final
	// Battle).
	WinProbability Measure = "win probability"
	// ExpectedPoints: the points the rest of the turn is expected to bank
	// with best play.
	ExpectedPoints Measure = "expected points"
	// ExpectedSoldiers: the soldiers a Dragon Farkle decision is expected
	// to bring: banked this turn while recruiting, or the net gain against
	// the opponents of a brawl.
	ExpectedSoldiers Measure = "expected soldiers"
)

// Text says the measure in the language of c (keys cli.measure.*, e.g.
// "win probability", "vinnersjanse"), or as it is when c has no text for
// it.
func (m Measure) Text(c *lang.Catalogue) string {
	if k := "cli.measure." + strings.ReplaceAll(string(m), " ", "_"); c.Has(k) {
		return c.Msg(k)
	}
	return string(m)
}

// Position is where the seat to act stands at a decision, as an advisor
// sees it ("me"): the scores (Dragon Farkle: soldiers) of the seat and of
// its strongest opponent, the turn total (Dragon Farkle: the recruiting
// pool), the dice to throw or thrown, and the throw to keep from.
type Position struct {
	Me          int `json:"me"`
	Them        int `json:"them"` // the (strongest) opponent's score
	MyStreak    int `json:"my_streak,omitempty"`
	TheirStreak int `json:"their_streak,omitempty"`
	Total       int `json:"turn"` // turn total so far
	// Dice is the number of dice to throw, or with Throw the number thrown
	// (1..rules.Dice; all of them at the start of a turn and after hot
	// dice).
	Dice int `json:"dice"`
	// Throw is the throw on the table to keep from; zero when the choice is
	// to throw or bank.
	Throw dice.Hand `json:"throw,omitempty"`
}

// Choice is one action an advisor values.
type Choice struct {
	Action Action
	Value  float64
	// Measure is what Value is when it is not the Advice's (Dragon Farkle
	// values the Final Battle's choices as chances among soldiers); ""
	// otherwise.
	Measure Measure
	// Best marks the best choice when the choices share one measure.
	Best bool
	// Then is what the advisor would do after the choice, in its plan:
	// "bank", "throw", "none" (the turn ends scoring nothing), or "".
	Then string
}

// Advice is the value of the choices of one seat at one decision.
type Advice struct {
	Measure  Measure
	Position Position
	// Turn is the number of the turn in the game, from 1.
	Turn int
	// Note says what the values assume, or why a weaker measure is used.
	Note string
	// Choices are the legal actions the advisor can value: best first when
	// they share one measure, else in the order of Game.Legal.
	Choices []Choice
}

// MeasureOf returns the measure of choice c of a.
func (a *Advice) MeasureOf(c Choice) Measure {
	if c.Measure != "" {
		return c.Measure
	}
	return a.Measure
}

// OneMeasure reports whether every choice has the same measure: only then
// is one of them best.
func (a *Advice) OneMeasure() bool {
	for _, c := range a.Choices {
		if a.MeasureOf(c) != a.MeasureOf(a.Choices[0]) {
			return false
		}
	}
	return true
}

// Best returns the choice marked best, nil when none is.
func (a *Advice) Best() *Choice {
	for i := range a.Choices {
		if a.Choices[i].Best {
			return &a.Choices[i]
		}
	}
	return nil
}

// Rank puts the choices best first when they share one measure, and marks
// the first of the highest value best unless one is marked already (an
// advisor's own order decides between equal values: the order it gave
// them). A value that is not a number counts as the lowest.
func (a *Advice) Rank() {
	if len(a.Choices) == 0 || !a.OneMeasure() {
		return
	}
	val := func(c Choice) float64 {
		if math.IsNaN(c.Value) {
			return math.Inf(-1)
		}
		return c.Value
	}
	slices.SortStableFunc(a.Choices, func(x, y Choice) int {
		if c := cmp.Compare(val(y), val(x)); c != 0 {
			return c
		}
		switch {
		case x.Best == y.Best:
			return 0
		case x.Best:
			return -1
		}
		return 1
	})
	if a.Best() == nil {
		a.Choices[0].Best = true
	}
}

// ErrNoDecision is wrapped when an advisor is asked about a game with no
// decision for the seat: a roll-off, another seat's turn, the game over.
var ErrNoDecision = errors.New("game: no decision to advise on")

// Advisor values the choices of a seat: the hints of the front ends and
// the analysis of records (package advise). Every kind's advisor comes
// from its Players.
type Advisor interface {
	// Measure is what the values of its advice are, unless a choice says
	// otherwise.
	Measure() Measure
	// Advise values the choices of seat in g (which must wait for seat),
	// or returns an error wrapping ErrNoDecision.
	Advise(g Game, seat int) (*Advice, error)
}
