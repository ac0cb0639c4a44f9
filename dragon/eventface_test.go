package dragon

import (
	"testing"

	"github.com/farkle/farkle/dice"
)

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

func TestGameSeedsDiffer(t *testing.T) {
	k := dice.SeedFrom("42")
	if GameSeed(k, 0) == GameSeed(k, 1) || GameSeed(k, 0) == GameSeed(dice.SeedFrom("43"), 0) {
		t.Fatal("game seeds collide")
	}
}
