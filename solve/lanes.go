package solve

// The duel's sweeps solve the turns of lanes (up to eight score pairs of
// one sum) side by side: their in-turn arrays are interleaved, value by
// value, so that one pass over a throw's options serves the eight turns
// (one offset read for eight values, eight independent sums), and on amd64
// with AVX2 the lanes are two vectors. Each lane's sums are the same
// operations in the same order as a turn solved alone, so the values are
// the same to the last bit.

import "unsafe"

// lanes is the number of turns solved side by side: two AVX2 vectors,
// so that two sums are in flight at once (one waits on its additions).
const lanes = 8

// laneSet is the blocks of one number of dice thrown (the groups with the
// same option count) laid out for lane-interleaved arrays: block i has
// hdr[2i] options a group and hdr[2i+1] groups; the groups' probabilities
// follow one another in prob, and their options' offsets (pts*stride+left,
// times lanes) in off.
type laneSet struct {
	hdr  []int64
	prob []float64
	off  []int32
}

// newLaneSet returns bs as a laneSet, and the most offset read (in
// float64s, the lane's own included).
func newLaneSet(bs []block) (laneSet, int) {
	s := scaledSet(bs, lanes)
	reach := 0
	for _, o := range s.off {
		reach = max(reach, int(o)+lanes)
	}
	return s, reach
}

// buildLanes lays out the model's blocks for lane-interleaved arrays.
func (m *model) buildLanes() {
	for n := 1; n <= 6; n++ {
		var r1, r2 int
		m.lanesPruned[n], r1 = newLaneSet(m.blocks[n])
		m.lanesAll[n], r2 = newLaneSet(m.blocksAll[n])
		m.laneReach = max(m.laneReach, r1, r2)
		var b block
		b.cnt = 1
		for _, e := range m.bestPts[n] {
			b.prob = append(b.prob, e.prob)
			b.off = append(b.off, e.pts) // kmax has one value a total
		}
		m.bestLanes[n], _ = newLaneSet([]block{b})
		m.bounds[n] = newBoundSet(&m.bestLanes[n], m.farkle[n])
		m.best3[n] = scaledSet([]block{b}, lanes3)
		m.bounds3[n] = newBoundSet(&m.best3[n], m.farkle[n])
		m.lanes3Pruned[n] = lane3Set(m.blocks[n])
		m.lanes3All[n] = lane3Set(m.blocks3All[n])
	}
}

// lane3Set returns the pruned blocks bs laid out for the three-player lanes
// (offsets in float64s: times e3).
func lane3Set(bs []block) laneSet { return scaledSet(bs, e3) }

// scaledSet returns the blocks bs as a laneSet with offsets times scale.
func scaledSet(bs []block, scale int32) laneSet {
	var s laneSet
	for _, b := range bs {
		if len(b.prob) == 0 {
			continue
		}
		s.hdr = append(s.hdr, int64(b.cnt), int64(len(b.prob)))
		s.prob = append(s.prob, b.prob...)
		for _, o := range b.off {
			s.off = append(s.off, o*scale)
		}
	}
	return s
}

// simd names the instructions of the duel's lane routines: their Go
// forms, AVX2 (the eight lanes in two vectors of four) or AVX-512 (one
// vector of eight, for the sums and the bounds, which are most of the
// work; the other routines then run in AVX2). Every form does the same
// operations in the same order, so the values are the same to the last
// bit. A solve runs the best its CPU has (bestSIMD).
type simd uint8

const (
	simdGo simd = iota + 1
	simdAVX2
	simdAVX512
)

// String names the kind as the benchmarks and test messages do.
func (s simd) String() string {
	switch s {
	case simdGo:
		return "go"
	case simdAVX2:
		return "avx2"
	case simdAVX512:
		return "avx512"
	}
	return "best"
}

// bestSIMD returns the best lane instructions this CPU runs.
func bestSIMD() simd {
	switch {
	case useAVX512:
		return simdAVX512
	case useAVX2:
		return simdAVX2
	}
	return simdGo
}

// sumLanes adds to acc, lane by lane, the sum over the groups of s of the
// group's probability times the best value among its options in k (k
// starts at the current total; len(k) >= the set's reach), with the
// instructions of kind (one this CPU runs).
func sumLanes(kind simd, s *laneSet, k []float64, acc *[lanes]float64) {
	if len(s.hdr) == 0 {
		return
	}
	switch kind {
	case simdAVX512:
		sumLanesAVX512(&s.hdr[0], len(s.hdr)/2, &s.prob[0], &s.off[0], &k[0], acc)
	case simdAVX2:
		sumLanesAVX2(&s.hdr[0], len(s.hdr)/2, &s.prob[0], &s.off[0], &k[0], acc)
	default:
		s.each(func(cnt int, prob []float64, off []int32) { sumLanesGo(cnt, prob, off, k, acc) })
	}
}

// sumLanesD is sumLanes with the derivative: accD gets probability times
// d at the chosen option (the first of most value in k), lane by lane.
func sumLanesD(kind simd, s *laneSet, k, d []float64, acc, accD *[lanes]float64) {
	if len(s.hdr) == 0 {
		return
	}
	if kind >= simdAVX2 {
		sumLanesDAVX2(&s.hdr[0], len(s.hdr)/2, &s.prob[0], &s.off[0], &k[0], &d[0], acc, accD)
		return
	}
	s.each(func(cnt int, prob []float64, off []int32) { sumLanesDGo(cnt, prob, off, k, d, acc, accD) })
}

// each calls f with each block of s.
func (s *laneSet) each(f func(cnt int, prob []float64, off []int32)) {
	p, o := 0, 0
	for i := 0; i < len(s.hdr); i += 2 {
		cnt, ng := int(s.hdr[i]), int(s.hdr[i+1])
		f(cnt, s.prob[p:p+ng], s.off[o:o+ng*cnt])
		p += ng
		o += ng * cnt
	}
}

// sumLanesGo is sumLanes of one block in Go.
func sumLanesGo(c int, prob []float64, off []int32, k []float64, acc *[lanes]float64) {
	for i, p := range prob {
		o := off[c*i : c*i+c]
		x := k[o[0] : o[0]+lanes : o[0]+lanes]
		best := *(*[lanes]float64)(x)
		for _, j := range o[1:] {
			y := (*[lanes]float64)(k[j : j+lanes : j+lanes])
			for l := range lanes {
				best[l] = max2(best[l], y[l])
			}
		}
		for l := range lanes {
			acc[l] += p * best[l]
		}
	}
}

// sumLanesDGo is sumLanesD of one block in Go.
func sumLanesDGo(c int, prob []float64, off []int32, k, d []float64, acc, accD *[lanes]float64) {
	for i, p := range prob {
		o := off[c*i : c*i+c]
		for l := range lanes {
			j := o[0] + int32(l)
			best, bd := k[j], d[j]
			for _, x := range o[1:] {
				if y := k[x+int32(l)]; y > best {
					best, bd = y, d[x+int32(l)]
				}
			}
			acc[l] += p * best
			accD[l] += p * bd
		}
	}
}

// keepRow sets the after-keep values of one total of the lanes, without
// derivatives: for dice left 0..dice-1 the better of banking (bank) and
// throwing the dice left (q, a row of before-throw values; for none left
// q at hotJ with hot dice, else banking, or z where banking is not
// allowed), written to k (a row) with their lane-wise maximum in kmax. It
// returns a mask with bit l set where a value of lane l is more than the
// one at the next total (knext). It runs in AVX2 for kind AVX2 or AVX-512.
func keepRow(kind simd, q, k, knext []float64, bank, z, kmax *[lanes]float64, hotJ, dice int) uint64 {
	if kind >= simdAVX2 {
		_, _, _ = q[dice*lanes-1], k[dice*lanes-1], knext[dice*lanes-1]
		if hotJ > 0 {
			_ = q[hotJ*lanes+lanes-1]
		}
		return keepRowAVX2(&q[0], &bank[0], &z[0], &k[0], &knext[0], &kmax[0], hotJ, dice)
	}
	return keepRowGo(q, k, knext, bank, z, kmax, hotJ, dice)
}

// keepRowGo is keepRow in Go.
func keepRowGo(q, k, knext []float64, bank, z, kmax *[lanes]float64, hotJ, dice int) uint64 {
	var rise uint64
	for left := range dice {
		j := left
		if left == 0 {
			j = hotJ
		}
		for l := range lanes {
			v := bank[l]
			if j > 0 {
				v = max(v, q[j*lanes+l])
			}
			if v == negInf {
				v = z[l]
			}
			k[left*lanes+l] = v
			if v > knext[left*lanes+l] {
				rise |= 1 << l
			}
			if left == 0 {
				kmax[l] = v
			} else {
				kmax[l] = max2(kmax[l], v)
			}
		}
	}
	return rise
}

// boundSet is the banking bound of one number of dice thrown for the
// lanes (boundAll): the distribution of a throw's most points (bestPts) as
// ng probabilities and their offsets in kmax (points times lanes), and the
// chance of a farkle. ng is 0 for a throw that never scores (every throw of
// its dice farkles, as with one die where singles do not score): it is
// bounded by its farkle alone. The layout is read by boundAllAVX2.
type boundSet struct {
	prob *float64
	off  *int32
	ng   int
	pf   float64
}

// newBoundSet returns the bound of best (one block of single options over
// kmax, or none) with farkle chance pf.
func newBoundSet(best *laneSet, pf float64) boundSet {
	if len(best.hdr) == 0 {
		return boundSet{pf: pf}
	}
	if len(best.hdr) != 2 || best.hdr[0] != 1 {
		panic("solve: a banking bound needs one block of single options")
	}
	return boundSet{prob: &best.prob[0], off: &best.off[0], ng: len(best.prob), pf: pf}
}

// terms returns the bound's probabilities and offsets.
func (b *boundSet) terms() ([]float64, []int32) {
	if b.ng == 0 {
		return nil, nil
	}
	return unsafe.Slice(b.prob, b.ng), unsafe.Slice(b.off, b.ng)
}

// boundAll is model.banked for every number of dice n = 1..dice at one
// total of the lanes, in one call (the bounds read only the totals above,
// none of the sums at this one): out[n] gets the mask of the lanes of
// cand[n] whose throw of n dice at the next total was no better than
// banking (qnext at n == bnext) and that may bank (bank > -Inf), where the
// bound pf*f + the sum of the bound's terms over kmax (which starts at the
// current total) is at most the bank value less bankedSlack. qnext is the
// before-throw row of the next total (value n of lane l at n*lanes+l). It
// runs with the instructions of kind.
func boundAll(kind simd, bs *[7]boundSet, dice int, kmax []float64, qnext *[stride * lanes]float64, bnext, bank, f *[lanes]float64, cand, out *[7]uint64) {
	_ = kmax[len(kmax)-1]
	switch kind {
	case simdAVX512:
		boundAllAVX512(&bs[0], dice, &kmax[0], &qnext[0], &bnext[0], &bank[0], &f[0], &cand[0], &out[0])
		return
	case simdAVX2:
		boundAllAVX2(&bs[0], dice, &kmax[0], &qnext[0], &bnext[0], &bank[0], &f[0], &cand[0], &out[0])
		return
	}
	for n := 1; n <= dice; n++ {
		out[n] = boundLanesGo(&bs[n], kmax, (*[lanes]float64)(qnext[n*lanes:]), bnext, bank, f, cand[n])
	}
}

// boundLanesGo is boundAll of one number of dice in Go.
func boundLanesGo(b *boundSet, kmax []float64, qnext, bnext, bank, f *[lanes]float64, cand uint64) uint64 {
	try := uint64(0)
	for l := range lanes {
		if qnext[l] == bnext[l] && bank[l] != negInf {
			try |= 1 << l
		}
	}
	if try &= cand; try == 0 {
		return 0
	}
	var ub [lanes]float64
	for l := range lanes {
		ub[l] = b.pf * f[l]
	}
	prob, off := b.terms()
	sumLanesGo(1, prob, off, kmax, &ub)
	skip := uint64(0)
	for l := range lanes {
		if try>>l&1 != 0 && ub[l]+bankedSlack <= bank[l] {
			skip |= 1 << l
		}
	}
	return skip
}
