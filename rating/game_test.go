package rating

import (
	"testing"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// TestPairwise checks the pairwise scores over every combination of two
// seats' win flags and score orders: they are antisymmetric (a against b
// plus b against a is 1) and a winner always beats a loser.
func TestPairwise(t *testing.T) {
	for _, aw := range []bool{false, true} {
		for _, bw := range []bool{false, true} {
			for _, as := range []int{0, 500, 1000} {
				for _, bs := range []int{0, 500, 1000} {
					a, b := Seat{Won: aw, Score: as}, Seat{Won: bw, Score: bs}
					ab, ba := Pairwise(a, b), Pairwise(b, a)
					if ab+ba != 1 {
						t.Fatalf("%+v vs %+v: %v and %v do not sum to 1", a, b, ab, ba)
					}
					if aw && !bw && ab != 1 {
						t.Fatalf("the winner %+v scored %v against %+v", a, ab, b)
					}
					if aw == bw && as == bs && ab != 0.5 {
						t.Fatalf("equal seats %+v, %+v scored %v", a, b, ab)
					}
				}
			}
		}
	}
}

// TestGame: in a three-seat game with a fixed bot, the bot keeps its
// rating, the winner rises, the last falls, and each moving seat's new
// rating is Update over its pairwise outcomes.
func TestGame(t *testing.T) {
	seats := []Seat{
		{Before: New(), Won: true, Score: 5000},
		{Before: Rating{1550, 40, 0.06}, Fixed: true, Score: 4000},
		{Before: Rating{1600, 120, 0.06}, Score: 300},
	}
	after := Game(seats)
	if after[1] != seats[1].Before {
		t.Fatalf("the fixed seat moved: %+v", after[1])
	}
	if after[0].R <= seats[0].Before.R || after[2].R >= seats[2].Before.R {
		t.Fatalf("winner %.1f → %.1f, last %.1f → %.1f", seats[0].Before.R, after[0].R, seats[2].Before.R, after[2].R)
	}
	want := Update(seats[2].Before, []Outcome{{seats[0].Before, 0}, {seats[1].Before, 0}}, Tau)
	if after[2] != want {
		t.Fatalf("last seat %+v, want %+v", after[2], want)
	}
}

func TestFamilyOf(t *testing.T) {
	for _, n := range rules.Presets() {
		if n == "dragon" {
			continue
		}
		r := rules.MustPreset(n)
		r.Game.MaxTurns = 200 // the server's cap
		v, err := game.NewFarkle(r)
		if err != nil {
			t.Fatal(err)
		}
		if f := FamilyOf(v, false); f != Ordinary {
			t.Errorf("preset %s: family %q, want %q", n, f, Ordinary)
		}
	}
	house := rules.MustPreset("classic")
	house.Game.Target = 1234
	v, err := game.NewFarkle(house)
	if err != nil {
		t.Fatal(err)
	}
	if f := FamilyOf(v, false); f != Unrated {
		t.Errorf("house rules unmarked: %q, want unrated", f)
	}
	if f := FamilyOf(v, true); f != House {
		t.Errorf("house rules marked rated: %q, want %q", f, House)
	}
	if f := FamilyOf(game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil)), false); f != Dragon {
		t.Errorf("Dragon Farkle: %q", f)
	}
}
