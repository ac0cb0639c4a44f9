package advise

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
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

// Analyze replays rec (record.Replay: it does not check the dice against the
// seed; see record.Verify) and values every real decision in it, a keep
// from a throw with more than one legal keep or a choice between throwing
// and banking: the best choice and how much the one played lost. A
// resignation is not a decision and is skipped. The advisor must be for the
// record's rules.
func (a *Advisor) Analyze(rec *record.Record) (*Report, error) {
	if rec.Rules.Hash() != a.r.Hash() {
		return nil, fmt.Errorf("advise: the record's rules are not the advisor's")
	}
	_, steps, err := record.Replay(rec)
	if err != nil {
		return nil, err
	}
	rep := &Report{Rules: rec.Rules.Name, Measure: a.Measure(), Decisions: []Decision{}}
	if a.duel == nil && len(rec.Players) > 1 {
		rep.Note = "expected points of the turn: the scores of the game are not taken into account"
	} else if len(rec.Players) > 2 {
		rep.Note = "win probability against the strongest opponent only (a two-player table)"
	}
	for i, st := range steps {
		s := st.Before
		if st.Action.Kind == engine.Resign {
			continue // leaving the game is not a move the advisor values
		}
		if s.Phase != engine.PhasePlay || (s.Step != engine.StepKeep && s.Step != engine.StepChoose) || len(s.Legal()) < 2 {
			continue
		}
		adv, err := a.State(s)
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		best := adv.Best()
		played := -1
		for j := range adv.Choices {
			if adv.Choices[j].Engine() == st.Action {
				played = j
			}
		}
		if best == nil || played < 0 {
			return nil, fmt.Errorf("action %d (%s): not among the choices the advisor sees", i+1, st.Action)
		}
		c := &adv.Choices[played]
		turns := 0
		for _, p := range s.Players {
			turns += p.Turns
		}
		d := Decision{
			Action: i + 1, Turn: turns, Player: s.Current, Name: s.Players[s.Current].Name,
			Position: adv.Position, Played: describe(c, false), Best: describe(best, true),
			Value: c.Value, BestValue: best.Value, Loss: max(0, best.Value-c.Value),
		}
		if d.Loss < Tolerance {
			d.Loss = 0
		}
		rep.Decisions = append(rep.Decisions, d)
	}
	rep.summarize(rec.Players)
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

// describe names a choice: "keep 1 5" (with then: "keep 1 5 then bank"),
// "throw", "bank".
func describe(c *Choice, then bool) string {
	if c.Action == engine.Keep {
		if then && c.Then != "" {
			return fmt.Sprintf("keep %s then %s", c.Keep, c.Then)
		}
		return "keep " + c.Keep.String()
	}
	return c.Action.String()
}
