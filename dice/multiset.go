package dice

import (
	"encoding/json"
	"slices"
)

// NumHands is the number of hands of 0..6 dice: the empty hand and the 923
// throws of 1..6 dice.
const NumHands = 924

var (
	hands    [NumHands]Hand    // by index: ascending dice count, then faces
	byN      [MaxDice + 2]int  // hands with n dice are hands[byN[n]:byN[n+1]]
	indexOf  [117649]uint16    // base-7 key of a hand -> its index
	weights  [NumHands]float64 // ordered outcomes giving the hand
	iweights [NumHands]int64
)

func init() {
	var all []Hand
	var gen func(face, left int, h Hand)
	gen = func(face, left int, h Hand) {
		if face == 7 {
			if left == 0 {
				all = append(all, h)
			}
			return
		}
		for c := 0; c <= left; c++ {
			gen(face+1, left-c, h+Single(face, c))
		}
	}
	for n := 0; n <= MaxDice; n++ {
		byN[n] = len(all)
		start := len(all)
		gen(1, n, 0)
		part := all[start:]
		slices.SortFunc(part, func(a, b Hand) int { return slices.Compare(a.Faces(), b.Faces()) })
	}
	byN[MaxDice+1] = len(all)
	if len(all) != NumHands {
		panic("dice: wrong number of hands")
	}
	fact := [7]int64{1, 1, 2, 6, 24, 120, 720}
	for i, h := range all {
		hands[i] = h
		indexOf[key7(h)] = uint16(i)
		w := fact[h.N()]
		for f := 1; f <= 6; f++ {
			w /= fact[h.Count(f)]
		}
		iweights[i] = w
		weights[i] = float64(w)
	}
}

func key7(h Hand) int {
	k := 0
	for f := 6; f >= 1; f-- {
		k = k*7 + h.Count(f)
	}
	return k
}

// Index returns the hand's position 0..923 among all hands of 0..6 dice
// (0 is the empty hand; hands are ordered by dice count, then faces).
func (h Hand) Index() int { return int(indexOf[key7(h)]) }

// HandAt returns the hand with index i (0..923).
func HandAt(i int) Hand { return hands[i] }

// Throws returns the distinct throws of n dice (0..6), ordered by faces.
// The slice is shared: do not modify it.
func Throws(n int) []Hand { return hands[byN[n]:byN[n+1]] }

// AllThrows returns the 923 distinct throws of 1..6 dice. The slice is
// shared: do not modify it.
func AllThrows() []Hand { return hands[1:] }

// Ways returns the number of ordered outcomes of h.N() dice that give h:
// n! / (c1! ... c6!). The ways of all throws of n dice sum to 6^n.
func (h Hand) Ways() int64 { return iweights[h.Index()] }

// Prob returns the probability of throwing exactly h with h.N() dice.
func (h Hand) Prob() float64 { return weights[h.Index()] / float64(Outcomes(h.N())) }

// Outcomes returns 6^n, the number of ordered outcomes of n dice.
func Outcomes(n int) int64 {
	o := int64(1)
	for range n {
		o *= 6
	}
	return o
}

var jsonUnmarshal = json.Unmarshal
