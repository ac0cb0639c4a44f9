package engine

import (
	"fmt"

	"github.com/farkle/farkle/dice"
)

// Kind is the kind of an action.
type Kind uint8

// The actions of a game.
const (
	Throw   Kind = iota + 1 // throw the dice left to throw (all six with hot dice)
	Keep                    // set aside a scoring part of the throw on the table
	Bank                    // end the turn and add the turn total to the score
	RollOff                 // throw one die in a roll-off (first player or tie)
	Resign                  // leave the game for good (always legal for the actor)
)

var kindNames = [...]string{Throw: "throw", Keep: "keep", Bank: "bank", RollOff: "roll-off", Resign: "resign"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MarshalText writes the kind's name ("throw", "keep", "bank", "roll-off",
// "resign").
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) || kindNames[k] == "" {
		return nil, fmt.Errorf("%w: kind %d", ErrUnknownAction, k)
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n != "" && n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("%w %q (actions: throw, keep, bank, roll-off, resign)", ErrUnknownAction, b)
}

// Action is one move of one player. Dice is the keep of a Keep action and
// empty otherwise.
type Action struct {
	Kind   Kind      `json:"type"`
	Player int       `json:"player"`
	Dice   dice.Hand `json:"dice,omitempty"`
}

func (a Action) String() string {
	if a.Kind == Keep {
		return fmt.Sprintf("keep %s", a.Dice)
	}
	return a.Kind.String()
}

// Seat returns the seat of the player who takes the action.
func (a Action) Seat() int { return a.Player }

// ThrowBy, KeepBy, BankBy, RollOffBy and ResignBy build actions.
func ThrowBy(p int) Action             { return Action{Kind: Throw, Player: p} }
func KeepBy(p int, d dice.Hand) Action { return Action{Kind: Keep, Player: p, Dice: d} }
func BankBy(p int) Action              { return Action{Kind: Bank, Player: p} }
func RollOffBy(p int) Action           { return Action{Kind: RollOff, Player: p} }
func ResignBy(p int) Action            { return Action{Kind: Resign, Player: p} }
