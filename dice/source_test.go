package dice_test

import (
	"math"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestIntnRejection(t *testing.T) {
	// 2^64 = 4 (mod 6): the four largest values are rejected for n = 6.
	src := &dice.Scripted{Values: []uint64{math.MaxUint64, math.MaxUint64 - 3, math.MaxUint64 - 4}}
	if got := dice.Intn(src, 6); got != 5 || src.Left() != 0 {
		t.Fatalf("Intn = %d with %d values left; want 5 ((2^64-5) mod 6) after rejecting two", got, src.Left())
	}
	// n a power of two: nothing is rejected.
	src = &dice.Scripted{Values: []uint64{math.MaxUint64}}
	if got := dice.Intn(src, 4); got != 3 {
		t.Fatalf("dice.Intn(4) = %d, want 3", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("dice.Intn(0) did not panic")
		}
	}()
	dice.Intn(src, 0)
}

func TestDieUniformAndReproducible(t *testing.T) {
	const n = 60000
	a, b := dice.NewSource(dice.SeedFrom("7")), dice.NewSource(dice.SeedFrom("7"))
	var counts [7]int
	for range n {
		x, y := dice.Face(a), dice.Face(b)
		if x != y {
			t.Fatal("two sources with the same seed differ")
		}
		if x < 1 || x > 6 {
			t.Fatalf("face %d", x)
		}
		counts[x]++
	}
	// chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile.
	chi := 0.0
	for f := 1; f <= 6; f++ {
		d := float64(counts[f]) - n/6.0
		chi += d * d / (n / 6.0)
	}
	if chi > 20.5 {
		t.Fatalf("faces %v: chi-square %.1f", counts[1:], chi)
	}
}

func TestScriptedExhausted(t *testing.T) {
	s := dice.Faces(3)
	if dice.Face(s) != 3 {
		t.Fatal("dice.Faces(3) did not draw a 3")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("an exhausted script did not panic")
		}
	}()
	dice.Face(s)
}

func TestParseSeedRoundTrip(t *testing.T) {
	s := dice.SeedFrom("7")
	got, err := dice.ParseSeed(s.Hex())
	if err != nil || got != s {
		t.Fatalf("ParseSeed(Hex) = %x, %v; want %x", got, err, s)
	}
	for _, bad := range []string{"", "00", s.Hex()[:63] + "g", "AB" + s.Hex()[2:]} {
		if _, err := dice.ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) accepted", bad)
		}
	}
}

func TestDeriveIsAnotherStream(t *testing.T) {
	s := dice.SeedFrom("7")
	again := dice.SeedFrom("7")
	if s.Derive("bots") == s || s.Derive("bots") == s.Derive("cards") || s.Derive("bots") != again.Derive("bots") {
		t.Fatal("Derive is not a distinct, reproducible seed per label")
	}
}
