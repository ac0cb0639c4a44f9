package solve

import (
	"fmt"
	"math/bits"
)

// laneTurn is the turn of one lane: the mover at a (streak sa) against b
// (streak sb), with farkle value F and nothing value Z.
type laneTurn struct {
	a, b, sa, sb int32
	F, Z         float64
}

// laneArrays are the in-turn values of the turns of the lanes, interleaved:
// value j of total t of lane l at (t*stride+j)*lanes + l (see turnArrays);
// bank and kmax at t*lanes + l. Each lane has its own top and topN; totals
// from a lane's top up hold its tail values, and the fill, which runs from
// the greatest top down, finds them again there (topN <= top: banking).
type laneArrays struct {
	top    int32 // the greatest top of the lanes
	tops   [lanes]int32
	rows   [lanes]int32 // each lane's rows (turnRows of its top)
	topN   [lanes][8]int32
	vio    [lanes]int32 // each lane's tail violation (tailViolation)
	F, Z   [lanes]float64
	k, q   []float64
	kF, qF []float64
	kZ, qZ []float64
	bank   []float64
	kmax   []float64
	derivs bool
	noZ    bool
	simd   simd // the lane routines' instructions (bestSIMD, unless a test says)
}

// lane returns the index of value j of total t of lane l.
func lane(t, j int32, l int) int { return int(t*stride+j)*lanes + l }

// setupLanes prepares the turns of the lanes (as setup does each alone).
func (t *Table) setupLanes(arr *laneArrays, turns *[lanes]laneTurn, derivs bool) {
	m := t.m
	D := int32(m.dice)
	arr.top = 0
	rows := int32(0)
	for l := range lanes {
		u := &turns[l]
		arr.tops[l], arr.topN[l] = t.turnTop(u.a, u.b, u.F)
		arr.rows[l] = t.turnRows(arr.tops[l])
		arr.top = max(arr.top, arr.tops[l])
		rows = max(rows, arr.rows[l])
		arr.F[l], arr.Z[l] = u.F, u.Z
	}
	size := int(rows) * stride * lanes
	// The turns grow as the sweep goes down the sums: room to spare saves
	// a new array every few totals, up to the longest turn (DuelBytes'
	// rows: a top at most the target plus the final round's length).
	most := int(t.A+int32(len(t.fr.fr))+m.maxPts+m.sdn+2) * stride * lanes
	grow := func(s []float64, n int) []float64 {
		if cap(s) < n {
			return make([]float64, n, max(n, min(2*cap(s), most)))
		}
		return s[:n]
	}
	arr.k, arr.q = grow(arr.k, size), grow(arr.q, size)
	arr.derivs = derivs
	if derivs {
		arr.kF, arr.qF, arr.kZ, arr.qZ = grow(arr.kF, size), grow(arr.qF, size), grow(arr.kZ, size), grow(arr.qZ, size)
	}
	arr.noZ = m.hot
	arr.bank = grow(arr.bank, int(rows)*lanes)
	arr.kmax = grow(arr.kmax, int(rows)*lanes)
	bank := arr.bank
	for l := range lanes {
		u := &turns[l]
		mEff := t.mEff(u.a)
		top := arr.tops[l]
		// bank values: -Inf below mEff, from the table below the target,
		// then the final round's (or a win)
		in := min(max(t.A-u.a, 0), rows)
		tt := int32(0)
		for ; tt < min(mEff, rows); tt++ {
			bank[int(tt)*lanes+l] = negInf
		}
		row := t.banks[(u.b*t.c+u.sb)*t.A+u.a : (u.b*t.c+u.sb)*t.A+u.a+in]
		for ; tt < in; tt++ {
			bank[int(tt)*lanes+l] = 1 - row[tt]
		}
		// at or above the target: a win, or the last turn of the other
		// (bankAt: 1 - fr.at(lead))
		fr := t.fr.fr
		for d := u.a + tt - u.b; tt < rows; tt, d = tt+1, d+1 {
			v := 1.0
			if !m.immediate && int(d) < len(fr) {
				v = 1 - fr[d]
			}
			bank[int(tt)*lanes+l] = v
		}
		// The tail: from the lane's top up every after-keep value is the
		// bank value (derivatives 0); here below the greatest top, above
		// it whole rows after this loop.
		for tt := top; tt < arr.top; tt++ {
			v := bank[int(tt)*lanes+l]
			for j := int32(0); j < D; j++ {
				arr.k[lane(tt, j, l)] = v
			}
			arr.kmax[int(tt)*lanes+l] = v
			if derivs {
				for j := int32(0); j < D; j++ {
					arr.kF[lane(tt, j, l)], arr.kZ[lane(tt, j, l)] = 0, 0
				}
			}
		}
		// tailViolation on this lane's own rows: none, its tail is the
		// bank values, the same for every number of dice left, unless they
		// decrease
		arr.vio[l] = 1 << 30
		for tt := arr.rows[l] - 2; tt >= top; tt-- {
			if bank[int(tt)*lanes+l] > bank[int(tt+1)*lanes+l] {
				arr.vio[l] = tt
				break
			}
		}
	}
	// Above the greatest top every lane is in its tail. The before-throw
	// values are read there only at the greatest top (the throw above the
	// first total the fill solves) and, with six dice nothing, six dice up
	// to sdn totals above it.
	for tt := arr.top; tt < rows; tt++ {
		b := bank[int(tt)*lanes : int(tt)*lanes+lanes]
		for j := int32(0); j < D; j++ {
			i := lane(tt, j, 0)
			copy(arr.k[i:i+lanes], b)
			if derivs {
				clear(arr.kF[i : i+lanes])
				clear(arr.kZ[i : i+lanes])
			}
		}
		copy(arr.kmax[int(tt)*lanes:int(tt)*lanes+lanes], b)
		for j := int32(1); j <= D; j++ {
			if tt > arr.top && (j != 6 || tt >= arr.top+m.sdn) {
				continue
			}
			i := lane(tt, j, 0)
			copy(arr.q[i:i+lanes], b)
			if derivs {
				clear(arr.qF[i : i+lanes])
				clear(arr.qZ[i : i+lanes])
			}
		}
	}
}

// fillLanes is fill (with skipBanked) for the turns of the lanes: for each
// lane the same decisions (options pruned or not, throws skipped) and the
// same sums in the same order as fill or fillPlain alone, so the same
// values to the last bit.
func (m *model) fillLanes(a *laneArrays) {
	const W = stride * lanes // values of one total
	const all = 1<<lanes - 1
	D := int32(m.dice)
	hotJ := int32(-1)
	if m.hot {
		hotJ = D
	}
	if need := (int(a.top)-1)*W + m.laneReach; a.top > 0 && len(a.k) < need {
		panic(fmt.Sprintf("solve: lane arrays of %d values, %d needed", len(a.k), need))
	}
	vio := a.vio
	// The lanes where throwing n dice is provably no better than banking
	// at total t (t >= topN) only leave as t goes down: skipN[n] holds
	// them, and byTop[n] the lanes by decreasing topN, those from
	// nextTop[n] on still in skipN[n].
	var skipN [7]uint64
	var byTop [7][lanes]uint8
	var nextTop [7]int
	for n := 1; n <= int(D); n++ {
		for l := range lanes {
			k := l
			for ; k > 0 && a.topN[byTop[n][k-1]][n] < a.topN[l][n]; k-- {
				byTop[n][k] = byTop[n][k-1]
			}
			byTop[n][k] = uint8(l)
		}
		skipN[n] = all
	}
	for t := a.top - 1; t >= 0; t-- {
		base := int(t) * W
		qrow := (*[W]float64)(a.q[base : base+W])
		qnext := (*[W]float64)(a.q[base+W : base+2*W])
		krow := (*[W]float64)(a.k[base : base+W])
		knext := (*[W]float64)(a.k[base+W : base+2*W])
		bk := (*[lanes]float64)(a.bank[int(t)*lanes:])
		bnext := (*[lanes]float64)(a.bank[int(t+1)*lanes:])
		pruned := uint64(0)
		for l := range lanes {
			if vio[l] >= t+m.maxPts+1 {
				pruned |= 1 << l
			}
		}
		// the throws banking provably beats: beyond a lane's topN, and
		// model.banked for the lanes where the throw above was no better
		// than banking (all numbers of dice at once: the bounds read
		// only the totals above)
		var skips, cand [7]uint64
		anyCand := false
		for n := int32(1); n <= D; n++ {
			k := nextTop[n]
			for ; k < lanes && a.topN[byTop[n][k]][n] > t; k++ {
				skipN[n] &^= 1 << byTop[n][k]
			}
			nextTop[n] = k
			skip := skipN[n]
			skips[n] = skip
			if c := pruned &^ skip; c != 0 && !(n == 6 && m.sdn > 0) {
				cand[n] = c
				anyCand = true
			}
		}
		if anyCand {
			var bound [7]uint64
			boundAll(a.simd, &m.bounds, int(D), a.kmax[int(t)*lanes:], qnext, bnext, bk, &a.F, &cand, &bound)
			for n := int32(1); n <= D; n++ {
				skips[n] |= bound[n]
			}
		}
		for n := int32(1); n <= D; n++ {
			skip := skips[n]
			qi := int(n) * lanes
			if skip == all {
				*(*[lanes]float64)(qrow[qi : qi+lanes]) = *bk
				if a.derivs {
					clear(a.qF[base+qi : base+qi+lanes])
					clear(a.qZ[base+qi : base+qi+lanes])
				}
				continue
			}
			var v, dF, dZ [lanes]float64
			switch {
			case pruned == all:
				m.laneSum(a, &m.lanesPruned[n], base, &v, &dF, &dZ)
			case pruned == 0:
				m.laneSum(a, &m.lanesAll[n], base, &v, &dF, &dZ)
			default:
				var v2, dF2, dZ2 [lanes]float64
				m.laneSum(a, &m.lanesPruned[n], base, &v, &dF, &dZ)
				m.laneSum(a, &m.lanesAll[n], base, &v2, &dF2, &dZ2)
				for l := range lanes {
					if pruned>>l&1 == 0 {
						v[l], dF[l], dZ[l] = v2[l], dF2[l], dZ2[l]
					}
				}
			}
			pf := m.farkle[n]
			sdn := n == 6 && m.sdn > 0
			for l := range lanes {
				x := v[l] + pf*a.F[l]
				if sdn {
					x += m.nothing * a.q[lane(t+m.sdn, 6, l)]
				}
				if skip>>l&1 != 0 {
					x = bk[l]
				}
				qrow[qi+l] = x
			}
			if a.derivs {
				for l := range lanes {
					f, z := dF[l]+pf, dZ[l]
					if sdn {
						j := lane(t+m.sdn, 6, l)
						f += m.nothing * a.qF[j]
						z += m.nothing * a.qZ[j]
					}
					if skip>>l&1 != 0 {
						f, z = 0, 0
					}
					a.qF[base+qi+l], a.qZ[base+qi+l] = f, z
				}
			}
		}
		// after-keep values: bank or throw the dice left
		km := (*[lanes]float64)(a.kmax[int(t)*lanes:])
		if !a.derivs {
			rise := keepRow(a.simd, qrow[:], krow[:], knext[:], bk, &a.Z, km, int(hotJ), int(D))
			for ; rise != 0; rise &= rise - 1 {
				if l := bits.TrailingZeros64(rise); t < a.tops[l] {
					vio[l] = t
				}
			}
			continue
		}
		for left := int32(0); left < D; left++ {
			j := left
			if left == 0 {
				j = hotJ
			}
			ki := int(left) * lanes
			for l := range lanes {
				v, dF, dZ := bk[l], 0.0, 0.0
				if j > 0 {
					if x := qrow[int(j)*lanes+l]; x > v {
						v, dF, dZ = x, a.qF[base+int(j)*lanes+l], a.qZ[base+int(j)*lanes+l]
					}
				}
				if v == negInf {
					v, dF, dZ = a.Z[l], 0, 1
				}
				krow[ki+l] = v
				a.kF[base+ki+l], a.kZ[base+ki+l] = dF, dZ
				if v > knext[ki+l] && t < a.tops[l] {
					vio[l] = t
				}
				if left == 0 {
					km[l] = v
				} else {
					km[l] = max2(km[l], v)
				}
			}
		}
	}
}

// laneSum sums the throw of blocks bs at the total of base for every lane:
// values in v, and with derivatives their sums by F and Z in dF and dZ.
func (m *model) laneSum(a *laneArrays, bs *laneSet, base int, v, dF, dZ *[lanes]float64) {
	if !a.derivs {
		sumLanes(a.simd, bs, a.k[base:], v)
		return
	}
	sumLanesD(a.simd, bs, a.k[base:], a.kF[base:], v, dF)
	if !a.noZ {
		var ignore [lanes]float64
		sumLanesD(a.simd, bs, a.k[base:], a.kZ[base:], &ignore, dZ)
	}
}
