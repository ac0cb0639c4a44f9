package engine

import (
	"fmt"
	"github.com/farkle/farkle/lang"
	"strings"

	"github.com/farkle/farkle/dice"
)

// EventKind is what happened.
type EventKind uint8

// The events of a game.
const (
	EvRollOff        EventKind = iota + 1 // Player threw Dice (one die) in a roll-off
	EvRollOffTie                          // Players tied the roll-off and throw again
	EvFirstPlayer                         // Player starts the game
	EvTurn                                // Player's turn starts
	EvThrow                               // Player threw Dice
	EvSixDiceNothing                      // six dice scored nothing: Points bonus, turn Total, throw six again
	EvKeep                                // Player kept Dice for Points; turn Total
	EvHotDice                             // every die kept: Player may throw all six again
	EvFarkle                              // Player farkled and lost Total; Streak farkles in a row
	EvPenalty                             // Player lost Points to the farkle penalty; Score after
	EvBank                                // Player banked Points; Score after
	EvTurnLost                            // no throw or bank possible: the turn ends with nothing
	EvFinalRound                          // Player reached the target: every other player has one more turn
	EvTie                                 // Players tied for the win at the end and roll off
	EvGameOver                            // Players won (several when the win is shared; none when the last player resigned)
	EvResign                              // Player resigned and is out; Total is the turn total lost
	EvTurnLimit                           // after Player's turn the game reached game.max_turns (Turns) and ends on points
)

var eventNames = [...]string{
	EvRollOff: "roll-off", EvRollOffTie: "roll-off-tie", EvFirstPlayer: "first-player",
	EvTurn: "turn", EvThrow: "throw", EvSixDiceNothing: "six-dice-nothing", EvKeep: "keep",
	EvHotDice: "hot-dice", EvFarkle: "farkle", EvPenalty: "penalty", EvBank: "bank",
	EvTurnLost: "turn-lost", EvFinalRound: "final-round", EvTie: "tie", EvGameOver: "game-over",
	EvResign: "resign", EvTurnLimit: "turn-limit",
}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// MarshalText writes the event kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads an event kind's name.
func (k *EventKind) UnmarshalText(b []byte) error {
	for i, n := range eventNames {
		if n != "" && n == string(b) {
			*k = EventKind(i)
			return nil
		}
	}
	return fmt.Errorf("engine: unknown event %q", b)
}

// Event is one thing that happened when an action was applied. Fields that
// do not apply to the kind are zero.
type Event struct {
	Kind    EventKind `json:"type"`
	Player  int       `json:"player"`
	Dice    dice.Hand `json:"dice,omitempty"`
	Points  int       `json:"points,omitempty"`
	Total   int       `json:"total,omitempty"`
	Score   int       `json:"score,omitempty"`
	Streak  int       `json:"streak,omitempty"`
	Players []int     `json:"players,omitempty"`
	Turns   int       `json:"turns,omitempty"` // EvTurnLimit: the cap, turns per player
}

// Describe returns a one-line English account of e, naming players by names.
func (e Event) Describe(names []string) string { return e.DescribeIn(lang.Get(lang.Default), names) }

// DescribeIn returns a one-line account of e in the language of c, naming
// players by names.
func (e Event) DescribeIn(c *lang.Catalogue, names []string) string {
	name := func(i int) string {
		if i >= 0 && i < len(names) {
			return names[i]
		}
		return c.Msg("ev.player", "n", i+1)
	}
	list := func(ps []int) string {
		s := make([]string, len(ps))
		for i, p := range ps {
			s[i] = name(p)
		}
		return strings.Join(s, ", ")
	}
	p := name(e.Player)
	dice := e.Dice.String()
	switch e.Kind {
	case EvRollOff:
		return c.Msg("ev.rolloff", "p", p, "dice", dice)
	case EvRollOffTie:
		return c.Msg("ev.rolloffTie", "players", list(e.Players))
	case EvFirstPlayer:
		return c.Msg("ev.first", "p", p)
	case EvTurn:
		return c.Msg("ev.turn", "p", p)
	case EvThrow:
		return c.Msg("ev.throw", "p", p, "dice", dice)
	case EvSixDiceNothing:
		return c.Msg("ev.sixNothing", "points", e.Points, "total", e.Total, "p", p)
	case EvKeep:
		return c.Msg("ev.keep", "p", p, "dice", dice, "points", e.Points, "total", e.Total)
	case EvHotDice:
		return c.Msg("ev.hot", "p", p)
	case EvFarkle:
		if e.Total == 0 { // nothing to lose: a first throw's farkle
			return c.Msg("ev.farkleNothing", "p", p, "streak", e.Streak)
		}
		return c.Msg("ev.farkle", "p", p, "total", e.Total, "streak", e.Streak)
	case EvPenalty:
		return c.Msg("ev.penalty", "p", p, "points", e.Points, "streak", e.Streak, "score", e.Score)
	case EvBank:
		return c.Msg("ev.bank", "p", p, "points", e.Points, "score", e.Score)
	case EvTurnLost:
		return c.Msg("ev.turnLost", "p", p)
	case EvFinalRound:
		return c.Msg("ev.finalRound", "p", p, "score", e.Score)
	case EvTie:
		return c.Msg("ev.tie", "players", list(e.Players))
	case EvTurnLimit:
		return c.Msg("ev.turnLimit", "turns", e.Turns)
	case EvResign:
		if e.Total > 0 {
			return c.Msg("ev.resignTotal", "p", p, "total", e.Total)
		}
		return c.Msg("ev.resign", "p", p)
	case EvGameOver:
		if len(e.Players) == 0 {
			return c.Msg("ev.overNoWinner")
		}
		if len(e.Players) > 1 {
			return c.Msg("ev.overShare", "players", list(e.Players))
		}
		return c.Msg("ev.overWins", "players", list(e.Players), "score", e.Score)
	}
	return e.Kind.String()
}
