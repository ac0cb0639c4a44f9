package dice

import "fmt"

// Scripted is a Source that yields given values, for tests, replays and
// front ends that want a set position. Each value v is returned as is by
// Uint64, so a value below 6 draws the die face v+1 (Face) and, for
// Intn(n) with v < n, v itself. It panics when the values run out.
type Scripted struct {
	Values []uint64
	next   int
}

// Faces returns a Scripted source that draws the given die faces 1..6 in
// order.
func Faces(faces ...int) *Scripted {
	s := &Scripted{}
	return s.Then(faces...)
}

// Then appends die faces to the script and returns s.
func (s *Scripted) Then(faces ...int) *Scripted {
	for _, f := range faces {
		if f < 1 || f > 6 {
			panic(fmt.Sprintf("dice: scripted face %d (faces are 1..6)", f))
		}
		s.Values = append(s.Values, uint64(f-1))
	}
	return s
}

// Uint64 returns the next value of the script.
func (s *Scripted) Uint64() uint64 {
	if s.next >= len(s.Values) {
		panic(fmt.Sprintf("dice: scripted source exhausted after %d values", len(s.Values)))
	}
	v := s.Values[s.next]
	s.next++
	return v
}

// Left returns how many values are left.
func (s *Scripted) Left() int { return len(s.Values) - s.next }
