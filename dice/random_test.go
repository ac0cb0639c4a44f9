package dice_test

import (
	"crypto/sha256"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// draws is a scripted Uint64Source.
type draws []uint64

func (d *draws) Uint64() uint64 {
	v := (*d)[0]
	*d = (*d)[1:]
	return v
}

func TestFaceRejectsTheUnevenTail(t *testing.T) {
	// 2^64 = 6q + 4: the top four values would favour faces 1-4.
	for _, v := range []uint64{math.MaxUint64, math.MaxUint64 - 3} {
		if _, ok := dice.FaceOf(v); ok {
			t.Errorf("FaceOf(%d) must be rejected", v)
		}
	}
	if f, ok := dice.FaceOf(math.MaxUint64 - 4); !ok || f != 6 {
		t.Errorf("FaceOf(2^64-5) = %d, %v; want 6 (the last value of a full cycle)", f, ok)
	}
	src := &draws{math.MaxUint64, 7}
	if f := dice.Face(src); f != 2 || len(*src) != 0 {
		t.Errorf("Face after a rejected draw = %d, want 7%%6+1 = 2 from the second draw", f)
	}
	// 2^64 = 3q + 1: only the very top value is rejected for n = 3.
	src = &draws{math.MaxUint64, math.MaxUint64 - 1}
	if v := dice.Intn(src, 3); v != int((math.MaxUint64-1)%3) || len(*src) != 0 {
		t.Errorf("Intn(3) = %d", v)
	}
}

func TestFaceIsIntnSix(t *testing.T) {
	a := rand.NewChaCha8([32]byte{1})
	b := rand.NewChaCha8([32]byte{1})
	var counts [7]int
	for range 60000 {
		f := dice.Face(a)
		if g := dice.Intn(b, 6) + 1; f != g {
			t.Fatalf("Face %d, Intn+1 %d from the same draws", f, g)
		}
		counts[f]++
	}
	for f := 1; f <= 6; f++ {
		if counts[f] < 9500 || counts[f] > 10500 { // ±5 standard deviations
			t.Errorf("face %d drawn %d times in 60000", f, counts[f])
		}
	}
}

func TestSeedFrom(t *testing.T) {
	hex := strings.Repeat("0a", 32)
	if s := dice.SeedFrom(hex); s[0] != 10 || s[31] != 10 {
		t.Errorf("64 hex digits are the seed itself: %x", s)
	}
	if s := dice.SeedFrom("42"); s != sha256.Sum256([]byte("42")) {
		t.Errorf("other text is hashed: %x", s)
	}
	if s := dice.SeedFrom(strings.Repeat("zz", 32)); s != sha256.Sum256([]byte(strings.Repeat("zz", 32))) {
		t.Errorf("64 characters that are not hex are hashed too")
	}
}
