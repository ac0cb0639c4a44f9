package solve

import (
	"fmt"
	"math/bits"
)

// The three-player solver fills the turns of up to lanes3 score triples of
// one sum side by side (as the duel's sweeps do with pairs, duel_lanes.go):
// their in-turn arrays are interleaved, so that one pass over a throw's
// options reads each offset once for every lane. Each lane's decisions and
// sums are the same operations in the same order as fill3 alone (sum3), so
// the values are the same to the last bit (TestThreeLanesSameAsAlone).

// lanes3 is the number of turns filled side by side.
const lanes3 = 4

// e3 is the width of one in-turn entry of the lanes: the movers' own
// values (lanes3), then each lane's vector, its four components (three
// chances and the farkle coefficient) together: a lane's vector is one
// AVX2 load, so the sums read an option's own values and only the best
// option's vector of each lane (not every option's four components).
const e3 = 5 * lanes3

// c3 is the offset in an entry of the lanes of component c of lane l.
func c3(l, c int) int { return lanes3 + 4*l + c }

// lane3Arrays are the in-turn values of the turns of the lanes: entry j of
// total t at (t*stride+j)*e3, its own value of lane l at +l and component c
// at +c3(l, c); the bank vector of total t at (t*4+c)*lanes3+l.
type lane3Arrays struct {
	top  int32 // the greatest top of the live lanes
	rows int32 // the greatest rows
	tops [lanes3]int32
	x    [lanes3]float64
	vio  [lanes3]int32
	live uint8 // the lanes with a turn
	k, q []float64
	bank []float64
	ok   []bool    // t*lanes3 + l
	kmax []float64 // t*lanes3 + l: the most own after-keep value (banked3)
	// skipBanked and allOptions are dp3's, for every lane (the solve's
	// threeTest).
	skipBanked, allOptions bool
}

// setupLanes3 prepares the turns of the live lanes (bit l of live: the
// mover at s[l][0] against s[l][1] and s[l][2] with own farkle value x[l],
// the bank target's streaks at streak index bs[l]), as setup and fill3 do
// alone: bank values, and from each lane's top the tail, written straight
// into the lanes' arrays.
func (t *Three) setupLanes3(a *lane3Arrays, s *[lanes3][3]int32, bs *[lanes3]int, x *[lanes3]float64, live uint8) {
	m := t.m
	D := int32(m.dice)
	a.top, a.rows, a.live, a.x = 0, 0, live, *x
	var rows [lanes3]int32
	for l := range lanes3 {
		if live>>l&1 == 0 {
			continue
		}
		a.tops[l] = t.turnTop(s[l][0], s[l][1], s[l][2], bs[l], x[l])
		rows[l] = t.turnRows(a.tops[l])
		a.top, a.rows = max(a.top, a.tops[l]), max(a.rows, rows[l])
	}
	n := int(a.rows) * stride * e3
	if cap(a.k) < n {
		a.k, a.q = make([]float64, n), make([]float64, n)
	}
	a.k, a.q = a.k[:n], a.q[:n]
	if cap(a.bank) < int(a.rows)*4*lanes3 {
		a.bank, a.ok = make([]float64, int(a.rows)*4*lanes3), make([]bool, int(a.rows)*lanes3)
		a.kmax = make([]float64, int(a.rows)*lanes3)
	}
	a.bank, a.ok, a.kmax = a.bank[:int(a.rows)*4*lanes3], a.ok[:int(a.rows)*lanes3], a.kmax[:int(a.rows)*lanes3]
	for l := range lanes3 {
		if live>>l&1 == 0 {
			continue
		}
		xl := x[l]
		ma, mb, mc := s[l][0], s[l][1], s[l][2]
		mEff := t.mEff(ma)
		// the bank values (setup's), those below the target read along
		// the table: one score triple after another
		step := int(t.c*t.c*t.c) * 3
		wi := t.tsidx(mb, mc, ma, bs[l])
		for tt := int32(0); tt < rows[l]; tt, wi = tt+1, wi+step {
			ok := tt >= mEff
			a.ok[int(tt)*lanes3+l] = ok
			var b vec4
			switch {
			case !ok:
			case ma+tt < t.A:
				b = t.moverFirst(wi)
			default:
				b = t.bankVec(ma, mb, mc, bs[l], tt)
			}
			bk := a.bank[int(tt)*4*lanes3+l : int(tt+1)*4*lanes3]
			bk[0], bk[lanes3], bk[2*lanes3], bk[3*lanes3] = b[0], b[1], b[2], b[3]
			if tt < a.tops[l] {
				continue
			}
			// the tail: every value the bank's (as fill3), where it is
			// read: the after-keep values of dice left below D (a keep
			// takes a die), and the before-throw value of six dice under
			// six dice nothing (the rows below read no other)
			o := b[0] + b[3]*xl
			a.kmax[int(tt)*lanes3+l] = o
			kt := a.k[int(tt*stride)*e3 : int(tt*stride+D)*e3]
			for j := int32(0); j < D; j++ {
				ke := (*[e3]float64)(kt[int(j)*e3:])
				ke[l] = o
				*(*vec4)(ke[c3(l, 0):]) = b
			}
			if m.sdn > 0 {
				i := int(tt*stride+6) * e3
				a.q[i+l] = o
				*(*vec4)(a.q[i+c3(l, 0):]) = b
			}
		}
		// beyond the lane's rows nothing of it is read but by sums whose
		// results it discards: what an earlier turn left there (finite)
		// least total at or above top where an own after-keep value
		// decreases (fill3's vio)
		a.vio[l] = 1 << 30
		for tt := rows[l] - 2; tt >= a.tops[l]; tt-- {
			if a.k[int(tt*stride)*e3+l] > a.k[int((tt+1)*stride)*e3+l] {
				a.vio[l] = tt
			}
		}
	}
}

// sum3Lanes is sum3 for the lanes of mask: acc[l][c] gets the sum over the
// groups of b of the group's probability times component c of lane l's
// best option (the first of most own value). row starts at the current
// total.
func sum3Lanes(b *block, row []float64, acc *[lanes3][4]float64, mask uint8) {
	c := b.cnt
	for i, p := range b.prob {
		offs := b.off[i*c : i*c+c]
		for l := range lanes3 {
			if mask>>l&1 == 0 {
				continue
			}
			bi := offs[0]
			best := row[int(bi)*e3+l]
			for _, o := range offs[1:] {
				if v := row[int(o)*e3+l]; v > best {
					best, bi = v, o
				}
			}
			k := row[int(bi)*e3+c3(l, 0):]
			acc[l][0] += p * k[0]
			acc[l][1] += p * k[1]
			acc[l][2] += p * k[2]
			acc[l][3] += p * k[3]
		}
	}
}

// fill3Lanes is fill3 (the mover's own component 0) for the live lanes of a,
// each from its own top down: the same choices and sums in the same order.
func (m *model) fill3Lanes(a *lane3Arrays) {
	D := int32(m.dice)
	if need := int(a.top+m.maxPts) * stride * e3; a.top > 0 && len(a.k) < need {
		panic(fmt.Sprintf("solve: three-player lane arrays of %d values, %d needed", len(a.k), need))
	}
	for t := a.top - 1; t >= 0; t-- {
		base := int(t * stride)
		var live, pruned uint8
		for l := range lanes3 {
			if a.live>>l&1 != 0 && t < a.tops[l] {
				live |= 1 << l
				if !a.allOptions && a.vio[l] >= t+m.maxPts+1 {
					pruned |= 1 << l
				}
			}
		}
		if live == 0 {
			continue
		}
		row := a.k[base*e3:]
		// the lanes that may skip a throw no better than banking (as fill3)
		var try uint8
		var bOwn [lanes3]float64
		if a.skipBanked {
			for l := range lanes3 {
				if pruned>>l&1 != 0 && a.ok[int(t)*lanes3+l] {
					try |= 1 << l
					bi := int(t)*4*lanes3 + l
					bOwn[l] = a.bank[bi] + a.bank[bi+3*lanes3]*a.x[l]
				}
			}
		}
		// skips[n]: the lanes whose throw of n dice banking beats (their
		// before-throw value is the bank's, left out of q: only this
		// total's after-keep values read it)
		var skips [stride]uint64
		if try != 0 {
			m.bound3Lanes(a.kmax[int(t)*lanes3:], &a.x, &bOwn, try, &skips)
		}
		for n := int32(1); n <= D; n++ {
			skip := uint8(skips[n])
			qi := (base + int(n)) * e3
			if skip == live {
				continue
			}
			var acc [lanes3][4]float64 // lane l's component c at [l][c]
			sum := func(ls *laneSet, bs []block, mask uint8) {
				if mask == 0 {
					return
				}
				if !useAVX2 || len(ls.hdr) == 0 {
					for _, b := range bs {
						sum3Lanes(&b, row, &acc, mask)
					}
					return
				}
				var all [lanes3][4]float64 // every lane; those of mask kept
				sum3LanesAVX2(&ls.hdr[0], len(ls.hdr)/2, &ls.prob[0], &ls.off[0], &row[0], &all)
				for l := range lanes3 {
					if mask>>l&1 != 0 {
						acc[l] = all[l]
					}
				}
			}
			sum(&m.lanes3Pruned[n], m.blocks[n], pruned&^skip)
			sum(&m.lanes3All[n], m.blocks3All[n], live&^pruned)
			for l := range lanes3 {
				if (live&^skip)>>l&1 == 0 {
					continue
				}
				acc[l][3] += m.farkle[n]
				if n == 6 && m.sdn > 0 {
					sq := (*vec4)(a.q[int((t+m.sdn)*stride+6)*e3+c3(l, 0):])
					for c := range 4 {
						acc[l][c] += m.nothing * sq[c]
					}
				}
				*(*vec4)(a.q[qi+c3(l, 0):]) = acc[l]
			}
		}
		// after-keep values: bank or throw the dice left
		var ok uint64
		for l := range lanes3 {
			if a.ok[int(t)*lanes3+l] {
				ok |= 1 << l
			}
		}
		hotJ := -1
		if m.hot {
			hotJ = int(D)
		}
		for rise := keepRow3(a.q[base*e3:(base+stride)*e3], a.bank[int(t)*4*lanes3:int(t+1)*4*lanes3], &a.x,
			a.k[base*e3:(base+2*stride)*e3], (*[lanes3]float64)(a.kmax[int(t)*lanes3:]), &skips, ok, uint64(live), hotJ, int(D)); rise != 0; rise &= rise - 1 {
			a.vio[bits.TrailingZeros64(rise)] = t
		}
	}
}

// keepRow3 sets the after-keep entries of one total of the lanes of live
// (fill3's choices): for each number of dice left below dice, the bank or
// throwing the dice left (none left: hotJ dice with hot dice, hotJ < 0
// without), whichever is worth more to the mover (the bank on a tie), the
// bank where the throw is skipped (skips[j], a lane's bit), and where it
// may not bank (ok) the throw, or with none left and no hot dice nothing
// (0, 0, 0, 1: the turn passes as on a farkle). q is the row's entries
// (before-throw vectors), bank its bank vectors (component c of lane l at
// c*lanes3+l), k the row's entries and the next row's (own values read
// there), kmax the row's most own after-keep value by lane. It returns the
// mask of the lanes with an own value above the next total's (fill3's
// vio). In AVX2 where built (keepRow3AVX2), else keepRow3Go: the same
// values.
func keepRow3(q, bank []float64, x *[lanes3]float64, k []float64, kmax *[lanes3]float64, skips *[stride]uint64, ok, live uint64, hotJ, dice int) uint64 {
	_, _, _ = q[stride*e3-1], bank[4*lanes3-1], k[2*stride*e3-1]
	if useAVX2 {
		return keepRow3AVX2(&q[0], &bank[0], &x[0], &k[0], &k[stride*e3], &kmax[0], &skips[0], ok, live, hotJ, dice)
	}
	return keepRow3Go(q, bank, x, k, kmax, skips, ok, live, hotJ, dice)
}

// keepRow3Go is keepRow3 in Go (each entry of the rows as an array: one
// bounds check an entry, not one a value).
func keepRow3Go(q, bank []float64, x *[lanes3]float64, k []float64, kmax *[lanes3]float64, skips *[stride]uint64, ok, live uint64, hotJ, dice int) uint64 {
	var rise uint64
	for l := range lanes3 {
		if live>>l&1 == 0 {
			continue
		}
		xl := x[l]
		b := vec4{bank[l], bank[lanes3+l], bank[2*lanes3+l], bank[3*lanes3+l]}
		okl := ok>>l&1 != 0
		bOwn := b[0] + b[3]*xl
		km := 0.0
		for left := range dice {
			j := left
			if left == 0 {
				j = hotJ
			}
			var v vec4
			switch {
			case j < 0 && okl || j > 0 && skips[j]>>l&1 != 0:
				v = b
			case j < 0:
				v = vec4{0, 0, 0, 1} // nothing: the turn passes as on a farkle
			default:
				v = *(*vec4)(q[j*e3+c3(l, 0):])
				if okl && bOwn >= v[0]+v[3]*xl {
					v = b
				}
			}
			ke := (*[e3]float64)(k[left*e3:])
			o := v[0] + v[3]*xl
			ke[l] = o
			if left == 0 {
				km = o
			} else {
				km = max2(km, o)
			}
			*(*vec4)(ke[c3(l, 0):]) = v
			if o > k[(left+stride)*e3+l] {
				rise |= 1 << l
			}
		}
		kmax[l] = km
	}
	return rise
}

// bound3Lanes is banked3Lanes for every number of dice at once (the bounds
// read only the totals above, none of the sums at this one): skips[n] for
// n = 1..dice, in AVX2 where built (bound3AVX2, the same roundings).
func (m *model) bound3Lanes(kmax []float64, x, bOwn *[lanes3]float64, try uint8, skips *[stride]uint64) {
	if !useAVX2 {
		for n := int32(1); n <= int32(m.dice); n++ {
			skips[n] = uint64(m.banked3Lanes(kmax, n, x, bOwn, try))
		}
		return
	}
	_ = kmax[int(m.maxPts)*lanes3+lanes3-1] // the most a bound reads
	var cand, out [7]uint64
	for n := 1; n <= m.dice; n++ {
		if n != 6 || m.sdn == 0 {
			cand[n] = uint64(try)
		}
	}
	bound3AVX2(&m.bounds3[0], m.dice, &kmax[0], &x[0], &bOwn[0], &cand[0], &out[0])
	copy(skips[1:m.dice+1], out[1:m.dice+1])
}

// banked3Lanes is banked3 for the lanes of try (kmax from the current
// total, stride lanes3; x and bOwn by lane): the mask of those whose throw
// of n dice is provably no better than banking. Each lane's bound is summed
// in banked3's order; the four sums run side by side.
func (m *model) banked3Lanes(kmax []float64, n int32, x, bOwn *[lanes3]float64, try uint8) uint8 {
	if n == 6 && m.sdn > 0 {
		return 0
	}
	f := m.farkle[n]
	u0, u1, u2, u3 := f*x[0], f*x[1], f*x[2], f*x[3]
	for _, e := range m.bestPts[n] {
		k := kmax[int(e.pts)*lanes3 : int(e.pts)*lanes3+lanes3]
		u0 += e.prob * k[0]
		u1 += e.prob * k[1]
		u2 += e.prob * k[2]
		u3 += e.prob * k[3]
	}
	var skip uint8
	for l, u := range [lanes3]float64{u0, u1, u2, u3} {
		if try>>l&1 != 0 && u+bankedSlack <= bOwn[l] {
			skip |= 1 << l
		}
	}
	return skip
}

// policyLane returns the start of the turn of lane l after fill3Lanes.
func (a *lane3Arrays) policyLane(l int, dice int) policy {
	i := dice*e3 + c3(l, 0)
	return policy{alpha: [3]float64{a.q[i], a.q[i+1], a.q[i+2]}, beta: a.q[i+3]}
}
