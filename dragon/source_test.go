package dragon

import (
	"math"
	"testing"
)

func TestIntnRejection(t *testing.T) {
	// 2^64 = 4 (mod 6): the four largest values are rejected for n = 6.
	src := &Scripted{Values: []uint64{math.MaxUint64, math.MaxUint64 - 3, math.MaxUint64 - 4}}
	if got := Intn(src, 6); got != 5 || src.Left() != 0 {
		t.Fatalf("Intn = %d with %d values left; want 5 ((2^64-5) mod 6) after rejecting two", got, src.Left())
	}
	// n a power of two: nothing is rejected.
	src = &Scripted{Values: []uint64{math.MaxUint64}}
	if got := Intn(src, 4); got != 3 {
		t.Fatalf("Intn(4) = %d, want 3", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Intn(0) did not panic")
		}
	}()
	Intn(src, 0)
}

func TestDieUniformAndReproducible(t *testing.T) {
	const n = 60000
	a, b := NewSource(SeedFrom("7")), NewSource(SeedFrom("7"))
	var counts [7]int
	for range n {
		x, y := Die(a), Die(b)
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

func TestEventFaces(t *testing.T) {
	want := map[int]EventFace{1: Blank, 2: Blank, 3: Blank, 4: Blank, 5: Rally, 6: Dragon}
	for f, e := range want {
		if got := eventOf(f); got != e {
			t.Errorf("die face %d = %s, want %s", f, got, e)
		}
	}
	var f EventFace
	if err := f.UnmarshalText([]byte("rally")); err != nil || f != Rally {
		t.Fatalf("UnmarshalText(rally) = %v, %v", f, err)
	}
	if err := f.UnmarshalText([]byte("fire")); err == nil {
		t.Fatal("UnmarshalText(fire) accepted")
	}
}

func TestScriptedExhausted(t *testing.T) {
	s := Faces(3)
	if Die(s) != 3 {
		t.Fatal("Faces(3) did not draw a 3")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("an exhausted script did not panic")
		}
	}()
	Die(s)
}

func TestSeedFrom(t *testing.T) {
	hexSeed := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	k := SeedFrom(hexSeed)
	for i := range 32 {
		if k[i] != byte(i) {
			t.Fatalf("SeedFrom(hex) = %x", k)
		}
	}
	// "42" hashes: sha256("42") starts 73475cb4.
	if k := SeedFrom("42"); k[0] != 0x73 || k[1] != 0x47 || k[2] != 0x5c || k[3] != 0xb4 {
		t.Fatalf("SeedFrom(42) = %x", k)
	}
	if GameSeed(k, 0) == GameSeed(k, 1) || GameSeed(k, 0) == GameSeed(SeedFrom("43"), 0) {
		t.Fatal("game seeds collide")
	}
}
