package solve

// frCap is the largest win probability neglected at the top of a final
// round: a lead whose chance of being passed in one turn is below it is
// banked without looking further (the error of any value is at most this).
const frCap = 1e-13

// finalRound holds the last turn of a final-round game: fr[d] is the
// probability that the last player, d units behind the leader with one turn
// left, wins (a tie counting 1/2), for d = 0..len(fr)-1; beyond, it is below
// frCap and taken as 0. sup[d] is the largest fr at d or beyond.
type finalRound struct {
	fr, sup []float64
	// q[tie][r*stride+n], k[tie][r*stride+left]: the last turn needing r
	// more units to win (r >= 1), before a throw of n dice and after a keep
	// leaving left dice; tie = 1 when banking with r = 1 ties.
	q, k [2][]float64
}

// tieValue is the value of a tie for each player: a roll-off gives each 1/2;
// a shared win also counts 1/2 so that the game stays zero-sum.
const tieValue = 0.5

// finalRound returns the model's final round, computed once.
func (m *model) finalRound() *finalRound {
	if m.fr == nil {
		m.fr = m.newFinalRound()
	}
	return m.fr
}

// newFinalRound computes the last turn. The last player must bank at least
// max(d+1, bankMin) to win; banking exactly d (when that may be banked) ties.
// The entry minimum never binds: the leader has at least the target, which
// is at least the entry minimum.
func (m *model) newFinalRound() *finalRound {
	D := int32(m.dice)
	// q[tie][r*stride+n]: before throwing n dice needing r more units to win;
	// k[tie][r*stride+left]: after a keep. r <= 0 is a win.
	// The loop ends before rows (finalRoundRows, a bound that holds for
	// every rule set): the arrays are allocated once at that size.
	rows := int32(m.finalRoundRows())
	var q, k [2][]float64
	for tie := range q {
		q[tie] = make([]float64, stride, int(rows+1)*stride)
		k[tie] = make([]float64, stride, int(rows+1)*stride) // r = 0 row: padding
	}
	at := func(s []float64, r int32, j int32) float64 {
		if r <= 0 {
			return 1
		}
		return s[r*stride+j]
	}
	fr := make([]float64, 0, rows)
	for r := int32(1); r < rows; r++ {
		for tie := 0; tie < 2; tie++ {
			q[tie] = append(q[tie], make([]float64, stride)...)
			k[tie] = append(k[tie], make([]float64, stride)...)
			for n := int32(1); n <= D; n++ {
				v := 0.0
				for g := m.optSet.gStart[n]; g < m.optSet.gStart[n+1]; g++ {
					best := 0.0
					for o := m.optSet.oStart[g]; o < m.optSet.oStart[g+1]; o++ {
						best = max(best, at(k[tie], r-m.optSet.oPts[o], m.optSet.oLeft[o]))
					}
					v += m.optSet.gProb[g] * best
				}
				if n == 6 && m.sdn > 0 {
					if r-m.sdn <= 0 {
						v += m.nothing
					} else {
						v += m.nothing * q[tie][(r-m.sdn)*stride+6]
					}
				}
				q[tie][r*stride+n] = v
			}
			for left := int32(0); left < D; left++ {
				v := 0.0
				if tie == 1 && r == 1 {
					v = tieValue
				}
				switch {
				case left > 0:
					v = max(v, q[tie][r*stride+left])
				case m.hot:
					v = max(v, q[tie][r*stride+D])
				}
				k[tie][r*stride+left] = v
			}
		}
		// fr for deficits d whose need is r: need = max(d+1, bankMin)
		for d := int32(len(fr)); ; d++ {
			need := max(d+1, m.bankMin)
			if need > r {
				break
			}
			tie := 0
			if d >= m.bankMin {
				tie = 1
			}
			fr = append(fr, q[tie][need*stride+D])
		}
		if len(fr) > 0 && q[0][r*stride+D] < frCap/10 && r > m.bankMin+m.maxPts {
			break
		}
	}
	// trim the tail below frCap
	for len(fr) > 1 && fr[len(fr)-1] < frCap {
		fr = fr[:len(fr)-1]
	}
	sup := make([]float64, len(fr))
	s := 0.0
	for d := len(fr) - 1; d >= 0; d-- {
		s = max(s, fr[d])
		sup[d] = s
	}
	return &finalRound{fr: fr, sup: sup, q: q, k: k}
}

// at returns the last player's win probability d units behind.
func (f *finalRound) at(d int32) float64 {
	if int(d) >= len(f.fr) {
		return 0
	}
	return f.fr[d]
}

// lastTurn returns the after-keep (dice >= 0 left, throw = false) or
// before-throw (throw = true, dice thrown) value of the last player of a final
// round who needs r more units to win; tie says whether banking one unit
// short ties. Beyond the computed needs the value is below frCap: 0.
func (f *finalRound) lastTurn(m *model, r int32, tie bool, dice int, throw bool) float64 {
	if r <= 0 {
		if throw { // the win is in hand; throwing again risks only a farkle
			return 1 - m.farkle[dice]
		}
		return 1
	}
	i := 0
	if tie {
		i = 1
	}
	if int(r)*stride >= len(f.q[i]) {
		return 0
	}
	if throw {
		return f.q[i][int(r)*stride+dice]
	}
	return f.k[i][int(r)*stride+dice]
}
