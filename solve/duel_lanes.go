package solve

import "fmt"

// laneSolve tells the sweeps to solve pairs of one score sum four at a time
// (jobLanes); off (in tests), every pair is solved alone (job). The tables
// are the same to the last bit.
var laneSolve = true

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
	grow := func(s []float64, n int) []float64 {
		if cap(s) < n {
			return make([]float64, n)
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
	for l := range lanes {
		u := &turns[l]
		mEff := t.mEff(u.a)
		top := arr.tops[l]
		for tt := int32(0); tt < rows; tt++ {
			v := t.bankAt(u.a, u.b, u.sb, tt, mEff)
			arr.bank[int(tt)*lanes+l] = v
			if tt < top {
				continue
			}
			for j := int32(0); j <= D; j++ {
				i := lane(tt, j, l)
				arr.k[i], arr.q[i] = v, v
				if derivs {
					arr.kF[i], arr.qF[i], arr.kZ[i], arr.qZ[i] = 0, 0, 0, 0
				}
			}
			arr.setKmax(tt, D, l)
		}
		// tailViolation on this lane's own rows
		arr.vio[l] = 1 << 30
	scan:
		for tt := arr.rows[l] - 2; tt >= top; tt-- {
			for left := int32(0); left < D; left++ {
				if arr.k[lane(tt, left, l)] > arr.k[lane(tt+1, left, l)] {
					arr.vio[l] = tt
					break scan
				}
			}
		}
	}
}

// setKmax sets kmax of lane l at total t: its best after-keep value there.
func (a *laneArrays) setKmax(t, dice int32, l int) {
	v := a.k[lane(t, 0, l)]
	for left := int32(1); left < dice; left++ {
		v = max2(v, a.k[lane(t, left, l)])
	}
	a.kmax[int(t)*lanes+l] = v
}

// fillLanes is fill (with skipBanked) for the turns of the lanes: for each
// lane the same decisions (options pruned or not, throws skipped) and the
// same sums in the same order as fill or fillPlain alone, so the same
// values to the last bit.
func (m *model) fillLanes(a *laneArrays) {
	D := int32(m.dice)
	hotJ := int32(-1)
	if m.hot {
		hotJ = D
	}
	if need := (int(a.top)-1)*stride*lanes + m.laneReach; a.top > 0 && len(a.k) < need {
		panic(fmt.Sprintf("solve: lane arrays of %d values, %d needed", len(a.k), need))
	}
	vio := a.vio
	var pruned [lanes]bool
	for t := a.top - 1; t >= 0; t-- {
		base := int(t) * stride * lanes
		allP, anyP := true, false
		for l := range lanes {
			pruned[l] = vio[l] >= t+m.maxPts+1
			allP = allP && pruned[l]
			anyP = anyP || pruned[l]
		}
		for n := int32(1); n <= D; n++ {
			var skip [lanes]bool
			allSkip, tryBound := true, false
			for l := range lanes {
				switch {
				case t >= a.topN[l][n]:
					skip[l] = true
				case pruned[l] && a.q[lane(t+1, n, l)] == a.bank[int(t+1)*lanes+l]:
					tryBound = true
					allSkip = false
				default:
					allSkip = false
				}
			}
			if tryBound && !(n == 6 && m.sdn > 0) {
				// model.banked for every lane at once
				var ub [lanes]float64
				for l := range lanes {
					ub[l] = m.farkle[n] * a.F[l]
				}
				sumLanes(m.bestLanes[n], a.kmax[int(t)*lanes:], &ub)
				allSkip = true
				for l := range lanes {
					if !skip[l] && pruned[l] && a.q[lane(t+1, n, l)] == a.bank[int(t+1)*lanes+l] {
						b := a.bank[int(t)*lanes+l]
						skip[l] = b != negInf && ub[l]+bankedSlack <= b
					}
					allSkip = allSkip && skip[l]
				}
			}
			qi := base + int(n)*lanes
			if allSkip {
				for l := range lanes {
					a.q[qi+l] = a.bank[int(t)*lanes+l]
					if a.derivs {
						a.qF[qi+l], a.qZ[qi+l] = 0, 0
					}
				}
				continue
			}
			var v, dF, dZ [lanes]float64
			switch {
			case allP:
				m.laneSum(a, m.lanesPruned[n], base, &v, &dF, &dZ)
			case !anyP:
				m.laneSum(a, m.lanesAll[n], base, &v, &dF, &dZ)
			default:
				var v2, dF2, dZ2 [lanes]float64
				m.laneSum(a, m.lanesPruned[n], base, &v, &dF, &dZ)
				m.laneSum(a, m.lanesAll[n], base, &v2, &dF2, &dZ2)
				for l := range lanes {
					if !pruned[l] {
						v[l], dF[l], dZ[l] = v2[l], dF2[l], dZ2[l]
					}
				}
			}
			pf := m.farkle[n]
			for l := range lanes {
				if skip[l] {
					a.q[qi+l] = a.bank[int(t)*lanes+l]
					if a.derivs {
						a.qF[qi+l], a.qZ[qi+l] = 0, 0
					}
					continue
				}
				x := v[l] + pf*a.F[l]
				if n == 6 && m.sdn > 0 {
					j := lane(t+m.sdn, 6, l)
					x += m.nothing * a.q[j]
					if a.derivs {
						dF[l] += pf
						dF[l] += m.nothing * a.qF[j]
						dZ[l] += m.nothing * a.qZ[j]
					}
				} else if a.derivs {
					dF[l] += pf
				}
				a.q[qi+l] = x
				if a.derivs {
					a.qF[qi+l], a.qZ[qi+l] = dF[l], dZ[l]
				}
			}
		}
		for l := range lanes {
			b := a.bank[int(t)*lanes+l]
			for left := int32(0); left < D; left++ {
				j := left
				if left == 0 {
					j = hotJ
				}
				v, dF, dZ := b, 0.0, 0.0
				if j > 0 {
					if x := a.q[lane(t, j, l)]; x > v {
						v = x
						if a.derivs {
							dF, dZ = a.qF[lane(t, j, l)], a.qZ[lane(t, j, l)]
						}
					}
				}
				if v == negInf {
					v, dF, dZ = a.Z[l], 0, 1
				}
				i := lane(t, left, l)
				a.k[i] = v
				if a.derivs {
					a.kF[i], a.kZ[i] = dF, dZ
				}
				if t < a.tops[l] && v > a.k[i+stride*lanes] {
					vio[l] = t
				}
			}
			a.setKmax(t, D, l)
		}
	}
}

// laneSum sums the throw of blocks bs at the total of base for every lane:
// values in v, and with derivatives their sums by F and Z in dF and dZ.
func (m *model) laneSum(a *laneArrays, bs []laneBlock, base int, v, dF, dZ *[lanes]float64) {
	if !a.derivs {
		sumLanes(bs, a.k[base:], v)
		return
	}
	sumLanesD(bs, a.k[base:], a.kF[base:], v, dF)
	if !a.noZ {
		var ignore [lanes]float64
		sumLanesD(bs, a.k[base:], a.kZ[base:], &ignore, dZ)
	}
}
