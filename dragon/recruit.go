package dragon

import (
	"github.com/farkle/farkle/dice"
)

// recruitPlan is the expected-soldiers-maximising recruiting policy (no
// cards; an item drawn on a Rally counted as itemValue soldiers added to the
// pool, which a farkle loses like the pool): V(pool, n) is the expected
// soldiers banked from a pool with n dice to throw, when the player may
// stop. Pools at or above cap are banked. The same pool recurs only
// through a Dragon (forced keep or evaded farkle), solved by iteration to a
// fixed point per pool.
type recruitPlan struct {
	table     *dice.Table
	step      int
	capUnits  int
	itemUnits int
	v         [][7]float64 // [pool units][n]: max(pool, cont)
	cont      [][7]float64 // value of throwing on
}

func newRecruitPlan(t *dice.Table, step, capSoldiers, itemValue int) *recruitPlan {
	p := &recruitPlan{table: t, step: step, capUnits: capSoldiers / step, itemUnits: itemValue / step}
	p.v = make([][7]float64, p.capUnits+1)
	p.cont = make([][7]float64, p.capUnits+1)
	type kp struct {
		units, left int
	}
	type th struct {
		p      float64
		farkle bool
		keeps  []kp
		all    kp // every scoring die (the Dragon's forced keep)
	}
	var throws [7][]th
	var pf [7]float64 // P(no scoring dice) by dice thrown
	for n := 1; n <= 6; n++ {
		pf[n] = t.Odds(n).PNoKeep()
		for _, h := range dice.Throws(n) {
			x := th{p: h.Prob(), farkle: t.Farkle(h)}
			for _, k := range t.Keeps(h) {
				left := n - k.Hand.N()
				if left == 0 {
					left = 6
				}
				x.keeps = append(x.keeps, kp{int(k.Points) / step, left})
			}
			if !x.farkle {
				x.all = x.keeps[len(x.keeps)-1]
			}
			throws[n] = append(throws[n], x)
		}
	}
	for u := p.capUnits; u >= 0; u-- {
		pool := float64(u * step)
		// fixed: the Blank and Rally parts (they only reach larger pools).
		var fixed [7]float64
		for n := 1; n <= 6; n++ {
			for _, x := range throws[n] {
				if x.farkle {
					continue
				}
				bestB, bestR := 0.0, 0.0
				for _, k := range x.keeps {
					bestB = max(bestB, p.val(u+k.units, k.left))
					bestR = max(bestR, p.val(u+2*k.units, k.left), p.val(u+k.units+p.itemUnits, k.left))
				}
				fixed[n] += x.p * (4.0/6*bestB + 1.0/6*bestR)
			}
		}
		// iterate the Dragon part, which may stay at this pool.
		for n := 1; n <= 6; n++ {
			p.v[u][n] = pool
		}
		for iter := 0; iter < 100; iter++ {
			change := 0.0
			for n := 1; n <= 6; n++ {
				dragon := pf[n] * p.v[u][n] // evaded: go on or stop
				for _, x := range throws[n] {
					if !x.farkle {
						dragon += x.p * p.val(u+0, x.all.left)
					}
				}
				c := fixed[n] + dragon/6
				nv := max(pool, c)
				change = max(change, nv-p.v[u][n])
				p.cont[u][n], p.v[u][n] = c, nv
			}
			if change < 1e-9 {
				break
			}
		}
	}
	return p
}

func (p *recruitPlan) val(u, n int) float64 {
	if u > p.capUnits {
		return float64(u * p.step)
	}
	return p.v[u][n]
}

// stop reports whether banking pool is at least as good as throwing n dice.
func (p *recruitPlan) stop(pool, n int) bool {
	u := pool / p.step
	if u >= p.capUnits {
		return true
	}
	return p.cont[u][n] <= float64(u*p.step)
}

// choose returns the best keep (and reward on a Rally) of a recruiting
// throw with pool soldiers already in the pool and n dice thrown.
func (p *recruitPlan) choose(pool int, throw dice.Hand, event EventFace) (dice.Hand, Reward) {
	n := throw.N()
	u := pool / p.step
	var best dice.Hand
	bestV, bestR := -1.0, NoReward
	for _, k := range p.table.Keeps(throw) {
		left := n - k.Hand.N()
		if left == 0 {
			left = 6
		}
		ku := int(k.Points) / p.step
		switch event {
		case Rally:
			if v := p.val(u+2*ku, left); v > bestV {
				best, bestV, bestR = k.Hand, v, Double
			}
			if v := p.val(u+ku+p.itemUnits, left); v > bestV {
				best, bestV, bestR = k.Hand, v, DrawItem
			}
		default:
			if v := p.val(u+ku, left); v > bestV {
				best, bestV = k.Hand, v
			}
		}
	}
	return best, bestR
}

// expected returns the expected soldiers of a whole recruiting turn.
func (p *recruitPlan) expected() float64 { return p.cont[0][6] }
