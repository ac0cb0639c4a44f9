package server

import (
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
)

// Advisor values choices for the hint button and analyses finished games
// for the end-of-game screen. Server works without one (hints and analysis
// are then reported as unavailable).
type Advisor interface {
	// Advise returns the value of every legal action of s for the player to
	// act, best first.
	Advise(s engine.State) (Advice, error)
	// Analyze rates each player's decisions in a finished game.
	Analyze(rec *record.Record) (Analysis, error)
}

// Advice is the value of every choice in one position.
type Advice struct {
	Measure string   `json:"measure"` // "win" (probability of winning) or "points" (expected points)
	Choices []Choice `json:"choices"` // best first
}

// Choice is one legal action and its value.
type Choice struct {
	Action engine.Action `json:"action"`
	Text   string        `json:"text"`  // e.g. "keep 1 5, throw 4 dice"
	Value  float64       `json:"value"` // in Measure's unit
	Best   bool          `json:"best"`
}

// Analysis rates the decisions of every player of a game.
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
	Action int     `json:"action"` // index into the record's actions
	Chosen string  `json:"chosen"`
	Best   string  `json:"best"`
	Lost   float64 `json:"lost"`
}
