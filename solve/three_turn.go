package solve

import "sort"

// The in-turn dynamic programme of the three-player solver. Every value is a
// vector of three win probabilities with a farkle coefficient: the entry
// (a0, a1, a2, beta) stands for the vector (a0, a1, a2) + beta*F, F being
// the vector of win probabilities after a farkle (the turn passes with the
// scores unchanged). For a fixed policy the value of a turn is affine in F
// with one scalar slope (the probability of ending the turn with a farkle,
// or with nothing where no bank is allowed), which is what makes the farkle
// cycle of a score triple solvable exactly.
//
// The mover compares entries by its own component (me) at the farkle value
// x of that component: own = a[me] + beta*x. A mover indifferent between
// choices banks rather than throws, takes the keep of more points between
// keeps leaving the same dice, and otherwise the keep leaving fewer dice.
// The throws' groups are summed in the order of the model's blocks (by
// option count), the order of the lanes' sums (three_lanes.go).

// vec4 is one entry: three components and the farkle coefficient.
type vec4 = [4]float64

// dp3 holds the arrays of one three-player turn: rows totals (or final-round
// positions), stride entries a row as in turnArrays.
type dp3 struct {
	top, rows int32
	bank      []vec4    // by row; valid where ok
	ok        []bool    // banking allowed at the row
	k, q      []vec4    // row*stride + j
	own       []float64 // the mover's own value of k
	// skipBanked lets fill3 skip the sums of throws that a bound shows are
	// no better than banking (banked3), leaving Q there at the bank value:
	// for the solver, which reads only the after-keep values and the first
	// throw. kmax holds the most own after-keep value by row.
	skipBanked bool
	kmax       []float64
	// allOptions (in tests) makes fill3 compare every option at every
	// total (the pruned options are then never used).
	allOptions bool
}

func (d *dp3) resize(rows int32) {
	d.rows = rows
	n := int(rows) * stride
	if cap(d.k) < n {
		d.k = make([]vec4, n)
		d.q = make([]vec4, n)
		d.own = make([]float64, n)
	}
	d.k, d.q, d.own = d.k[:n], d.q[:n], d.own[:n]
	if cap(d.bank) < int(rows) {
		d.bank = make([]vec4, rows)
		d.ok = make([]bool, rows)
		d.kmax = make([]float64, rows)
	}
	d.bank, d.ok, d.kmax = d.bank[:rows], d.ok[:rows], d.kmax[:rows]
}

// firstBest returns bs with each group's options ordered by dice left and,
// for the same dice left, most points first.
func firstBest(bs [7][]block) [7][]block {
	var out [7][]block
	for n := range bs {
		for _, b := range bs[n] {
			nb := block{cnt: b.cnt, prob: b.prob, off: append([]int32(nil), b.off...)}
			for i := range b.prob {
				o := nb.off[i*b.cnt : i*b.cnt+b.cnt]
				sort.Slice(o, func(x, y int) bool {
					if o[x]%stride != o[y]%stride {
						return o[x]%stride < o[y]%stride
					}
					return o[x] > o[y]
				})
			}
			out[n] = append(out[n], nb)
		}
	}
	return out
}

// sum3 adds to acc the sum over the groups of block b of the group's
// probability times the after-keep value k of its best option by own (the
// mover's own value of k): the first of most own value. With the options
// of a group by dice left, and most points first for the same dice left
// (the pruned blocks, blocks3All), that is the keep of most points among
// those of most own value that leave the fewest dice. own and k start at
// the current total.
func sum3(b *block, own []float64, k []vec4, acc *vec4) {
	c := b.cnt
	for i, p := range b.prob {
		offs := b.off[i*c : i*c+c]
		bi := offs[0]
		best := own[bi]
		for _, o := range offs[1:] {
			if v := own[o]; v > best {
				best, bi = v, o
			}
		}
		kv := &k[bi]
		acc[0] += p * kv[0]
		acc[1] += p * kv[1]
		acc[2] += p * kv[2]
		acc[3] += p * kv[3]
	}
}

// banked3 reports whether throwing n dice at a total is provably no better
// than banking (own bank value bOwn) for the mover of own farkle value x,
// as model.banked does for the duel: with own after-keep values
// nondecreasing over the totals a keep reaches (the pruned region), a keep
// of at most p points is worth at most the most own value p totals on
// (kmax, from the current total), so the throw is worth at most
// sum P(most points p) kmax(p) + P(farkle) x. Not for six dice with the
// six-dice-nothing bonus (its own term).
func (m *model) banked3(kmax []float64, n int32, x, bOwn float64) bool {
	if n == 6 && m.sdn > 0 {
		return false
	}
	ub := m.farkle[n] * x
	for _, e := range m.bestPts[n] {
		ub += e.prob * kmax[e.pts]
	}
	return ub+bankedSlack <= bOwn
}

// fill3 computes K and Q for rows top-1 down to 0. bank and ok must be set
// for every row; rows at and above top take the bank value everywhere (ok
// must hold there).
//
// Between keeps leaving the same dice and of equal own value the one of
// more points is taken, otherwise the first (fewest dice left). Where the
// mover's own after-keep values do not decrease over the totals a throw
// can reach (checked as it goes, as in model.fill), the keep of most points
// for each number of dice left is the best of them, so only those (the
// pruned options) are compared: the same choices, the same values.
func (m *model) fill3(d *dp3, x float64, me int) {
	D := int32(m.dice)
	for t := d.top; t < d.rows; t++ {
		b := d.bank[t]
		o := b[me] + b[3]*x
		for j := int32(0); j <= D; j++ {
			d.k[t*stride+j] = b
			d.q[t*stride+j] = b
			d.own[t*stride+j] = o
		}
		d.kmax[t] = o
	}
	// least total at or above top where an own after-keep value decreases
	vio := int32(1 << 30)
	for t := d.rows - 2; t >= d.top; t-- {
		if d.own[t*stride] > d.own[(t+1)*stride] {
			vio = t
		}
	}
	m.fill3Rows(d, x, me, 0, d.top, vio)
}

// refill3 fills again the rows lo..hi-1 of d, filled before (fill3, and
// the rows from hi on unchanged since), after their bank or ok changed:
// the rows from hi on are what fill3 would give them, as they read only
// rows above them.
func (m *model) refill3(d *dp3, x float64, me int, lo, hi int32) {
	D := int32(m.dice)
	vio := int32(1 << 30)
	for t := d.rows - 2; t >= hi; t-- {
		for left := int32(0); left < D; left++ {
			if d.own[t*stride+left] > d.own[(t+1)*stride+left] {
				vio = t
				break
			}
		}
	}
	m.fill3Rows(d, x, me, lo, hi, vio)
}

// fill3Rows is fill3's programme for the rows hi-1 down to lo, the rows
// from hi on filled; vio is the least total at or above hi where an own
// after-keep value decreases (1<<30: none).
func (m *model) fill3Rows(d *dp3, x float64, me int, lo, hi, vio int32) {
	D := int32(m.dice)
	for t := hi - 1; t >= lo; t-- {
		base := t * stride
		bs := &m.blocks
		if d.allOptions || vio < t+m.maxPts+1 {
			bs = &m.blocks3All
		}
		b := d.bank[t]
		bOwn := b[me] + b[3]*x
		try := d.skipBanked && d.ok[t] && bs == &m.blocks
		for n := int32(1); n <= D; n++ {
			if try && m.banked3(d.kmax[t:], n, x, bOwn) {
				d.q[base+n] = b
				continue
			}
			var acc vec4
			for i := range bs[n] {
				sum3(&bs[n][i], d.own[base:], d.k[base:], &acc)
			}
			acc[3] += m.farkle[n]
			if n == 6 && m.sdn > 0 {
				s := &d.q[(t+m.sdn)*stride+6]
				for c := range acc {
					acc[c] += m.nothing * s[c]
				}
			}
			d.q[base+n] = acc
		}
		for left := int32(0); left < D; left++ {
			j := left
			if left == 0 {
				j = -1
				if m.hot {
					j = D
				}
			}
			var v vec4
			switch {
			case j < 0 && d.ok[t]:
				v = b
			case j < 0:
				v = vec4{0, 0, 0, 1} // nothing: the turn passes as on a farkle
			default:
				v = d.q[base+j]
				if d.ok[t] && bOwn >= v[me]+v[3]*x {
					v = b
				}
			}
			d.k[base+left] = v
		}
		d.kmax[t] = negInf
		for left := int32(0); left < D; left++ {
			v := &d.k[base+left]
			o := v[me] + v[3]*x
			d.own[base+left] = o
			d.kmax[t] = max2(d.kmax[t], o)
			if o > d.own[base+stride+left] {
				vio = t
			}
		}
	}
}
