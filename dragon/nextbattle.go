package dragon

import (
	"github.com/farkle/farkle/dice"
)

// The turn's choice in one measure. Once the player to act may attack the
// dragon, recruiting, brawling and attacking are compared in one measure,
// the chance to win at the next battle: the chance that the player slays
// the dragon in the battle it starts now, or, for recruiting and a brawl,
// in the battle it starts at its next turn with the soldiers this turn
// leaves it, while no opponent who may attack in between (one at the battle
// minimum or above after this turn) slays it first. Cards are not counted,
// nor a failed battle's survivors, nor an opponent's brawl in between; an
// opponent at the minimum is taken to attack, and one below it cannot
// before the player's next turn. A brawl that leaves the player below the
// minimum counts as no chance at the next battle.

// recruitDist returns the distribution of the soldiers a recruiting turn
// banks, started with an empty pool and six dice, played as the Smart bot
// plays it without cards (the plan's keeps, Rally rewards and stops; an
// item drawn counts for the plan's choices but banks no soldiers): out[u]
// is the probability of banking u*step soldiers. With itemBanks an item
// banks its worth to the plan as soldiers, as the plan reckons it.
func (p *recruitPlan) recruitDist(itemBanks bool) []float64 {
	t := p.table
	maxKeep := 0
	for _, h := range dice.Throws(6) {
		maxKeep = max(maxKeep, t.Best(h))
	}
	top := p.capUnits + 2*maxKeep/p.step + 1 // above any pool a keep reaches
	out := make([]float64, top+1)
	// pending[u][n]: the probability of standing at pool u with n dice to
	// throw, before the bot's stop-or-throw decision.
	pending := make([][7]float64, top+1)
	pending[0][6] = 1
	after := func(u int, k dice.Keep, n int) (int, int) {
		left := n - k.Hand.N()
		if left == 0 {
			left = 6
		}
		return u + int(k.Points)/p.step, left
	}
	for u := 0; u <= top; u++ {
		for range 100000 {
			moved := 0.0
			for n := 1; n <= 6; n++ {
				m := pending[u][n]
				if m == 0 {
					continue
				}
				pending[u][n] = 0
				moved += m
				if p.stop(u*p.step, n) {
					out[u] += m
					continue
				}
				pf := t.Odds(n).PNoKeep()
				out[0] += m * pf * 5 / 6    // a farkle on a Blank or a Rally loses the pool
				pending[u][n] += m * pf / 6 // the Dragon on a farkle: evaded, same dice
				for _, h := range dice.Throws(n) {
					keeps := t.Keeps(h)
					if len(keeps) == 0 {
						continue
					}
					ph := m * h.Prob()
					pick := func(k dice.Hand) dice.Keep {
						for _, x := range keeps {
							if x.Hand == k {
								return x
							}
						}
						panic("dragon: the plan chose a keep the table does not have")
					}
					k, _ := p.choose(u*p.step, h, Blank)
					u1, l1 := after(u, pick(k), n)
					pending[u1][l1] += ph * 4 / 6
					k, r := p.choose(u*p.step, h, Rally)
					kk := pick(k)
					u1, l1 = after(u, kk, n)
					switch {
					case r == Double:
						u1 += int(kk.Points) / p.step
					case itemBanks:
						u1 += p.itemUnits
					}
					pending[u1][l1] += ph / 6
					all := keeps[len(keeps)-1] // the Dragon eats every scoring die
					_, l1 = after(u, all, n)
					pending[u][l1] += ph / 6
				}
			}
			if moved < 1e-14 {
				break
			}
		}
	}
	return out
}

// nextBattle values the turn's choices of v's seat (v in PhaseChoose) in
// the chance to win at the next battle (see above): attack, recruit and
// brawl target.
type nextBattle struct {
	b    *Brains
	v    View
	need int
}

// survive returns the chance that no opponent of the seat with the given
// soldiers (by seat) slays the dragon before the seat's next turn.
func (n nextBattle) survive(soldiers func(i int) int) float64 {
	p := 1.0
	for i := range n.v.Players {
		if s := soldiers(i); i != n.v.Seat && s >= n.need {
			p *= 1 - n.b.odds.Win(s)
		}
	}
	return p
}

func (n nextBattle) now(i int) int { return n.v.Players[i].Soldiers }

// attack is the chance to slay the dragon in a battle started now.
func (n nextBattle) attack() float64 { return n.b.odds.Win(n.now(n.v.Seat)) }

// recruit is the chance to win at the battle started next turn after a
// recruiting turn now.
func (n nextBattle) recruit() float64 {
	me, w := n.now(n.v.Seat), 0.0
	for u, p := range n.b.recruitDist() {
		if p > 0 {
			w += p * n.b.odds.Win(me+u*n.b.plan.step)
		}
	}
	return w * n.survive(n.now)
}

// brawl is the chance to win at the battle started next turn after
// brawling target now.
func (n nextBattle) brawl(target int) float64 {
	seat := n.v.Seat
	mine, theirs := n.now(seat), n.now(target)
	bonus := n.b.g.rules.BrawlBonus
	w := 0.0
	for _, c := range n.b.challenge {
		for _, d := range n.b.defend {
			me, them := mine, theirs
			switch {
			case c.points > d.points:
				take := min(c.points-d.points, theirs)
				me, them = mine+take+bonus, theirs-take
			case d.points > c.points:
				take := min(d.points-c.points, mine)
				me, them = mine-take, theirs+take+bonus
			}
			if me < n.need {
				continue
			}
			w += c.p * d.p * n.b.odds.Win(me) * n.survive(func(i int) int {
				if i == target {
					return them
				}
				return n.now(i)
			})
		}
	}
	return w
}
