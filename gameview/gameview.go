// Package gameview is the ordinary game as clients see it on the wire
// (docs/API.md, "The WebSocket protocol"): the state with the seat to act
// and the legal actions with their points, the lines of the log, the texts
// of a hint's choices and the odds of a throw. The server sends them over
// its WebSocket; the browser's local games (package localplay, compiled to
// WebAssembly) make the very same values, so one page draws both. The
// types are this package's own, filled from the engine's, so that a change
// in package engine changes what clients read only where this file says so.
package gameview

import (
	"encoding"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// State is the game as clients see it: the engine state with what a
// client needs to draw the choices: the seat to act and the legal actions
// with their points.
type State struct {
	Players    []Standing `json:"players"`
	Phase      string     `json:"phase"` // "first-roll-off", "play", "tie-roll-off" or "over"
	Current    int        `json:"current"`
	Step       string     `json:"step"` // "throw", "keep", "choose", or "" outside a turn
	Total      int        `json:"total"`
	Left       int        `json:"left"`
	Throw      []int      `json:"throw"`
	Kept       []int      `json:"kept"`
	FinalRound bool       `json:"final_round"`
	Trigger    int        `json:"trigger"`
	Contenders []int      `json:"contenders,omitempty"`
	RollFaces  []int      `json:"roll_faces,omitempty"`
	Winners    []int      `json:"winners,omitempty"`
	Version    int        `json:"version"`
	Actor      int        `json:"actor"`
	ToThrow    int        `json:"to_throw"`
	Legal      []Legal    `json:"legal"`
	BankWhy    string     `json:"bank_why,omitempty"` // why Bank is not allowed now
}

// Standing is one seat's standing.
type Standing struct {
	Name     string `json:"name"`
	Score    int    `json:"score"`
	Streak   int    `json:"streak"`
	Banked   int    `json:"banked"`
	Penalty  int    `json:"penalty"`
	Turns    int    `json:"turns"`
	Farkles  int    `json:"farkles"`
	BestTurn int    `json:"best_turn"`
	Out      bool   `json:"out,omitempty"`
}

// Legal is one legal action; a keep with its dice and points.
type Legal struct {
	Type   string `json:"type"`
	Dice   []int  `json:"dice,omitempty"`
	Points int    `json:"points,omitempty"`
}

// Action is an action played: its type, the seat and the dice kept.
type Action struct {
	Type   string `json:"type"`
	Player int    `json:"player"`
	Dice   []int  `json:"dice,omitempty"`
}

// name is the name a package gives a value of one of its enumerations.
func name(m encoding.TextMarshaler) string {
	b, _ := m.MarshalText()
	return string(b)
}

// faces are the faces of a hand in ascending order, [] for none.
func faces(h dice.Hand) []int { return append([]int{}, h.Faces()...) }

// ActionOf returns the action as clients see it.
func ActionOf(a engine.Action) Action {
	return Action{Type: name(a.Kind), Player: a.Player, Dice: a.Dice.Faces()}
}

// Of returns the state s as clients see it.
func Of(s engine.State) *State {
	v := &State{Players: make([]Standing, len(s.Players)), Phase: name(s.Phase), Current: s.Current, Step: name(s.Step),
		Total: s.Total, Left: s.Left, Throw: faces(s.Throw), Kept: faces(s.Kept), FinalRound: s.FinalRound, Trigger: s.Trigger,
		Contenders: s.Contenders, RollFaces: s.RollFaces, Winners: s.Winners, Version: s.Version,
		Actor: s.Actor(), ToThrow: s.ToThrow(), Legal: []Legal{}}
	for i, p := range s.Players {
		v.Players[i] = Standing{Name: p.Name, Score: p.Score, Streak: p.Streak, Banked: p.Banked, Penalty: p.Penalty,
			Turns: p.Turns, Farkles: p.Farkles, BestTurn: p.BestTurn, Out: p.Out}
	}
	if s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
		for _, k := range s.Table().Keeps(s.Throw) {
			v.Legal = append(v.Legal, Legal{Type: name(engine.Keep), Dice: k.Hand.Faces(), Points: int(k.Points)})
		}
	} else {
		for _, a := range s.Legal() {
			v.Legal = append(v.Legal, Legal{Type: name(a.Kind)})
		}
	}
	if ok, why := s.CanBank(); !ok && s.Phase == engine.PhasePlay && s.Step == engine.StepChoose {
		v.BankWhy = why
	}
	return v
}

// Line is one event of the game as the log shows it.
type Line struct {
	Version int    `json:"version"` // the state version after the action
	Type    string `json:"type"`
	Player  int    `json:"player"`
	Text    string `json:"text"`
	// Dice are the faces of a roll-off, throw or keep event, ascending: the
	// page draws a farkle's dead dice, and a replay's keep, from them.
	Dice []int `json:"dice,omitempty"`
}

// LineOf is the line of event e of the action that brought the game to
// version, its text in the language of c with the players' names.
func LineOf(c *lang.Catalogue, version int, e engine.Event, names []string) Line {
	return Line{Version: version, Type: e.Kind.String(), Player: e.Player, Text: e.DescribeIn(c, names), Dice: e.Dice.Faces()}
}

// ChoiceText says what choosing a in s is, in the language of c, for a
// hint: "keep 1 5 (150), then throw 4" in English is "behold 1 5 (150), så
// kast 4" in Norwegian. The dice are named by their faces, as everywhere;
// the points and the dice left come from the game itself, what follows a
// keep from then (engine.Bank, engine.Throw, or 0: nothing to say). A keep
// the engine refuses in s has no text ("").
func ChoiceText(c *lang.Catalogue, s engine.State, a engine.Action, then engine.Kind) string {
	switch a.Kind {
	case engine.Keep:
		a.Player = s.Actor()
		after, _, err := engine.Apply(s, a, nil)
		if err != nil {
			return ""
		}
		text := c.Msg("web.hint.keep", "dice", a.Dice.String(), "points", after.Total-s.Total)
		switch then {
		case engine.Bank:
			text += c.Msg("web.hint.thenBank", "total", after.Total)
		case engine.Throw:
			text += c.Msg("web.hint.thenThrow", "n", after.ToThrow())
		}
		return text
	case engine.Throw:
		return c.Msg("web.hint.throw", "n", s.ToThrow())
	case engine.Bank:
		return c.Msg("tui.lines.bank", "total", s.Total)
	}
	return ""
}

// Odds are what the seat to act faces with its next throw, from the dice
// alone (no solver): given to those who may not ask the seat's advice.
type Odds struct {
	Seat int `json:"seat"` // the seat to act
	// Dice is the number of dice of the throw: the dice it is to throw, or,
	// with a throw on the table, the dice of that throw.
	Dice    int     `json:"dice"`
	Turn    int     `json:"turn"`     // the turn total at risk
	PFarkle float64 `json:"p_farkle"` // the probability that the throw scores nothing
	// Expected is the expected points of the best keep of the throw (a
	// farkle counts 0; six dice scoring nothing count their bonus where the
	// rules give one).
	Expected float64 `json:"expected"`
}

// OddsOf returns the odds of the seat to act in s (a play phase).
func OddsOf(s engine.State) Odds {
	n := s.ToThrow()
	if s.Step == engine.StepKeep {
		n = s.Throw.N()
	}
	o := s.Table().Odds(n)
	return Odds{Seat: s.Actor(), Dice: n, Turn: s.Total, PFarkle: o.PFarkle(), Expected: o.Expected()}
}
