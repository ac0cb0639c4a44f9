package rating

import (
	"math"
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
	// Seat 0 is a new player: its result counts for a hundredth of a
	// game; the bot's whole.
	want := Update(seats[2].Before, []Outcome{{Opp: seats[0].Before, Score: 0, Weight: 0.01}, {Opp: seats[1].Before, Score: 0, Weight: 1}}, Tau)
	if after[2] != want {
		t.Fatalf("last seat %+v, want %+v", after[2], want)
	}
	seats[0].Games = FullWeightGames - 1
	want = Update(seats[2].Before, []Outcome{{Opp: seats[0].Before, Score: 0}, {Opp: seats[1].Before, Score: 0}}, Tau)
	if after := Game(seats); after[2] != want {
		t.Fatalf("last seat after an experienced winner %+v, want %+v (whole games)", after[2], want)
	}
}

// TestWeight: a new player's result counts a hundredth of a game, the
// weight grows with each game, and from FullWeightGames-1 games on it is
// whole.
func TestWeight(t *testing.T) {
	if w := Weight(0); math.Abs(w-0.01) > 1e-15 {
		t.Fatalf("Weight(0) = %v, want 0.01", w)
	}
	for g := 1; g < FullWeightGames+5; g++ {
		w, prev := Weight(g), Weight(g-1)
		switch {
		case g < FullWeightGames-1 && !(prev < w && w < 1):
			t.Fatalf("Weight(%d) = %v after %v: want growing below 1", g, w, prev)
		case g >= FullWeightGames-1 && w != 1:
			t.Fatalf("Weight(%d) = %v, want 1", g, w)
		}
	}
}

// TestWeightedOutcome: an outcome of weight w is w of a game: two halves
// against the same opponent are one whole game, a smaller weight moves the
// rating less in the same direction, and weight 0 is a whole game.
func TestWeightedOutcome(t *testing.T) {
	for _, p := range []Rating{New(), {1700, 80, 0.06}, {1300, 200, 0.05}} {
		for _, o := range []Rating{New(), {1600, 30, 0.06}} {
			for _, score := range []float64{0, 0.5, 1} {
				whole := Update(p, []Outcome{{Opp: o, Score: score}}, Tau)
				if one := Update(p, []Outcome{{Opp: o, Score: score, Weight: 1}}, Tau); one != whole {
					t.Fatalf("weight 1 %+v, weight 0 %+v", one, whole)
				}
				halves := Update(p, []Outcome{{Opp: o, Score: score, Weight: 0.5}, {Opp: o, Score: score, Weight: 0.5}}, Tau)
				if math.Abs(halves.R-whole.R) > 1e-9 || math.Abs(halves.RD-whole.RD) > 1e-9 || math.Abs(halves.Vol-whole.Vol) > 1e-9 {
					t.Fatalf("%v vs %v (%v): two halves %+v, one whole game %+v", p, o, score, halves, whole)
				}
				prev := whole.R - p.R
				for _, w := range []float64{0.5, 0.1, 0.01} {
					d := Update(p, []Outcome{{Opp: o, Score: score, Weight: w}}, Tau).R - p.R
					if math.Abs(d) > math.Abs(prev)+1e-12 || d*prev < 0 {
						t.Fatalf("%v vs %v (%v): weight %v moved %+.3f after %+.3f at a larger weight", p, o, score, w, d, prev)
					}
					prev = d
				}
			}
		}
	}
}

// TestFarmOfNewPlayers measures the farm of the issue: a player beats
// fresh guests (1500, deviation 350, no rated games) who lose on purpose,
// one after the other. Unweighted (as if each guest had a record) the
// player's rating rises past the best bot's anchor within a few games;
// weighted by the guests' experience it moves a few points a game and
// stays under the best bot after twenty.
func TestFarmOfNewPlayers(t *testing.T) {
	top := 0.0
	for _, a := range anchors[Ordinary] {
		top = max(top, a.R)
	}
	farm := func(guestGames int) []float64 {
		r, games := New(), 0
		var after []float64
		for range 20 {
			out := Game([]Seat{{Before: r, Won: true, Score: 10000, Games: games}, {Before: New(), Score: 0, Games: guestGames}})
			r, games = out[0], games+1
			after = append(after, r.R)
		}
		return after
	}
	unweighted, weighted := farm(FullWeightGames), farm(0)
	t.Logf("rating after 1, 6 and 20 farmed games: whole games %.0f, %.0f, %.0f; new guests %.0f, %.0f, %.0f (best bot %.0f)",
		unweighted[0], unweighted[5], unweighted[19], weighted[0], weighted[5], weighted[19], top)
	if unweighted[5] < top {
		t.Fatalf("the unweighted farm reached only %.0f: the test no longer shows the attack", unweighted[5])
	}
	if weighted[0]-Initial > 5 || weighted[19] >= top || weighted[19]-Initial > 100 {
		t.Fatalf("farming new guests: first game %+.1f, twenty games to %.0f (best bot %.0f)", weighted[0]-Initial, weighted[19], top)
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
