package solve

// The final round of a three-player game. The player who first banks to the
// target (the trigger, at L) has finished; the next player (p1, at b) has one
// turn, then the one after (p2, at c) has the last. At the end the highest
// score wins; k players tied on top each count 1/k (a roll-off is fair, and
// a shared win counted 1/k keeps the three chances summing to 1).
//
// Only differences matter: p1 is d1 = L-b behind, p2 is d2 = L-c behind.
// A player lx or more behind the score to beat (lx: the length of the
// duel's final-round table, where one turn's chance of making up the
// deficit is below frCap) is taken to lose: the error of any value is at
// most 2*frCap.
//
// A bank minimum (bm units, above one) binds in the final round: a player
// less than bm behind the score to beat must bank at least bm to pass it
// and cannot tie; the first of the final round cannot bank below bm
// either, also where that leaves it below the trigger (it must throw on,
// and a turn that can neither bank nor throw ends with nothing, as a
// farkle does).
type final3 struct {
	lx int32
	bm int32 // the bank minimum in units, at least 1
	// pM: the chance of a turn to reach bm, throwing until it does (the
	// last player's chance to pass when less than bm behind)
	pM float64
	// last[k-1][2*d+i], d = 0..lx: the last player d behind the top score
	// held by k players, playing to maximise its chance (a tie counting
	// 1/(k+1)): i = 0 the chance to pass, i = 1 the chance to tie.
	last [2][]float64
	// mid[d2*lx+d1], 1 <= d1 < lx, 1 <= d2 <= lx (d2 = lx: p2 is out): the
	// chances (trigger, p1, p2) at the start of p1's turn.
	mid []vec4
}

// lastPassTie returns the last player's chances to pass and to tie when d
// behind the top score held by k players.
func (f *final3) lastPassTie(d int32, k int) (pass, tie float64) {
	if d < f.bm {
		return f.pM, 0
	}
	if d >= f.lx {
		return 0, 0
	}
	l := f.last[k-1]
	return l[2*d], l[2*d+1]
}

// endVec returns the chances (top holders share, the last player) when the
// last player is d behind the top score held by k players: each top holder
// gets top, the last player last.
func (f *final3) endVec(d int32, k int) (top, last float64) {
	x, y := f.lastPassTie(d, k)
	kf := float64(k)
	return (1-x-y)/kf + y/(kf+1), x + y/(kf+1)
}

// at returns the chances (trigger, p1, p2) at the start of p1's turn with
// the trigger at L, p1 at b and p2 at c (units, b, c < L).
func (f *final3) at(L, b, c int32) vec4 {
	d1, d2 := L-b, min(L-c, f.lx)
	if d1 >= f.lx {
		top, last := f.endVec(d2, 1)
		return vec4{top, 0, last, 0}
	}
	return f.mid[d2*f.lx+d1]
}

// newFinal3 computes the final-round tables of a model, with every option
// compared at every total if all (threeTest.allOptions).
func (m *model) newFinal3(all bool) *final3 {
	f := m.newLast3()
	lx := f.lx
	f.mid = make([]vec4, int(lx+1)*int(lx))
	d := dp3{allOptions: all}
	for d2 := int32(1); d2 <= lx; d2++ {
		m.midTurn(f, &d, d2)
		bt, bl := f.endVec(d2, 1)
		// by falling d1 (a rising start row): a refill of the rows below
		// the minimum from one start reads only rows above them, which
		// the refills of the starts before have not touched
		for d1 := lx - 1; d1 >= 1; d1-- {
			s := lx - 1 - d1
			m.midBelowMin(f, &d, d1)
			q := d.q[s*stride+int32(m.dice)]
			f.mid[d2*lx+d1] = vec4{q[0] + q[3]*bt, q[1], q[2] + q[3]*bl, 0}
		}
	}
	return f
}

// newLast3 returns the final-round tables of the last player (lastPassTie)
// without the first player's (mid).
func (m *model) newLast3() *final3 {
	lx := int32(len(m.newFinalRound().fr))
	f := &final3{lx: lx, bm: max(m.bankMin, 1)}
	for k := 1; k <= 2; k++ {
		f.last[k-1] = m.lastTurn3(lx, 1/float64(k+1))
	}
	if f.bm > 1 {
		_, q := m.lastTurn3Arrays(max(lx, f.bm), 0, false)
		f.pM = q[f.bm*stride+int32(m.dice)][0]
	}
	return f
}

// midBelowMin fills again the rows of the first player of the final
// round's turn (midTurn) from its start d1 behind the trigger up to the
// bank minimum, where it may not bank; the rows above are the same from
// every start. That is needed only where the minimum reaches the trigger
// (d1 below it): below the trigger a bank is worth nothing to the player
// (it stays below and loses), so it throws there anyway wherever throwing
// is worth anything to it, and where nothing is (it cannot reach the
// trigger at all) every way on ends below the trigger as a bank does, the
// same values up to rounding. Without a bank minimum above one unit there
// is nothing to do.
func (m *model) midBelowMin(f *final3, d *dp3, d1 int32) {
	s := f.lx - 1 - d1
	if f.bm <= 1 || d1 >= f.bm || s < 0 {
		return
	}
	for r := s; r < s+f.bm; r++ {
		d.ok[r] = false
	}
	m.refill3(d, 0, 1, s, s+f.bm)
}

// midTurn fills d with p1's turn against p2 d2 behind the trigger: row
// p+lx-1 for p1 at p relative to the trigger's score, from -(lx-1) up. A
// farkle (coefficient in q[3]) leaves p1 below the trigger.
func (m *model) midTurn(f *final3, d *dp3, d2 int32) {
	lx := f.lx
	off := lx - 1
	pFmin := m.pFmin()
	// top: from here on p2's chance against p1 is at most the least farkle
	// chance of a throw, so p1 banks (throwing is worth at most 1-pF).
	pTop := int32(1)
	for ; pTop < lx; pTop++ {
		if _, last := f.endVec(d2+pTop, 1); last <= pFmin {
			break
		}
	}
	// the rows below a bank minimum (midBelowMin) are below the top
	pTop = max(pTop, f.bm)
	top := pTop + off
	d.top = top
	d.resize(top + m.maxPts + m.sdn + 2)
	bt, bl := f.endVec(d2, 1)
	below := vec4{bt, 0, bl, 0}
	for r := int32(0); r < d.rows; r++ {
		p := r - off
		d.ok[r] = true
		switch {
		case p < 0:
			d.bank[r] = below
		case p == 0:
			top, last := f.endVec(d2, 2)
			d.bank[r] = vec4{top, top, last, 0}
		default:
			top, last := f.endVec(d2+p, 1)
			d.bank[r] = vec4{0, top, last, 0}
		}
	}
	m.fill3(d, 0, 1)
}

// lastTurn3 returns the last player's chances to pass and tie, by deficit
// d = 0..lx (2*d, 2*d+1), playing to maximise pass + tau*tie.
func (m *model) lastTurn3(lx int32, tau float64) []float64 {
	_, q := m.lastTurn3Arrays(lx, tau, true)
	D := int32(m.dice)
	out := make([]float64, 2*(lx+1))
	for d := int32(1); d <= lx; d++ {
		v := q[(d+1)*stride+D]
		out[2*d], out[2*d+1] = v[0], v[1]
	}
	return out
}

// lastTurn3Arrays returns the last player's chances (pass, tie) after a
// keep (k) and before a throw (q), at r*stride+j for r = 1..lx+1 units
// still needed to pass (r = d+1 at the start): banking at r = 1 ties if
// tie, else (the score to beat is below the bank minimum, which the
// player needs) it is not allowed.
func (m *model) lastTurn3Arrays(lx int32, tau float64, tie bool) (k, q [][2]float64) {
	D := int32(m.dice)
	R := lx + 2
	k = make([][2]float64, int(R)*stride)
	q = make([][2]float64, int(R)*stride)
	at := func(s [][2]float64, r, j int32) [2]float64 {
		if r <= 0 {
			return [2]float64{1, 0}
		}
		return s[r*stride+j]
	}
	os := &m.optSet
	for r := int32(1); r < R; r++ {
		for n := int32(1); n <= D; n++ {
			var acc [2]float64
			for g := os.gStart[n]; g < os.gStart[n+1]; g++ {
				best := [2]float64{}
				bo := -1.0
				for oi := os.oStart[g]; oi < os.oStart[g+1]; oi++ {
					v := at(k, r-os.oPts[oi], os.oLeft[oi])
					if o := v[0] + tau*v[1]; o > bo {
						best, bo = v, o
					}
				}
				acc[0] += os.gProb[g] * best[0]
				acc[1] += os.gProb[g] * best[1]
			}
			if n == 6 && m.sdn > 0 {
				v := at(q, r-m.sdn, 6)
				acc[0] += m.nothing * v[0]
				acc[1] += m.nothing * v[1]
			}
			q[r*stride+n] = acc
		}
		for left := int32(0); left < D; left++ {
			j := left
			if left == 0 {
				j = -1
				if m.hot {
					j = D
				}
			}
			var v [2]float64
			if r == 1 && tie {
				v = [2]float64{0, 1}
			}
			if j > 0 {
				if w := q[r*stride+j]; w[0]+tau*w[1] > v[0]+tau*v[1] {
					v = w
				}
			}
			k[r*stride+left] = v
		}
	}
	return k, q
}
