package explore

import (
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// ThreeGame is a three-player game whose exact results this project
// publishes (docs/THREE.md): a preset with a third seat, to a target.
type ThreeGame struct {
	Preset string `json:"rules"`
	Target int    `json:"target"`
}

// PublishedThree are the three-player games farkle solve --published, farkle
// explore --published and the explorer page show when their tables are at
// hand: the presets' own target, and the smaller one their tables are
// quick to make at.
var PublishedThree = []ThreeGame{{"pocket-farkel", 10000}, {"cardgames", 10000}, {"pocket-farkel", 2000}, {"cardgames", 2000}}

// Rules returns the rules of g: its preset with a third seat, to its
// target.
func (g ThreeGame) Rules() rules.Rules {
	r := WithThirdSeat(rules.MustPreset(g.Preset))
	r.Game.Target = g.Target
	return r
}

// WithThirdSeat returns r as the three-player solver takes it: rules
// for two seats only get a third (cardgames), the others are unchanged.
func WithThirdSeat(r rules.Rules) rules.Rules {
	r.Game.MaxPlayers = max(r.Game.MaxPlayers, 3)
	r.Game.MinPlayers = min(r.Game.MinPlayers, 3)
	return r
}

// ThreeResult is what a three-player table says about the start of a
// game: each seat's chance to win under perfect play (seat 1 moves
// first), the orbits (score triples where the players' best responses
// cycle: how many, how many resolved by a mixed equilibrium, and the
// largest regret left), and the fair compensation (the points given to
// each seat at the start that bring every seat's chance closest to 1/3)
// with the chances it gives.
type ThreeResult struct {
	Start    [3]float64 `json:"start"`
	Orbits   int        `json:"orbits"`
	Mixed    int        `json:"mixed"`
	Regret   float64    `json:"regret"`
	Fair     [3]int     `json:"fair"`
	FairWins [3]float64 `json:"fair_wins"`
}

// ThreeResultOf reads the result of t.
func ThreeResultOf(t *solve.Three) ThreeResult {
	res := ThreeResult{Start: t.Start(), Orbits: len(t.Orbits()), Regret: t.Regret()}
	for _, ob := range t.Orbits() {
		if ob.Mixed {
			res.Mixed++
		}
	}
	fc := t.FairCompensation()
	res.Fair, res.FairWins = fc.Points, fc.Wins
	return res
}
