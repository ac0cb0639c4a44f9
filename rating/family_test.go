package rating

import (
	"slices"
	"testing"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// otherVariant is a variant of another kind than the ones package rating
// was written with: only what the contract says of it.
type otherVariant struct{ game.Variant }

func (otherVariant) Family(marked bool) string {
	if marked {
		return "other"
	}
	return ""
}

// otherGame is a game of otherVariant that says it was aborted.
type otherGame struct{ game.Game }

func (otherGame) Aborted() bool { return true }

// TestFamilyAndAbortAreTheVariants: the family and the abort of a game
// are what its variant says, whatever its type, so that a new variant is
// rated and aborted as it says.
func TestFamilyAndAbortAreTheVariants(t *testing.T) {
	v := otherVariant{farkleVariant(t, rules.MustPreset("classic"))}
	if f := FamilyOf(v, true); f != "other" {
		t.Errorf("FamilyOf(a variant of family other) = %q", f)
	}
	if f := FamilyOf(v, false); f != Unrated {
		t.Errorf("FamilyOf(an unrated variant) = %q", f)
	}
	if got := Judge(v, true, 0); got.Family != "other" {
		t.Errorf("Judge = %+v, want the variant's family", got)
	}
	short := rules.MustPreset("classic")
	short.Game.FirstPlayer, short.Game.Target = rules.SeatOrder, 1000
	g := play(t, short, "out") // a whole game: not aborted by the ordinary game's count
	if Aborted(g) || !Aborted(otherGame{g}) {
		t.Fatalf("aborted: the whole game %v, the same game whose variant says it was aborted %v", Aborted(g), Aborted(otherGame{g}))
	}
}

// TestFamilies: the families the leaderboard takes are every kind's, the
// ordinary presets' first (and, of today's kinds, in the order the API
// has always named them).
func TestFamilies(t *testing.T) {
	got := Families()
	if !slices.Equal(got, []Family{Ordinary, Dragon, House}) {
		t.Fatalf("Families() = %q", got)
	}
	for _, f := range got {
		if !f.Valid() {
			t.Errorf("%q is not Valid", f)
		}
	}
	for _, f := range []Family{Unrated, "other", "chess"} {
		if f.Valid() {
			t.Errorf("%q is Valid", f)
		}
	}
}
