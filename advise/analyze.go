package advise

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/farkle/farkle/game"
)

// Tolerance is the loss below which a choice counts as best (values equal
// up to rounding).
const Tolerance = 1e-9

// Decision is one choice a player made in a game, with its value and the
// best value they could have had.
type Decision struct {
	Action    int      `json:"action"` // number of the action in the record, from 1
	Turn      int      `json:"turn"`   // number of the turn in the game, from 1
	Player    int      `json:"player"`
	Name      string   `json:"name"`
	Position  Position `json:"position"`
	Played    string   `json:"played"` // e.g. "keep 1 5", "bank", "throw"
	Best      string   `json:"best"`
	Value     float64  `json:"value"`
	BestValue float64  `json:"best_value"`
	Loss      float64  `json:"loss"` // BestValue - Value, never negative
	// Measure is what Value, BestValue and Loss are when the report values
	// decisions in more than one measure (Dragon Farkle); empty otherwise.
	Measure Measure `json:"measure,omitempty"`
}

// measure is the decision's measure in a report whose main one is main.
func (d *Decision) measure(main Measure) Measure {
	if d.Measure != "" {
		return d.Measure
	}
	return main
}

// Summary is one player's record of decisions.
type Summary struct {
	Player    int      `json:"player"`
	Name      string   `json:"name"`
	Decisions int      `json:"decisions"`
	Best      int      `json:"best"`       // decisions with no loss
	Accuracy  *float64 `json:"accuracy"`   // Best / Decisions; null with no decisions, which have no share
	TotalLoss float64  `json:"total_loss"` // in the report's Measure
	// Losses is the total loss by measure when the report values decisions
	// in more than one (Dragon Farkle); TotalLoss is its report's Measure.
	Losses map[Measure]float64 `json:"losses,omitempty"`
	// Worst holds the (up to) three largest losses of each measure, the
	// report's Measure first, largest first.
	Worst []Decision `json:"worst"`
}

// Report is the analysis of a game.
type Report struct {
	Rules     string     `json:"rules"`
	Measure   Measure    `json:"measure"`
	Players   []Summary  `json:"players"`
	Decisions []Decision `json:"decisions"`
	Note      string     `json:"note,omitempty"`
}

// Analyze values every real decision of rec, a record of any kind, with
// the advisor c gives its variant for its players (see AnalyzeSteps). The
// steps are game.Steps': an ordinary game's recorded dice (nothing is
// checked against the seed; see game.Verify), another kind's revealed
// seed.
func Analyze(rec *game.Record, c game.Cast) (*Report, error) {
	v, err := rec.Variant()
	if err != nil {
		return nil, err
	}
	adv, err := c.Advisor(v, len(rec.Players))
	if err != nil {
		return nil, err
	}
	return AnalyzeWith(rec, adv)
}

// AnalyzeWith is Analyze with the advisor adv, which must be one of rec's
// variant.
func AnalyzeWith(rec *game.Record, adv game.Advisor) (*Report, error) {
	v, err := rec.Variant()
	if err != nil {
		return nil, err
	}
	_, steps, err := game.Steps(rec)
	if err != nil {
		return nil, err
	}
	return AnalyzeSteps(v, rec.Players, steps, adv)
}

// AnalyzeSteps values every real decision of a game of v played by
// players, given as the steps of game.Steps, game.Verify, game.Replay or
// game.Resume, with the advisor adv (one of v's): a choice among two or
// more actions the advisor values in one measure (a keep from a throw with
// more than one legal keep, throwing on against banking; in Dragon Farkle
// recruiting, brawling, and the Final Battle's keeps, throws and
// retreats), with the best of them and what the one played lost. Choices
// it cannot value are no decisions: a roll-off, a resignation, Dragon
// Farkle's card plays (its start of a turn once the battle is among the
// choices is valued in the chance to win at the next battle). The
// Report's Measure is the advisor's; a decision valued in another one
// says so (Decision.Measure).
func AnalyzeSteps(v game.Variant, players []string, steps []game.Step, adv game.Advisor) (*Report, error) {
	if c, ok := adv.(interface{ checkRules(game.Variant) error }); ok {
		if err := c.checkRules(v); err != nil {
			return nil, err
		}
	}
	adv, err := settle(adv)
	if err != nil {
		return nil, err
	}
	rep := &Report{Rules: v.Name(), Measure: adv.Measure(), Decisions: []Decision{}}
	if n, ok := adv.(interface{ reportNote(players int) string }); ok {
		rep.Note = n.reportNote(len(players))
	}
	for i, st := range steps {
		if len(st.Before.Players()) != len(players) || st.Seat < 0 || st.Seat >= len(players) {
			return nil, fmt.Errorf("advise: action %d: seat %d of a game of %d players, not of %d", i+1, st.Seat, len(st.Before.Players()), len(players))
		}
		a, err := adv.Advise(st.Before, st.Seat)
		if errors.Is(err, game.ErrNoDecision) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		if len(a.Choices) < 2 || !a.OneMeasure() {
			continue
		}
		best := a.Best()
		mine := slices.IndexFunc(a.Choices, func(c game.Choice) bool { return c.Action == st.Action })
		if best == nil || mine < 0 {
			continue // not a choice the advisor values: a resignation, a card played
		}
		c := &a.Choices[mine]
		d := Decision{
			Action: i + 1, Turn: a.Turn, Player: st.Seat, Name: players[st.Seat],
			Position: a.Position, Played: describe(c, players, false), Best: describe(best, players, true),
			Value: c.Value, BestValue: best.Value, Loss: max(0, best.Value-c.Value), Measure: c.Measure,
		}
		if d.Loss < Tolerance {
			d.Loss = 0
		}
		rep.Decisions = append(rep.Decisions, d)
	}
	rep.summarize(players)
	return rep, nil
}

// summarize adds the summary of each player's decisions to rep.
func (rep *Report) summarize(players []string) {
	mixed := false
	for _, d := range rep.Decisions {
		mixed = mixed || d.measure(rep.Measure) != rep.Measure
	}
	for p, name := range players {
		sum := Summary{Player: p, Name: name, Worst: []Decision{}}
		lost := map[Measure][]Decision{}
		losses := map[Measure]float64{}
		for _, d := range rep.Decisions {
			if d.Player != p {
				continue
			}
			m := d.measure(rep.Measure)
			sum.Decisions++
			losses[m] += d.Loss
			if d.Loss == 0 {
				sum.Best++
			} else {
				lost[m] = append(lost[m], d)
			}
		}
		sum.TotalLoss = losses[rep.Measure]
		if mixed {
			sum.Losses = losses
		}
		if sum.Decisions > 0 {
			acc := float64(sum.Best) / float64(sum.Decisions)
			sum.Accuracy = &acc
		}
		measures := []Measure{rep.Measure}
		for _, m := range slices.Sorted(maps.Keys(lost)) {
			if m != rep.Measure {
				measures = append(measures, m)
			}
		}
		for _, m := range measures {
			mine := lost[m]
			sort.SliceStable(mine, func(i, j int) bool { return mine[i].Loss > mine[j].Loss })
			sum.Worst = append(sum.Worst, mine[:min(3, len(mine))]...)
		}
		rep.Players = append(rep.Players, sum)
	}
}

// describe names a choice with the players' names: "keep 1 5" (with
// then: "keep 1 5 then bank"), "throw", "bank", "brawl Ana".
func describe(c *game.Choice, players []string, then bool) string {
	name := c.Action.String()
	if n, ok := c.Action.(interface{ Named(names []string) string }); ok {
		name = n.Named(players)
	}
	if then && c.Then != "" {
		return name + " then " + c.Then
	}
	return name
}
