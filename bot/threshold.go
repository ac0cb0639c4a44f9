package bot

import (
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// Never is a bank threshold no turn total reaches.
const Never = 1 << 30

// KeepStyle is how a Threshold personality picks its keep from a throw.
type KeepStyle uint8

// The keep styles.
const (
	// KeepDensity keeps the most points per die kept, and every die when
	// they all score (hot dice).
	KeepDensity KeepStyle = iota + 1
	// KeepMost keeps the most points (ties: fewer dice).
	KeepMost
	// KeepLean keeps the most points less DieCost per die kept, and every
	// die when they all score: it sets scoring dice back to throw them again.
	KeepLean
)

// Threshold is a personality: it picks its keep by a fixed style (the same
// keep for the same throw, whatever the turn) and banks once the turn total
// reaches BankAt[dice left] (index 0: all dice kept, hot dice). Every
// personality has the same game sense: it banks when banking wins at once
// (immediate ending, or ahead of everyone on the last turn of a final
// round) and throws on when banking would certainly lose (at or below the
// leader on its last turn).
//
// A Threshold is immutable after NewThreshold and safe for concurrent use.
type Threshold struct {
	BankAt  [dice.MaxDice + 1]int
	Style   KeepStyle
	DieCost int // KeepLean only: points a kept die must be worth

	table *dice.Table
	pick  [dice.NumHands]uint8 // keep index by throw index
}

func init() {
	personality := func(name, desc string, t Threshold) {
		addLevel(Level{Name: name, Description: desc, new: func(r rules.Rules, _ *options) (Strategy, error) {
			return NewThreshold(r, t.BankAt, t.Style, t.DieCost), nil
		}})
	}
	personality("cautious", "banks anything with two dice or fewer left and 200-500 with more; keeps every point it can",
		Threshold{BankAt: [7]int{Never, 0, 0, 200, 300, 500, 1000}, Style: KeepMost})
	personality("steady", "banks 300 or more with three dice or fewer left; a sensible club player",
		Threshold{BankAt: [7]int{Never, 300, 300, 300, 400, 600, 1000}, Style: KeepDensity})
	personality("bold", "pushes on to 400-500 with three dice or fewer and further with more; sets 5s back to throw more dice",
		Threshold{BankAt: [7]int{Never, 400, 450, 500, 700, 1000, 2000}, Style: KeepLean, DieCost: 60})
	personality("reckless", "never banks under 600 and wants thousands with dice to spare; keeps as few dice as it can",
		Threshold{BankAt: [7]int{Never, 600, 800, 1000, 1500, 2500, 4000}, Style: KeepLean, DieCost: 90})
}

// NewThreshold returns the personality for rules r with the given bank
// thresholds and keep style.
func NewThreshold(r rules.Rules, bankAt [dice.MaxDice + 1]int, style KeepStyle, dieCost int) *Threshold {
	t := &Threshold{BankAt: bankAt, Style: style, DieCost: dieCost, table: engine.TableFor(r)}
	for _, h := range dice.AllThrows() {
		t.pick[h.Index()] = uint8(t.choose(h))
	}
	return t
}

// choose returns the index of the keep of throw the style takes.
func (t *Threshold) choose(throw dice.Hand) int {
	keeps := t.table.Keeps(throw)
	best, bestScore := 0, -1e18
	for i, k := range keeps {
		var score float64
		switch t.Style {
		case KeepDensity:
			score = float64(k.Points) / float64(k.N)
		case KeepMost:
			score = float64(k.Points) - float64(k.N)/10
		default:
			score = float64(int(k.Points) - t.DieCost*int(k.N))
		}
		if k.Hand == throw && t.Style != KeepMost {
			score += 1e6 // every die scores: keep them all and throw six again
		}
		if score > bestScore || (score == bestScore && k.Points > keeps[best].Points) {
			best, bestScore = i, score
		}
	}
	return best
}

// Keep implements Decider: a table lookup.
func (t *Threshold) Keep(v *View) int { return int(t.pick[v.ThrowIndex]) }

// Bank implements Decider.
func (t *Threshold) Bank(v *View) bool {
	switch {
	case v.BankWins():
		return true
	case v.BankLoses():
		return false
	}
	return v.Total >= t.BankAt[v.Left]
}

// Choose implements Strategy.
func (t *Threshold) Choose(s engine.State) engine.Action { return choose(t, s) }
