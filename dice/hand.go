package dice

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Hand is a multiset of dice faces 1..6: the count of face f is held in the
// four bits at 4*(f-1). Counts are 0..6, so the top bit of every field is
// free and serves as a guard in Contains. The zero Hand is empty.
type Hand uint32

const (
	fieldMask = 0xF
	guards    = 0x888888
	// MaxDice is the most dice a throw can have.
	MaxDice = 6
)

// ErrBadThrow is wrapped by every parse error of a throw or keep.
var ErrBadThrow = errors.New("dice: bad throw")

// Of returns the hand of the given faces. It panics on a face outside 1..6
// or more than six dice; use Parse or FromFaces for input.
func Of(faces ...int) Hand {
	h, err := FromFaces(faces)
	if err != nil {
		panic(err)
	}
	return h
}

// FromFaces returns the hand of the given faces, or an error naming the face
// or count that is not allowed.
func FromFaces(faces []int) (Hand, error) {
	if len(faces) > MaxDice {
		return 0, fmt.Errorf("%w: %d dice (a throw has 1 to 6 dice)", ErrBadThrow, len(faces))
	}
	var h Hand
	for _, f := range faces {
		if f < 1 || f > 6 {
			return 0, fmt.Errorf("%w: %d is not a die face (faces are 1 to 6)", ErrBadThrow, f)
		}
		h += 1 << (4 * (f - 1))
	}
	return h, nil
}

// Single returns the hand of n dice showing face f.
func Single(f, n int) Hand { return Hand(n) << (4 * (f - 1)) }

// Count returns how many dice of face f (1..6) the hand holds.
func (h Hand) Count(f int) int { return int(h>>(4*(f-1))) & fieldMask }

// N returns the number of dice in the hand.
func (h Hand) N() int {
	// Sum the six 4-bit fields: pairs, then the three bytes.
	x := uint32(h)
	x = (x & 0x0F0F0F) + ((x >> 4) & 0x0F0F0F)
	return int((x + x>>8 + x>>16) & 0xFF)
}

// Contains reports whether k is a sub-multiset of h.
func (h Hand) Contains(k Hand) bool {
	return (uint32(h|guards)-uint32(k))&guards == guards
}

// Minus returns h without k; k must be contained in h.
func (h Hand) Minus(k Hand) Hand { return h - k }

// Plus returns the union (sum) of h and k; the result must hold at most six dice.
func (h Hand) Plus(k Hand) Hand { return h + k }

// Faces returns the faces of h in ascending order.
func (h Hand) Faces() []int { return h.AppendFaces(make([]int, 0, h.N())) }

// AppendFaces appends the faces of h in ascending order to buf.
func (h Hand) AppendFaces(buf []int) []int {
	for f := 1; f <= 6; f++ {
		for range h.Count(f) {
			buf = append(buf, f)
		}
	}
	return buf
}

// String returns the faces separated by spaces, e.g. "1 1 5".
func (h Hand) String() string { return h.Join(" ") }

// Join returns the faces separated by sep, e.g. "2-2" for Join("-").
func (h Hand) Join(sep string) string {
	var b strings.Builder
	for i, f := range h.Faces() {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteByte(byte('0' + f))
	}
	return b.String()
}

// MarshalJSON writes the hand as an ascending array of faces.
func (h Hand) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i, f := range h.Faces() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(f), 10)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads an array of faces in any order.
func (h *Hand) UnmarshalJSON(b []byte) error {
	var faces []int
	if err := jsonUnmarshal(b, &faces); err != nil {
		return fmt.Errorf("%w: %v (want an array of faces 1 to 6)", ErrBadThrow, err)
	}
	v, err := FromFaces(faces)
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// Parse reads dice written as "113556", "1 1 3 5 5 6" or "1,1,3,5,5,6"
// (spaces, commas and dashes separate; a run of digits is one die each).
// It returns an error naming the bad character or count; an empty string is
// an error too.
func Parse(s string) (Hand, error) {
	faces := make([]int, 0, MaxDice)
	for _, c := range s {
		switch {
		case c == ' ' || c == ',' || c == '-' || c == '\t':
		case c >= '1' && c <= '6':
			faces = append(faces, int(c-'0'))
			if len(faces) > MaxDice {
				return 0, fmt.Errorf("%w: %q has more than 6 dice (a throw has 1 to 6 dice)", ErrBadThrow, s)
			}
		case c >= '0' && c <= '9':
			return 0, fmt.Errorf("%w: %c is not a die face (faces are 1 to 6)", ErrBadThrow, c)
		default:
			return 0, fmt.Errorf("%w: %q is not a die (write dice as 113556, 1 1 3 5 5 6 or 1,1,3,5,5,6)", ErrBadThrow, c)
		}
	}
	if len(faces) == 0 {
		return 0, fmt.Errorf("%w: no dice (a throw has 1 to 6 dice)", ErrBadThrow)
	}
	return FromFaces(faces)
}
