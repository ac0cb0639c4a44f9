package dragon

import (
	"github.com/farkle/farkle/dice"
)

// BattleOdds is the exact probability of winning a Final Battle — slaying
// the dragon before the battle ends — for every number of soldiers up to a
// maximum, every damage the dragon has taken and every number of dice to
// throw, when the player keeps, after every throw, the affordable keep that
// maximises that probability.
//
// The model is the battle of RULES-DECISIONS.md 13-21 without cards: in the army
// battle each throw first costs the wave (without it the battle ends); each
// throw draws the event die (a Rally deals RallyDamage, the Dragon DragonDamage;
// reaching DragonHealth wins at once, before anything is paid); a throw with
// scoring dice must keep and pay for one of them (no affordable keep loses
// the battle); a throw without scoring dice that wounded the dragon is
// thrown again with the same dice, one that did not wound ends the classic
// battle and costs the dragon's fire in the army battle (six dice are then
// thrown); hot dice bring all six back. A retreat is valued 0 (it does not win this battle) and so is
// never chosen: Value is the pure probability of winning this battle. (The
// soldiers a retreat keeps are worth something in the game; the bot weighs
// that, the table does not.) Of keeps with equal value the cheapest is
// chosen.
//
// The dynamic program runs over soldiers (in units of the greatest common
// divisor of the meld values, 50 in the soldier table), damage 0..health-1
// and dice 1..6; every transition either pays (fewer soldiers) or wounds
// (more damage), so one pass in that order is exact.
type BattleOdds struct {
	table             *dice.Table
	step              int
	units             int // soldiers up to units*step
	health            int
	rallyDmg, dragDmg int
	army              bool
	wave, fire        int            // units: the army battle's wave and fire
	v                 []float64      // [(u*health+d)*7+n]: P(win)
	loss              []float64      // same index: expected soldiers lost (paid or forfeited) under the policy
	throws            [7][]oddsThrow // the throws with a keep, by dice thrown
	pNoKeep           [7]float64     // P(a throw without scoring dice), by dice thrown (dice.Table.Odds)
}

type oddsThrow struct {
	hand  dice.Hand
	p     float64
	keeps []oddsKeep // sorted by cost ascending
}

type oddsKeep struct {
	hand  dice.Hand
	cost  int // units
	left  int // dice to throw next (6 after hot dice)
	index int // into table.Keeps(hand)
}

// DefaultOddsMax is the largest number of soldiers OddsTable and the bots
// tabulate; more soldiers are valued as this many.
const DefaultOddsMax = 20000

// NewBattleOdds solves the battle for r up to maxSoldiers soldiers.
func NewBattleOdds(r Rules, maxSoldiers int) *BattleOdds {
	t := dice.NewTable(r.Soldiers)
	step := 0
	for _, m := range t.Melds() {
		step = gcd(step, m.Points)
	}
	if r.Army() {
		step = gcd(gcd(step, r.BattleWave), r.BattleFire)
	}
	if step == 0 {
		step = 1
	}
	o := &BattleOdds{
		table: t, step: step, units: max(0, maxSoldiers) / step,
		health: r.DragonHealth, rallyDmg: r.RallyDamage, dragDmg: r.DragonDamage,
	}
	if r.Army() {
		o.army, o.wave, o.fire = true, r.BattleWave/step, r.BattleFire/step
	}
	for n := 1; n <= 6; n++ {
		o.pNoKeep[n] = t.Odds(n).PNoKeep()
		for _, h := range dice.Throws(n) {
			if t.Farkle(h) {
				continue // counted in pNoKeep
			}
			ot := oddsThrow{hand: h, p: h.Prob()}
			for i, k := range t.Keeps(h) {
				left := n - k.Hand.N()
				if left == 0 {
					left = 6
				}
				ot.keeps = append(ot.keeps, oddsKeep{hand: k.Hand, cost: int(k.Points) / step, left: left, index: i})
			}
			sortKeepsByCost(ot.keeps)
			o.throws[n] = append(o.throws[n], ot)
		}
	}
	o.solve()
	return o
}

func sortKeepsByCost(ks []oddsKeep) {
	// insertion sort: stable, and the lists are short
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j].cost < ks[j-1].cost; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (o *BattleOdds) at(u, d, n int) float64 { return o.v[(u*o.health+d)*7+n] }

func (o *BattleOdds) solve() {
	H := o.health
	o.v = make([]float64, (o.units+1)*H*7)
	o.loss = make([]float64, (o.units+1)*H*7)
	events := [3]struct {
		p   float64
		dmg int
	}{{4.0 / 6, 0}, {1.0 / 6, o.rallyDmg}, {1.0 / 6, o.dragDmg}}
	for u := 0; u <= o.units; u++ {
		for d := H - 1; d >= 0; d-- {
			for n := 1; n <= 6; n++ {
				val, loss := 0.0, 0.0
				u1, paid := u, 0.0
				if o.army {
					// The wave is sent before the throw; without it the
					// player cannot throw (the battle ends, not won).
					if u < o.wave {
						continue
					}
					u1, paid = u-o.wave, float64(o.wave*o.step)
				}
				for _, e := range events {
					d2 := d + e.dmg
					if d2 >= H {
						val += e.p
						loss += e.p * paid
						continue
					}
					tv, tl := o.throwValue(u1, d2, n, e.dmg > 0)
					val += e.p * tv
					loss += e.p * (paid + tl)
				}
				o.v[(u*H+d)*7+n] = val
				o.loss[(u*H+d)*7+n] = loss
			}
		}
	}
}

// throwValue is the value (and expected soldiers lost) of throwing n dice
// with u units of soldiers when the dragon has d damage after this throw's
// event die.
func (o *BattleOdds) throwValue(u, d, n int, wounded bool) (float64, float64) {
	sum, loss := 0.0, 0.0
	for i := range o.throws[n] {
		t := &o.throws[n][i]
		k, best, ok := o.bestKeep(t, u, d)
		var l float64
		if ok {
			l = float64(k.cost*o.step) + o.loss[((u-k.cost)*o.health+d)*7+k.left]
		} else { // cannot pay: the battle is lost with every soldier left
			best, l = 0, float64(u*o.step)
		}
		sum += t.p * best
		loss += t.p * l
	}
	// A throw without scoring dice.
	var best, l float64
	switch {
	case wounded:
		best, l = o.at(u, d, n), o.loss[(u*o.health+d)*7+n]
	case o.army:
		// The dragon's fire, then six dice again.
		burn := min(o.fire, u)
		best = o.at(u-burn, d, 6)
		l = float64(burn*o.step) + o.loss[((u-burn)*o.health+d)*7+6]
	}
	sum += o.pNoKeep[n] * best
	loss += o.pNoKeep[n] * l
	return sum, loss
}

// bestKeep returns the affordable keep of t with the highest value (the
// cheapest among equals) and that value; ok is false if none is affordable.
func (o *BattleOdds) bestKeep(t *oddsThrow, u, d int) (oddsKeep, float64, bool) {
	var best oddsKeep
	bv, ok := -1.0, false
	for _, k := range t.keeps {
		if k.cost > u {
			break
		}
		if v := o.at(u-k.cost, d, k.left); v > bv+1e-12 {
			best, bv, ok = k, v, true
		}
	}
	return best, bv, ok
}

func (o *BattleOdds) units0(soldiers int) int {
	return min(max(soldiers, 0)/o.step, o.units)
}

// Max returns the most soldiers the table distinguishes.
func (o *BattleOdds) Max() int { return o.units * o.step }

// Win returns the probability of winning a Final Battle started with the
// given soldiers (the dragon unhurt, six dice).
func (o *BattleOdds) Win(soldiers int) float64 { return o.Value(soldiers, 0, 6) }

// Value returns the probability of winning the battle from a position
// between throws: soldiers left, the dragon's damage (0..health-1) and dice
// to throw (1..6). Soldiers above Max count as Max.
func (o *BattleOdds) Value(soldiers, damage, n int) float64 {
	if damage >= o.health {
		return 1
	}
	return o.at(o.units0(soldiers), max(damage, 0), n)
}

// ExpectedLoss returns the soldiers a battle started with the given
// soldiers costs on average under the odds' policy (paid for keeps, or
// forfeited when a keep cannot be paid), whether it is won or not. Soldiers
// above Max count as Max.
func (o *BattleOdds) ExpectedLoss(soldiers int) float64 {
	return o.loss[(o.units0(soldiers)*o.health)*7+6]
}

// Choose returns the best keep of a battle throw: soldiers are what the
// player has, damage is the dragon's damage after this throw's event die.
// ok is false when no keep is affordable (or the throw is a farkle). value
// is the probability of winning after that keep.
func (o *BattleOdds) Choose(soldiers, damage int, throw dice.Hand) (keep dice.Hand, value float64, ok bool) {
	n := throw.N()
	if n < 1 || n > 6 || damage >= o.health {
		return 0, 0, false
	}
	var t *oddsThrow
	for i := range o.throws[n] {
		if o.throws[n][i].hand == throw {
			t = &o.throws[n][i]
			break
		}
	}
	if t == nil { // no scoring dice
		return 0, 0, false
	}
	k, v, ok := o.bestKeep(t, o.units0(soldiers), damage)
	return k.hand, v, ok
}

// OddsRow is one row of the battle odds table.
type OddsRow struct {
	Soldiers     int     `json:"soldiers"`
	PWin         float64 `json:"p_win"`
	ExpectedLoss float64 `json:"expected_loss"` // soldiers the battle costs on average
}

// OddsTable returns P(win the Final Battle) for r by soldiers brought, in
// steps of 500: from 500 to 15,000 with the classic battle (the curve below
// r.BattleMinimum shows what a cheaper rule would give), and from
// r.BattleMinimum (at least 500) to 20,000 with the army battle, where
// fewer soldiers than a few waves cannot win.
func OddsTable(r Rules) []OddsRow {
	from, to := 500, 15000
	if r.Army() {
		from, to = max(500, r.BattleMinimum-r.BattleMinimum%500), 20000
	}
	o := NewBattleOdds(r, to)
	var rows []OddsRow
	for s := from; s <= to; s += 500 {
		rows = append(rows, OddsRow{Soldiers: s, PWin: o.Win(s), ExpectedLoss: o.ExpectedLoss(s)})
	}
	return rows
}
