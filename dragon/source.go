package dragon

import (
	"fmt"
	"math/rand/v2"

	"github.com/farkle/farkle/dice"
)

// Source is where every random number of a game comes from: dice, the
// event die, shuffles and the first player. *rand.ChaCha8 satisfies it.
// Given the same Source output a game replays exactly, on any machine.
type Source interface {
	Uint64() uint64
}

// NewSource returns the default source: ChaCha8 from math/rand/v2 keyed by
// the 32-byte seed.
func NewSource(seed [32]byte) Source { return rand.NewChaCha8(seed) }

// SeedFrom turns text into a 32-byte seed exactly as engine.SeedFrom does
// (dice.SeedFrom), so "--seed 42" means the same in both packages.
func SeedFrom(text string) [32]byte { return dice.SeedFrom(text) }

// Intn returns a uniform integer in [0, n) drawn from src (dice.Intn: the
// rejection sampling the engine uses too). n must be positive.
func Intn(src Source, n int) int { return dice.Intn(src, n) }

// Die returns a die face 1..6 drawn from src, the same face the engine's
// ChaCha source gives for the same draws (dice.Face).
func Die(src Source) int { return dice.Face(src) }

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

// Scripted is a Source that replays given values, for tests and for
// front ends that want a set position. Each value v yields v as Uint64, so
// a value below 6 draws the die face v+1 and, for Intn(n) with v < n, v
// itself. It panics when the values run out.
type Scripted struct {
	Values []uint64
	next   int
}

// Faces returns a Scripted source that draws the given die faces 1..6 in
// order (for event dice: 1 Blank, 5 Rally, 6 Dragon).
func Faces(faces ...int) *Scripted {
	s := &Scripted{}
	return s.Then(faces...)
}

// Then appends die faces to the script and returns s.
func (s *Scripted) Then(faces ...int) *Scripted {
	for _, f := range faces {
		s.Values = append(s.Values, uint64(f-1))
	}
	return s
}

// Uint64 returns the next value of the script.
func (s *Scripted) Uint64() uint64 {
	if s.next >= len(s.Values) {
		panic(fmt.Sprintf("dragon: scripted source exhausted after %d values", len(s.Values)))
	}
	v := s.Values[s.next]
	s.next++
	return v
}

// Left returns how many values are left.
func (s *Scripted) Left() int { return len(s.Values) - s.next }
