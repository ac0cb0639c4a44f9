package tui

import (
	"fmt"
	"math"
	"slices"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// Measures an Advice can be in.
const (
	WinProbability = "win probability" // Value is 0..1
	ExpectedPoints = "expected points" // Value is points
	PointsNow      = "points now"      // Value is the points a keep scores at once
)

// Choice is one thing the player to act can do: keep Keep (none for a
// plain throw or bank) and then Then (engine.Throw, engine.Bank, or 0 when
// the advisor values the keep alone), valued Value in the Advice's
// Measure. Note is an optional remark ("P(farkle) 0.33").
type Choice struct {
	Keep  dice.Hand
	Then  engine.Kind
	Value float64
	Note  string
}

// Label names the choice: "keep 1 5, throw", "keep 1 1 5", "bank".
func (c Choice) Label() string {
	switch {
	case c.Keep == 0 && c.Then == 0:
		return "nothing"
	case c.Keep == 0:
		return c.Then.String()
	case c.Then == 0:
		return "keep " + c.Keep.String()
	}
	return fmt.Sprintf("keep %s, %s", c.Keep, c.Then)
}

// Advice is the value of every choice in a position, best first, with an
// optional remark on the position or the values.
type Advice struct {
	Measure string
	Choices []Choice
	Note    string
}

// Format returns v in the advice's measure: "43.1%" or "512"; "-" for
// NaN (a choice the advisor does not value).
func (a Advice) Format(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	switch a.Measure {
	case WinProbability:
		return fmt.Sprintf("%.1f%%", 100*v)
	case ExpectedPoints:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// Advisor values the choices of the player to act in a position.
type Advisor interface {
	Advise(s engine.State) (Advice, error)
}

// PointsAdvisor is the advisor used when no solver is at hand: after a
// throw it lists every keep with the points it scores now (most first),
// and before a throw it lists banking (the turn total) and throwing (with
// the exact chance to farkle). It looks no further than the next throw.
type PointsAdvisor struct{}

// Advise implements Advisor.
func (PointsAdvisor) Advise(s engine.State) (Advice, error) {
	adv := Advice{Measure: PointsNow}
	if s.Phase != engine.PhasePlay {
		return adv, fmt.Errorf("tui: no choice to advise on during a roll-off")
	}
	t := s.Table()
	switch s.Step {
	case engine.StepKeep:
		for _, k := range t.Keeps(s.Throw) {
			left := s.Left - int(k.N)
			note := fmt.Sprintf("turn %d, %d %s left", s.Total+int(k.Points), left, plural(left, "die", "dice"))
			if left == 0 && s.Rules().Turn.HotDice {
				note = fmt.Sprintf("turn %d, hot dice", s.Total+int(k.Points))
			}
			adv.Choices = append(adv.Choices, Choice{Keep: k.Hand, Value: float64(k.Points), Note: note})
		}
		slices.SortStableFunc(adv.Choices, func(a, b Choice) int {
			if a.Value != b.Value {
				if a.Value > b.Value {
					return -1
				}
				return 1
			}
			return a.Keep.N() - b.Keep.N() // fewer dice kept first: more to throw
		})
	default:
		if ok, _ := s.CanBank(); ok {
			adv.Choices = append(adv.Choices, Choice{Then: engine.Bank, Value: float64(s.Total), Note: "banks the turn total"})
		}
		if s.CanThrow() {
			n := s.ToThrow()
			adv.Choices = append(adv.Choices, Choice{Then: engine.Throw, Value: math.NaN(),
				Note: fmt.Sprintf("%d dice: P(farkle) %.2f, risks %d", n, t.Odds(n).PFarkle(), s.Total)})
		}
	}
	return adv, nil
}
