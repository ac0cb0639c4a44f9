package server

import (
	"encoding"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// The ordinary game on the wire (docs/API.md): the server's own types,
// filled from the engine's, so that a change in package engine changes
// what clients read only where this file says so.

// stateView is the game as clients see it: the engine state with what a
// client needs to draw the choices: the seat to act and the legal actions
// with their points.
type stateView struct {
	Players    []standingView `json:"players"`
	Phase      string         `json:"phase"` // "first-roll-off", "play", "tie-roll-off" or "over"
	Current    int            `json:"current"`
	Step       string         `json:"step"` // "throw", "keep", "choose", or "" outside a turn
	Total      int            `json:"total"`
	Left       int            `json:"left"`
	Throw      []int          `json:"throw"`
	Kept       []int          `json:"kept"`
	FinalRound bool           `json:"final_round"`
	Trigger    int            `json:"trigger"`
	Contenders []int          `json:"contenders,omitempty"`
	RollFaces  []int          `json:"roll_faces,omitempty"`
	Winners    []int          `json:"winners,omitempty"`
	Version    int            `json:"version"`
	Actor      int            `json:"actor"`
	ToThrow    int            `json:"to_throw"`
	Legal      []legalView    `json:"legal"`
	BankWhy    string         `json:"bank_why,omitempty"` // why Bank is not allowed now
}

// standingView is one seat's standing.
type standingView struct {
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

// legalView is one legal action; a keep with its dice and points.
type legalView struct {
	Type   string `json:"type"`
	Dice   []int  `json:"dice,omitempty"`
	Points int    `json:"points,omitempty"`
}

// actionView is an action played: its type, the seat and the dice kept.
type actionView struct {
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

func actionOf(a engine.Action) actionView {
	return actionView{Type: name(a.Kind), Player: a.Player, Dice: a.Dice.Faces()}
}

func makeStateView(s engine.State) *stateView {
	v := &stateView{Players: make([]standingView, len(s.Players)), Phase: name(s.Phase), Current: s.Current, Step: name(s.Step),
		Total: s.Total, Left: s.Left, Throw: faces(s.Throw), Kept: faces(s.Kept), FinalRound: s.FinalRound, Trigger: s.Trigger,
		Contenders: s.Contenders, RollFaces: s.RollFaces, Winners: s.Winners, Version: s.Version,
		Actor: s.Actor(), ToThrow: s.ToThrow(), Legal: []legalView{}}
	for i, p := range s.Players {
		v.Players[i] = standingView{Name: p.Name, Score: p.Score, Streak: p.Streak, Banked: p.Banked, Penalty: p.Penalty,
			Turns: p.Turns, Farkles: p.Farkles, BestTurn: p.BestTurn, Out: p.Out}
	}
	if s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
		for _, k := range s.Table().Keeps(s.Throw) {
			v.Legal = append(v.Legal, legalView{Type: name(engine.Keep), Dice: k.Hand.Faces(), Points: int(k.Points)})
		}
	} else {
		for _, a := range s.Legal() {
			v.Legal = append(v.Legal, legalView{Type: name(a.Kind)})
		}
	}
	if ok, why := s.CanBank(); !ok && s.Phase == engine.PhasePlay && s.Step == engine.StepChoose {
		v.BankWhy = why
	}
	return v
}
