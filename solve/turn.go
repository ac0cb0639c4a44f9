package solve

import "math"

var negInf = math.Inf(-1)

// turnArrays are the in-turn values of one turn problem, indexed
// t*stride + j: K (after a keep, j = dice left 0..5, 0 = none) and Q (before a
// throw of j = 1..6 dice), with their derivatives by the farkle value F and the
// nothing value Z (the value when a turn ends scoring nothing without a
// farkle). Totals t >= top hold the caller's tail values.
type turnArrays struct {
	top        int32
	k, q       []float64
	kF, qF     []float64
	kZ, qZ     []float64
	bank       []float64 // bank value by total, -Inf where banking is not allowed
	withDerivs bool
	// noZ, with derivatives, tells fill that no total can end the turn
	// scoring nothing (with hot dice every keep can be followed by a
	// throw) and that kZ, qZ hold zeros at and above top: the derivatives
	// by Z are then all 0 and the pruned sums skip them.
	noZ bool
	// skipBanked lets fill skip the sums of throws that a bound shows are
	// no better than banking (model.banked), leaving Q there at the bank
	// value: for the duel's solves, which read only the after-keep values
	// and the first throw. kmax holds the best after-keep value by total.
	skipBanked bool
	kmax       []float64
	// topN[n]: from this total on (up to top), throwing n dice is known to
	// be no better than banking, so Q(t,n) is not computed (it is set to the
	// bank value). Equal to top unless set by the caller.
	topN [8]int32
}

func (a *turnArrays) resize(n int, derivs bool) {
	grow := func(s []float64) []float64 {
		if cap(s) < n+winArr {
			return make([]float64, n, n+winArr) // room for blockSumArr
		}
		return s[:n]
	}
	a.k, a.q = grow(a.k), grow(a.q)
	a.withDerivs = derivs
	if derivs {
		a.kF, a.qF, a.kZ, a.qZ = grow(a.kF), grow(a.qF), grow(a.kZ), grow(a.qZ)
	}
}

// fill computes K and Q for totals top-1 down to 0. bank[t] must be set for
// t < top, and K, Q (and derivatives) for top <= t < top+maxPts+sdn+1.
//
// fill uses the pruned options at a total t when every after-keep value is
// nondecreasing over the totals t+1..t+maxPts that a keep can reach (then
// the most points for a number of dice left is the best of them); it checks
// that as it goes and uses all options where it fails.
func (m *model) fill(a *turnArrays, F, Z float64) {
	if !a.withDerivs {
		m.fillPlain(a, F, Z)
		return
	}
	D := int32(m.dice)
	vio := m.tailViolation(a)
	// a.k, a.kF, a.kZ with room for a winArr window at every total
	var ka, kFa, kZa []float64
	if (m.maxPts+1)*stride <= winArr && min(cap(a.k), cap(a.kF), cap(a.kZ)) >= int(a.top)*stride+winArr {
		ka, kFa, kZa = a.k[:cap(a.k)], a.kF[:cap(a.kF)], a.kZ[:cap(a.kZ)]
	}
	skip := a.startKmax(D)
	for t := a.top - 1; t >= 0; t-- {
		base := t * stride
		os := &m.pruned
		if vio < t+m.maxPts+1 {
			os = &m.optSet
		}
		for n := int32(1); n <= D; n++ {
			if t >= a.topN[n] || skip && os == &m.pruned && a.q[base+stride+n] == a.bank[t+1] && m.banked(a, t, n, F) {
				a.q[base+n] = a.bank[t]
				if a.withDerivs {
					a.qF[base+n], a.qZ[base+n] = 0, 0
				}
				continue
			}
			var v, dF, dZ float64
			if os == &m.pruned && ka != nil && a.noZ {
				v, dF = blockSumFArr(m.blocks[n], (*[winArr]float64)(ka[base:base+winArr]),
					(*[winArr]float64)(kFa[base:base+winArr]))
			} else if os == &m.pruned && ka != nil {
				v, dF, dZ = blockSumDArr(m.blocks[n], (*[winArr]float64)(ka[base:base+winArr]),
					(*[winArr]float64)(kFa[base:base+winArr]), (*[winArr]float64)(kZa[base:base+winArr]))
			} else if os == &m.pruned {
				v, dF, dZ = blockSumD(m.blocks[n], a.k[base:], a.kF[base:], a.kZ[base:])
			} else {
				// all options, in the order of fillPlain's sums, so that
				// its values and these are the same to the last bit
				v, dF, dZ = blockSumD(m.blocksAll[n], a.k[base:], a.kF[base:], a.kZ[base:])
			}
			pf := m.farkle[n]
			v += pf * F
			dF += pf
			if n == 6 && m.sdn > 0 {
				j := (t+m.sdn)*stride + 6
				v += m.nothing * a.q[j]
				if a.withDerivs {
					dF += m.nothing * a.qF[j]
					dZ += m.nothing * a.qZ[j]
				}
			}
			a.q[base+n] = v
			if a.withDerivs {
				a.qF[base+n], a.qZ[base+n] = dF, dZ
			}
		}
		b := a.bank[t]
		for left := int32(0); left < D; left++ {
			j := left
			if left == 0 {
				if !m.hot {
					j = -1
				} else {
					j = D
				}
			}
			v, dF, dZ := b, 0.0, 0.0
			if j > 0 {
				if x := a.q[base+j]; x > v {
					v = x
					if a.withDerivs {
						dF, dZ = a.qF[base+j], a.qZ[base+j]
					}
				}
			}
			if v == negInf {
				v, dF, dZ = Z, 0, 1
			}
			a.k[base+left] = v
			if a.withDerivs {
				a.kF[base+left], a.kZ[base+left] = dF, dZ
			}
			if v > a.k[base+stride+left] {
				vio = t
			}
		}
		if skip {
			a.setKmax(t, D)
		}
	}
}

// tailViolation returns the least total t >= top where an after-keep value
// decreases from t to t+1, or a large number if none does.
func (m *model) tailViolation(a *turnArrays) int32 {
	D := int32(m.dice)
	rows := int32(len(a.k) / stride)
	for t := rows - 2; t >= a.top; t-- {
		for left := int32(0); left < D; left++ {
			if a.k[t*stride+left] > a.k[(t+1)*stride+left] {
				return t
			}
		}
	}
	return 1 << 30
}

// fillPlain is fill without derivatives: the hot loop of the duel solver.
func (m *model) fillPlain(a *turnArrays, F, Z float64) {
	D := int32(m.dice)
	vio := m.tailViolation(a)
	window := (m.maxPts + 1) * stride
	hotJ := int32(-1)
	if m.hot {
		hotJ = D
	}
	var ka []float64 // a.k with room for a winArr window at every total
	if window <= winArr && cap(a.k) >= int(a.top)*stride+winArr {
		ka = a.k[:cap(a.k)]
	}
	skip := a.startKmax(D)
	for t := a.top - 1; t >= 0; t-- {
		base := t * stride
		os := &m.pruned
		if vio < t+m.maxPts+1 {
			os = &m.optSet
		}
		k := a.k[base : base+window]
		pruned := os == &m.pruned
		for n := int32(1); n <= D; n++ {
			if t >= a.topN[n] || skip && pruned && a.q[base+stride+n] == a.bank[t+1] && m.banked(a, t, n, F) {
				a.q[base+n] = a.bank[t]
				continue
			}
			bs := m.blocks[n]
			if !pruned {
				bs = m.blocksAll[n]
			}
			var v float64
			if ka != nil {
				v = blockSumArr(bs, (*[winArr]float64)(ka[base:base+winArr]))
			} else {
				v = blockSum(bs, k)
			}
			v += m.farkle[n] * F
			if n == 6 && m.sdn > 0 {
				v += m.nothing * a.q[(t+m.sdn)*stride+6]
			}
			a.q[base+n] = v
		}
		b := a.bank[t]
		for left := int32(0); left < D; left++ {
			j := left
			if left == 0 {
				j = hotJ
			}
			v := b
			if j > 0 {
				v = max(v, a.q[base+j])
			}
			if v == negInf {
				v = Z
			}
			a.k[base+left] = v
			if v > a.k[base+stride+left] {
				vio = t
			}
		}
		if skip {
			a.setKmax(t, D)
		}
	}
}

// blockSum returns the sum over the groups of bs of probability times the
// best K value among the group's options (k starts at the current total).
func blockSum(bs []block, k []float64) float64 {
	v := 0.0
	for bi := range bs {
		b := &bs[bi]
		off := b.off
		switch b.cnt {
		case 1:
			for i, p := range b.prob {
				v += p * k[off[i]]
			}
		case 2:
			for i, p := range b.prob {
				o := off[2*i : 2*i+2 : 2*i+2]
				v += p * max2(k[o[0]], k[o[1]])
			}
		case 3:
			for i, p := range b.prob {
				o := off[3*i : 3*i+3 : 3*i+3]
				v += p * max2(max2(k[o[0]], k[o[1]]), k[o[2]])
			}
		case 4:
			for i, p := range b.prob {
				o := off[4*i : 4*i+4 : 4*i+4]
				v += p * max2(max2(k[o[0]], k[o[1]]), max2(k[o[2]], k[o[3]]))
			}
		case 5:
			for i, p := range b.prob {
				o := off[5*i : 5*i+5 : 5*i+5]
				v += p * max2(max2(max2(k[o[0]], k[o[1]]), max2(k[o[2]], k[o[3]])), k[o[4]])
			}
		case 6:
			for i, p := range b.prob {
				o := off[6*i : 6*i+6 : 6*i+6]
				v += p * max2(max2(max2(k[o[0]], k[o[1]]), max2(k[o[2]], k[o[3]])), max2(k[o[4]], k[o[5]]))
			}
		default:
			c := b.cnt
			for i, p := range b.prob {
				o := off[c*i : c*i+c]
				best := k[o[0]]
				for _, x := range o[1:] {
					best = max2(best, k[x])
				}
				v += p * best
			}
		}
	}
	return v
}

// max2 is the larger of x and y (the values are never NaN).
func max2(x, y float64) float64 {
	if x > y {
		return x
	}
	return y
}

// blockSumD is blockSum with the derivatives of the chosen options.
func blockSumD(bs []block, k, kF, kZ []float64) (v, dF, dZ float64) {
	for bi := range bs {
		b := &bs[bi]
		c := b.cnt
		if c == 1 {
			for i, p := range b.prob {
				o := b.off[i]
				v += p * k[o]
				dF += p * kF[o]
				dZ += p * kZ[o]
			}
			continue
		}
		for i, p := range b.prob {
			o := b.off[c*i : c*i+c]
			j := o[0]
			best := k[j]
			for _, x := range o[1:] {
				if y := k[x]; y > best {
					best, j = y, x
				}
			}
			v += p * best
			dF += p * kF[j]
			dZ += p * kZ[j]
		}
	}
	return v, dF, dZ
}

// winArr is the size of the fixed window of blockSumArr: offsets are
// masked to it, so that the loads need no bounds check.
const winArr = 1024

// blockSumArr is blockSum on a fixed window (every offset < winArr).
func blockSumArr(bs []block, k *[winArr]float64) float64 {
	const mask = winArr - 1
	v := 0.0
	for bi := range bs {
		b := &bs[bi]
		off := b.off
		switch b.cnt {
		case 1:
			for i, p := range b.prob {
				v += p * k[off[i]&mask]
			}
		case 2:
			for i, p := range b.prob {
				o := off[2*i : 2*i+2 : 2*i+2]
				v += p * max2(k[o[0]&mask], k[o[1]&mask])
			}
		case 3:
			for i, p := range b.prob {
				o := off[3*i : 3*i+3 : 3*i+3]
				v += p * max2(max2(k[o[0]&mask], k[o[1]&mask]), k[o[2]&mask])
			}
		case 4:
			for i, p := range b.prob {
				o := off[4*i : 4*i+4 : 4*i+4]
				v += p * max2(max2(k[o[0]&mask], k[o[1]&mask]), max2(k[o[2]&mask], k[o[3]&mask]))
			}
		case 5:
			for i, p := range b.prob {
				o := off[5*i : 5*i+5 : 5*i+5]
				v += p * max2(max2(max2(k[o[0]&mask], k[o[1]&mask]), max2(k[o[2]&mask], k[o[3]&mask])), k[o[4]&mask])
			}
		case 6:
			for i, p := range b.prob {
				o := off[6*i : 6*i+6 : 6*i+6]
				v += p * max2(max2(max2(k[o[0]&mask], k[o[1]&mask]), max2(k[o[2]&mask], k[o[3]&mask])), max2(k[o[4]&mask], k[o[5]&mask]))
			}
		default:
			c := b.cnt
			for i, p := range b.prob {
				o := off[c*i : c*i+c]
				best := k[o[0]&mask]
				for _, x := range o[1:] {
					best = max2(best, k[x&mask])
				}
				v += p * best
			}
		}
	}
	return v
}

// blockSumFArr is blockSumArr with the sum of probability times d at the
// chosen option (the first of most value in k): v and the derivative d.
func blockSumFArr(bs []block, k, d *[winArr]float64) (v, dv float64) {
	const mask = winArr - 1
	for bi := range bs {
		b := &bs[bi]
		off := b.off
		switch b.cnt {
		case 1:
			for i, p := range b.prob {
				j := off[i] & mask
				v += p * k[j]
				dv += p * d[j]
			}
		case 2:
			for i, p := range b.prob {
				o := off[2*i : 2*i+2 : 2*i+2]
				j, best := pick(k, o[0]&mask, o[1]&mask)
				v += p * best
				dv += p * d[j]
			}
		case 3:
			for i, p := range b.prob {
				o := off[3*i : 3*i+3 : 3*i+3]
				j, best := pick(k, o[0]&mask, o[1]&mask)
				j, best = pickOn(k, j, best, o[2]&mask)
				v += p * best
				dv += p * d[j]
			}
		case 4:
			for i, p := range b.prob {
				o := off[4*i : 4*i+4 : 4*i+4]
				j, best := pick(k, o[0]&mask, o[1]&mask)
				j, best = pickOn(k, j, best, o[2]&mask)
				j, best = pickOn(k, j, best, o[3]&mask)
				v += p * best
				dv += p * d[j]
			}
		default:
			c := b.cnt
			for i, p := range b.prob {
				o := off[c*i : c*i+c]
				j := o[0] & mask
				best := k[j]
				for _, x := range o[1:] {
					j, best = pickOn(k, j, best, x&mask)
				}
				v += p * best
				dv += p * d[j]
			}
		}
	}
	return v, dv
}

// blockSumDArr is blockSumD on fixed windows (every offset < winArr): the
// same sums in the same order, and the same option chosen (the first of most
// value), so the same values to the last bit. The derivatives by Z take a
// second pass over the options (only rules without hot dice need them).
func blockSumDArr(bs []block, k, kF, kZ *[winArr]float64) (v, dF, dZ float64) {
	v, dF = blockSumFArr(bs, k, kF)
	_, dZ = blockSumFArr(bs, k, kZ)
	return v, dF, dZ
}

// pick returns the first of offsets x, y of most value in k, and its value.
func pick(k *[winArr]float64, x, y int32) (int32, float64) {
	return pickOn(k, x, k[x], y)
}

// pickOn returns (y, k[y]) if k[y] is more than best, else (j, best).
func pickOn(k *[winArr]float64, j int32, best float64, y int32) (int32, float64) {
	if v := k[y]; v > best {
		return y, v
	}
	return j, best
}
