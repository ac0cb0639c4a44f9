package dragon

import (
	"fmt"
)

// EventFace is a face of the event die.
type EventFace uint8

// The event die has four Blank faces, one Rally and one Dragon. A die face
// 1..4 drawn by Die is Blank, 5 is Rally, 6 is Dragon.
const (
	Blank EventFace = iota
	Rally
	Dragon
)

func (f EventFace) String() string {
	switch f {
	case Blank:
		return "blank"
	case Rally:
		return "rally"
	case Dragon:
		return "dragon"
	}
	return fmt.Sprintf("EventFace(%d)", f)
}

// MarshalText writes the face as "blank", "rally" or "dragon".
func (f EventFace) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads "blank", "rally" or "dragon".
func (f *EventFace) UnmarshalText(b []byte) error {
	switch string(b) {
	case "blank":
		*f = Blank
	case "rally":
		*f = Rally
	case "dragon":
		*f = Dragon
	default:
		return fmt.Errorf("%w: event face %q (allowed: blank, rally, dragon)", ErrBadAction, b)
	}
	return nil
}

func eventOf(face int) EventFace {
	switch face {
	case 5:
		return Rally
	case 6:
		return Dragon
	}
	return Blank
}
