package solve

// The duel's turns skip the sums of a throw wherever a cheap upper bound of
// its value already shows that banking is at least as good (model.banked):
// about a fifth of the work of the rule sets with a final round or a farkle
// penalty, where the leader banks at most totals. The values are the same
// to the last bit: the after-keep value there is the bank value either way.

// ptsProb is one term of the distribution of a throw's most points: the
// throws whose best keep scores pts units, with their total probability.
type ptsProb struct {
	pts  int32
	prob float64
}

// bankedSlack is what the bound must clear the bank value by: more than
// the rounding of the sums it stands for (a few hundred terms at most,
// values at most 1), so that a skipped sum could not have exceeded the bank
// value in floating point either.
const bankedSlack = 1e-12

// buildMaxPts returns, for each number of dice thrown, the distribution of
// the most points a keep of the throw can score (throws without a keep
// left out).
func buildMaxPts(groups *[7][]group) [7][]ptsProb {
	var out [7][]ptsProb
	for n := 1; n <= 6; n++ {
		at := map[int32]int{}
		for _, g := range groups[n] {
			best := int32(0)
			for _, o := range g.opts {
				best = max(best, o.pts)
			}
			i, ok := at[best]
			if !ok {
				i = len(out[n])
				at[best] = i
				out[n] = append(out[n], ptsProb{pts: best})
			}
			out[n][i].prob += g.prob
		}
	}
	return out
}

// The fills try the bound for n dice at a total only where Q at the total
// above holds exactly the bank value (skipped there too, or the tail): the
// banked totals of a turn are mostly one run from the top down, and a bound
// tried below where it first failed rarely succeeds (trying it wherever the
// throw above was no better than banking succeeds on 0.3% more throws for
// five times the failed tries).

// banked reports whether throwing n dice at total t is provably no better
// than banking: with after-keep values nondecreasing over the totals a
// keep reaches (the caller's pruned region), a keep of at most p points is
// worth at most the best after-keep value at t+p (kmax), so the throw is
// worth at most sum P(most points p) kmax(t+p) + P(farkle) F. Only for
// values in [0, 1] (the duel's win probabilities).
func (m *model) banked(a *turnArrays, t, n int32, F float64) bool {
	b := a.bank[t]
	if b == negInf || (n == 6 && m.sdn > 0) {
		return false
	}
	km := a.kmax[t:]
	ub := m.farkle[n] * F
	for _, e := range m.bestPts[n] {
		ub += e.prob * km[e.pts]
	}
	return ub+bankedSlack <= b
}

// setKmax sets kmax at total t: the best after-keep value there.
func (a *turnArrays) setKmax(t, dice int32) {
	row := a.k[t*stride : t*stride+dice]
	v := row[0]
	for _, x := range row[1:] {
		v = max2(v, x)
	}
	a.kmax[t] = v
}

// startKmax prepares kmax for a fill with skipBanked (its totals at and
// above top from the tail) and reports whether to skip.
func (a *turnArrays) startKmax(dice int32) bool {
	if !a.skipBanked {
		return false
	}
	rows := int32(len(a.k) / stride)
	if cap(a.kmax) < int(rows) {
		a.kmax = make([]float64, rows)
	}
	a.kmax = a.kmax[:rows]
	for t := a.top; t < rows; t++ {
		a.setKmax(t, dice)
	}
	return true
}
