package dice

import (
	"fmt"

	"github.com/farkle/farkle/rules"
)

var numberWords = [...]string{"", "one", "two", "three", "four", "five", "six"}

// Melds lists the scoring combinations of r (docs/RULES.md section 2), each hand
// once with its highest value. Six of a kind counts as two triplets where
// two_triplets scores, and as three pairs (a four of a kind and a pair) where
// three_pairs_quad is set.
func Melds(r rules.Rules) []Meld {
	s := &r.Scoring
	var out []Meld
	add := func(h Hand, pts int, name string) {
		if pts <= 0 || h.N() > r.Dice {
			return
		}
		for i := range out {
			if out[i].Hand == h {
				if pts > out[i].Points {
					out[i] = Meld{h, pts, name}
				}
				return
			}
		}
		out = append(out, Meld{h, pts, name})
	}
	for f := 1; f <= 6; f++ {
		add(Single(f, 1), s.SinglePoints(f), fmt.Sprintf("single %d", f))
	}
	for n := 3; n <= 6; n++ {
		for f := 1; f <= 6; f++ {
			add(Single(f, n), s.KindPoints(f, n), fmt.Sprintf("%s %ds", numberWords[n], f))
		}
	}
	add(Of(1, 2, 3, 4, 5, 6), s.Straight, "a straight")
	add(Of(1, 2, 3, 4, 5), s.SmallStraightLow, "a small straight")
	add(Of(2, 3, 4, 5, 6), s.SmallStraightHigh, "a small straight")
	for a := 1; a <= 6; a++ {
		for b := a + 1; b <= 6; b++ {
			for c := b + 1; c <= 6; c++ {
				add(Single(a, 2)+Single(b, 2)+Single(c, 2), s.ThreePairs, "three pairs")
			}
		}
	}
	for a := 1; a <= 6; a++ {
		if s.ThreePairsQuad {
			add(Single(a, 6), s.ThreePairs, "three pairs")
		}
		for b := 1; b <= 6; b++ {
			if a == b {
				continue
			}
			if s.ThreePairsQuad {
				add(Single(a, 4)+Single(b, 2), s.ThreePairs, "three pairs")
			}
			add(Single(a, 4)+Single(b, 2), s.FourKindPair, "four of a kind and a pair")
			if a < b {
				add(Single(a, 3)+Single(b, 3), s.TwoTriplets, "two triplets")
			}
		}
		add(Single(a, 6), s.TwoTriplets, "two triplets")
	}
	return out
}
