package dice_test

import (
	"slices"
	"strconv"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// This file is an independent reference scorer, written from docs/RULES.md
// section 2 without calling dice.Melds or the Table: a hand is a vector of
// face counts, the melds are listed from the rule text, and the points of a
// hand are the maximum over every way to partition it into melds.

// counts is a multiset of faces: counts[f] dice show face f (index 0 unused).
type counts [7]int

func (c counts) n() int {
	s := 0
	for f := 1; f <= 6; f++ {
		s += c[f]
	}
	return s
}

func (c counts) contains(m counts) bool {
	for f := 1; f <= 6; f++ {
		if m[f] > c[f] {
			return false
		}
	}
	return true
}

func (c counts) minus(m counts) counts {
	for f := 1; f <= 6; f++ {
		c[f] -= m[f]
	}
	return c
}

// faces lists the faces ascending.
func (c counts) faces() []int {
	var out []int
	for f := 1; f <= 6; f++ {
		for range c[f] {
			out = append(out, f)
		}
	}
	return out
}

func (c counts) hand() dice.Hand { return dice.Of(c.faces()...) }

// allCounts returns every multiset of exactly n dice.
func allCounts(n int) []counts {
	var out []counts
	var rec func(f, left int, c counts)
	rec = func(f, left int, c counts) {
		if f == 6 {
			c[6] = left
			out = append(out, c)
			return
		}
		for k := 0; k <= left; k++ {
			c[f] = k
			rec(f+1, left-k, c)
		}
	}
	rec(1, n, counts{})
	return out
}

// subCounts returns every sub-multiset of c, the empty one included.
func subCounts(c counts) []counts {
	out := []counts{{}}
	for f := 1; f <= 6; f++ {
		var next []counts
		for _, s := range out {
			for k := 0; k <= c[f]; k++ {
				s[f] = k
				next = append(next, s)
			}
		}
		out = next
	}
	return out
}

type refMeld struct {
	c   counts
	pts int
}

// refKind is n (3..6) of a kind of face f, read from the kind_mode row of
// the table: triples always; 4/5/6 only as the mode says.
func refKind(s rules.Scoring, f, n int) int {
	t := s.Triple[f-1]
	if n == 3 {
		return t
	}
	switch s.KindMode {
	case "fixed":
		return map[int]int{4: s.FourOfAKind, 5: s.FiveOfAKind, 6: s.SixOfAKind}[n]
	case "multiply": // triple × 2, × 3, × 4
		return t * map[int]int{4: 2, 5: 3, 6: 4}[n]
	case "double": // triple × 2, × 4, × 8
		return t * map[int]int{4: 2, 5: 4, 6: 8}[n]
	}
	return 0 // "none": only triples are melds
}

// refMelds lists every meld of r with its points; a meld worth 0 does not
// exist, and no meld has more dice than the game.
func refMelds(r rules.Rules) []refMeld {
	s := r.Scoring
	var out []refMeld
	add := func(c counts, pts int) {
		if pts > 0 && c.n() <= r.Dice {
			out = append(out, refMeld{c, pts})
		}
	}
	for f := 1; f <= 6; f++ {
		var c counts
		c[f] = 1
		add(c, s.Single[strconv.Itoa(f)])
		for n := 3; n <= 6; n++ {
			c[f] = n
			add(c, refKind(s, f, n))
		}
	}
	add(counts{0, 1, 1, 1, 1, 1, 1}, s.Straight)
	add(counts{0, 1, 1, 1, 1, 1, 0}, s.SmallStraightLow)
	add(counts{0, 0, 1, 1, 1, 1, 1}, s.SmallStraightHigh)
	// The six-dice melds, by looking at every multiset of six dice.
	for _, c := range allCounts(6) {
		var nonzero []int
		pairs, even := 0, true
		for f := 1; f <= 6; f++ {
			if c[f] > 0 {
				nonzero = append(nonzero, c[f])
			}
			if c[f]%2 != 0 {
				even = false
			}
			pairs += c[f] / 2
		}
		slices.Sort(nonzero)
		shape := func(want ...int) bool { return slices.Equal(nonzero, want) }
		// Three pairs: three different pairs; with three_pairs_quad a four
		// of a kind counts as two pairs (so 4+2, and six of a kind as 4+2).
		if shape(2, 2, 2) || (s.ThreePairsQuad && even && pairs == 3) {
			add(c, s.ThreePairs)
		}
		// Four of a kind and a pair of another face.
		if shape(2, 4) {
			add(c, s.FourKindPair)
		}
		// Two triplets; six of a kind counts as two triplets.
		if shape(3, 3) || shape(6) {
			add(c, s.TwoTriplets)
		}
	}
	return out
}

// refScorer memoises the best partition of a hand into melds.
type refScorer struct {
	melds []refMeld
	memo  map[counts]int
}

func newRefScorer(r rules.Rules) *refScorer {
	return &refScorer{melds: refMelds(r), memo: map[counts]int{}}
}

// points returns the most points of any partition of c into melds (every
// die in exactly one meld), or -1 if c cannot be partitioned; 0 for empty.
func (rs *refScorer) points(c counts) int {
	if c.n() == 0 {
		return 0
	}
	if p, ok := rs.memo[c]; ok {
		return p
	}
	best := -1
	for _, m := range rs.melds {
		if !c.contains(m.c) {
			continue
		}
		if rest := rs.points(c.minus(m.c)); rest >= 0 {
			best = max(best, m.pts+rest)
		}
	}
	rs.memo[c] = best
	return best
}
