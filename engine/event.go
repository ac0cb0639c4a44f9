package engine

import (
	"fmt"
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
func (e Event) Describe(names []string) string {
	name := func(i int) string {
		if i >= 0 && i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("player %d", i+1)
	}
	list := func(ps []int) string {
		s := make([]string, len(ps))
		for i, p := range ps {
			s[i] = name(p)
		}
		return strings.Join(s, ", ")
	}
	p := name(e.Player)
	switch e.Kind {
	case EvRollOff:
		return fmt.Sprintf("%s throws %s in the roll-off", p, e.Dice)
	case EvRollOffTie:
		return fmt.Sprintf("%s tie and throw again", list(e.Players))
	case EvFirstPlayer:
		return fmt.Sprintf("%s starts", p)
	case EvTurn:
		return fmt.Sprintf("%s's turn", p)
	case EvThrow:
		return fmt.Sprintf("%s throws %s", p, e.Dice)
	case EvSixDiceNothing:
		return fmt.Sprintf("six dice and nothing: +%d bonus (turn %d); %s throws six again", e.Points, e.Total, p)
	case EvKeep:
		return fmt.Sprintf("%s keeps %s for %d (turn %d)", p, e.Dice, e.Points, e.Total)
	case EvHotDice:
		return fmt.Sprintf("hot dice! %s may throw all six again", p)
	case EvFarkle:
		return fmt.Sprintf("%s farkles and loses %d (%d in a row)", p, e.Total, e.Streak)
	case EvPenalty:
		return fmt.Sprintf("%s loses %d for %d farkles in a row: score %d", p, e.Points, e.Streak, e.Score)
	case EvBank:
		return fmt.Sprintf("%s banks %d: score %d", p, e.Points, e.Score)
	case EvTurnLost:
		return fmt.Sprintf("%s cannot throw or bank: the turn ends with nothing", p)
	case EvFinalRound:
		return fmt.Sprintf("%s reached %d: final round, everyone else has one more turn", p, e.Score)
	case EvTie:
		return fmt.Sprintf("%s tie for the win and roll off", list(e.Players))
	case EvTurnLimit:
		return fmt.Sprintf("the game reached its limit of %d turns", e.Turns)
	case EvResign:
		if e.Total > 0 {
			return fmt.Sprintf("%s resigns and loses the turn total of %d", p, e.Total)
		}
		return fmt.Sprintf("%s resigns", p)
	case EvGameOver:
		if len(e.Players) == 0 {
			return "game over: no winner"
		}
		if len(e.Players) > 1 {
			return fmt.Sprintf("game over: %s share the win", list(e.Players))
		}
		return fmt.Sprintf("game over: %s wins with %d", list(e.Players), e.Score)
	}
	return e.Kind.String()
}
