package server

import (
	"testing"

	"github.com/farkle/farkle/dragon"
)

// TestDragonKitOf: a dragon table plays the battle it was created with —
// the army battle for tables of this version, the classic one for tables
// stored before it — and an unknown variant is refused, not guessed.
func TestDragonKitOf(t *testing.T) {
	for variant, battle := range map[string]string{dragonVariant: dragon.BattleArmy, "": dragon.BattleClassic} {
		kit, err := dragonKitOf(variant)
		if err != nil {
			t.Fatal(err)
		}
		if got := kit.game.Rules().Battle; got != battle {
			t.Errorf("variant %q plays the %q battle, want %q", variant, got, battle)
		}
	}
	if _, err := dragonKitOf("future"); err == nil {
		t.Error("an unknown variant was accepted")
	}
}
