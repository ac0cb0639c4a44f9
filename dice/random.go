package dice

import (
	"fmt"
	"math"
)

// Source is where every random number of a game comes from: the dice, and
// in variants with cards their shuffles. It yields uniformly random 64-bit
// values; *rand.ChaCha8 from math/rand/v2 is one (NewSource), Scripted is
// another. Every draw from it goes through Intn or Face, so the same values
// give the same game on every machine.
type Source interface {
	Uint64() uint64
}

// Intn returns a uniform integer in [0, n) drawn from src by rejection
// sampling: draws at or above the largest multiple of n that fits in 64 bits
// are drawn again, so the result is exactly uniform and the sequence is the
// same on every machine and Go version. It panics if n is not positive.
func Intn(src Source, n int) int {
	if n <= 0 {
		panic(fmt.Sprintf("dice: Intn(%d)", n))
	}
	u := uint64(n)
	rem := (math.MaxUint64%u + 1) % u // 2^64 mod n
	for {
		v := src.Uint64()
		if rem == 0 || v <= math.MaxUint64-rem {
			return int(v % u)
		}
	}
}

// faceLimit is the largest multiple of 6 that fits in 64 bits: FaceOf
// rejects draws at or above it.
const faceLimit = (1<<64 - 1) / 6 * 6

// FaceOf maps one 64-bit draw to a die face 1..6, or reports false when the
// draw must be rejected (and another drawn) to keep the faces exactly
// uniform. It is the mapping of Face, for hot loops that hold a concrete
// generator and want no interface call.
func FaceOf(v uint64) (int, bool) {
	if v >= faceLimit {
		return 0, false
	}
	return int(v%6) + 1, true
}

// Face returns a die face 1..6 drawn from src; the same as Intn(src, 6) + 1.
func Face(src Source) int {
	for {
		if f, ok := FaceOf(src.Uint64()); ok {
			return f
		}
	}
}

// Throw draws n dice from src.
func Throw(src Source, n int) Hand {
	var h Hand
	for range n {
		h += Single(Face(src), 1)
	}
	return h
}
