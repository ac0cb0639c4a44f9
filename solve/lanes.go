package solve

// The duel's sweeps solve the turns of lanes (four score pairs of one sum)
// side by side: their in-turn arrays are interleaved, value by value, so
// that one pass over a throw's options serves the four turns (one offset
// read for four values, four independent sums), and on amd64 with AVX2 the
// four lanes are one vector. Each lane's sums are the same operations in
// the same order as a turn solved alone, so the values are the same to the
// last bit.

// lanes is the number of turns solved side by side.
const lanes = 4

// laneBlock is a block (the groups of one number of dice thrown with the
// same option count) with offsets into lane-interleaved arrays: the
// option's offset pts*stride+left times lanes.
type laneBlock struct {
	cnt  int
	prob []float64
	off  []int32
}

// laneBlocks returns bs with offsets for lane-interleaved arrays, and the
// most offset read (in float64s, the lane's own included).
func laneBlocks(bs []block) ([]laneBlock, int) {
	out := make([]laneBlock, len(bs))
	reach := 0
	for i, b := range bs {
		off := make([]int32, len(b.off))
		for j, o := range b.off {
			off[j] = o * lanes
			reach = max(reach, int(off[j])+lanes)
		}
		out[i] = laneBlock{cnt: b.cnt, prob: b.prob, off: off}
	}
	return out, reach
}

// buildLanes lays out the model's blocks for lane-interleaved arrays.
func (m *model) buildLanes() {
	for n := 1; n <= 6; n++ {
		var r1, r2 int
		m.lanesPruned[n], r1 = laneBlocks(m.blocks[n])
		m.lanesAll[n], r2 = laneBlocks(m.blocksAll[n])
		m.laneReach = max(m.laneReach, r1, r2)
		b := laneBlock{cnt: 1}
		for _, e := range m.bestPts[n] {
			b.prob = append(b.prob, e.prob)
			b.off = append(b.off, e.pts*lanes)
		}
		m.bestLanes[n] = []laneBlock{b}
	}
}

// sumLanes adds to acc, lane by lane, the sum over the groups of bs of the
// group's probability times the best value among its options in k (k
// starts at the current total; len(k) >= the blocks' reach).
func sumLanes(bs []laneBlock, k []float64, acc *[lanes]float64) {
	for i := range bs {
		b := &bs[i]
		if len(b.prob) == 0 {
			continue
		}
		if useAVX2 {
			sumLanesAVX2(&b.prob[0], &b.off[0], len(b.prob), b.cnt, &k[0], acc)
			continue
		}
		sumLanesGo(b, k, acc)
	}
}

// sumLanesD is sumLanes with the derivative: accD gets probability times
// d at the chosen option (the first of most value in k), lane by lane.
func sumLanesD(bs []laneBlock, k, d []float64, acc, accD *[lanes]float64) {
	for i := range bs {
		b := &bs[i]
		if len(b.prob) == 0 {
			continue
		}
		if useAVX2 {
			sumLanesDAVX2(&b.prob[0], &b.off[0], len(b.prob), b.cnt, &k[0], &d[0], acc, accD)
			continue
		}
		sumLanesDGo(b, k, d, acc, accD)
	}
}

// sumLanesGo is sumLanes of one block in Go.
func sumLanesGo(b *laneBlock, k []float64, acc *[lanes]float64) {
	a0, a1, a2, a3 := acc[0], acc[1], acc[2], acc[3]
	c := b.cnt
	for i, p := range b.prob {
		o := b.off[c*i : c*i+c]
		x := k[o[0] : o[0]+lanes : o[0]+lanes]
		b0, b1, b2, b3 := x[0], x[1], x[2], x[3]
		for _, j := range o[1:] {
			y := k[j : j+lanes : j+lanes]
			b0, b1, b2, b3 = max2(b0, y[0]), max2(b1, y[1]), max2(b2, y[2]), max2(b3, y[3])
		}
		a0 += p * b0
		a1 += p * b1
		a2 += p * b2
		a3 += p * b3
	}
	acc[0], acc[1], acc[2], acc[3] = a0, a1, a2, a3
}

// sumLanesDGo is sumLanesD of one block in Go.
func sumLanesDGo(b *laneBlock, k, d []float64, acc, accD *[lanes]float64) {
	c := b.cnt
	for i, p := range b.prob {
		o := b.off[c*i : c*i+c]
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
