package dragon

import "slices"

// Advice is the value of one legal action as the Smart bot reckons it,
// for hints in the front ends.
type Advice struct {
	Action Action  `json:"action"`
	Value  float64 `json:"value"`
	// Unit: "p_win" is the probability of winning the Final Battle now;
	// "soldiers" is the expected soldiers banked this turn (recruiting),
	// the net expected gain against the opponents (a brawl), or, on a brawl
	// throw, the brawl's expected worth to the seat.
	Unit string `json:"unit"`
	// Then is what the Smart bot's plan does after a keep: ThenStop (bank
	// the pool) or ThenThrow (throw on; always in the Final Battle); ""
	// for other actions.
	Then string `json:"then,omitempty"`
}

// What a keep's advice plans next.
const (
	ThenStop  = "stop"
	ThenThrow = "throw"
)

// Units of Advice.
const (
	UnitPWin     = "p_win"
	UnitSoldiers = "soldiers"
)

// Advise returns a value for each legal action of v that the bots' tables
// can value (uses of cards on recruiting and battle throws, discards,
// hires and dismissals are left out), in the order of v.Legal. At the
// start of a turn where the seat may attack, recruiting, brawls and the
// attack are valued in one unit, the chance to win at the next battle
// (nextbattle.go); before that recruiting and brawls are valued in
// soldiers. A keep says what the plan does after it (Then). On a brawl
// throw, a card use and Pass are valued by the brawl's expected worth in
// soldiers (what the seat would take with the bonus, or lose), before what
// an item is worth. Card effects are not counted; see BattleOdds and Bot for the
// models.
func (b *Brains) Advise(v View) []Advice {
	if len(v.Legal) == 0 {
		return nil
	}
	me := v.Players[v.Seat]
	var out []Advice
	add := func(a Action, val float64, unit string) { out = append(out, Advice{Action: a, Value: val, Unit: unit}) }
	keep := func(a Action, val float64, unit, then string) {
		out = append(out, Advice{Action: a, Value: val, Unit: unit, Then: then})
	}
	next := nextBattle{b: b, v: v, need: b.g.battleNeeds()}
	mayAttack := v.Phase == PhaseChoose && slices.ContainsFunc(v.Legal, func(a Action) bool { return a.Kind == ActBattle })
	for _, a := range v.Legal {
		switch {
		case mayAttack && a.Kind == ActRecruit:
			add(a, next.recruit(), UnitPWin)
		case mayAttack && a.Kind == ActBrawl:
			add(a, next.brawl(a.Target), UnitPWin)
		case a.Kind == ActRecruit:
			add(a, b.plan.expected(), UnitSoldiers)
		case a.Kind == ActBrawl:
			_, _, gain, theirs := b.BrawlOdds(v, v.Seat, a.Target)
			add(a, gain-theirs/float64(len(v.Players)-1), UnitSoldiers)
		case a.Kind == ActBattle:
			add(a, next.attack(), UnitPWin)
		case a.Kind == ActKeep && v.Mode == Battling:
			pts, _ := b.g.table.Points(a.Keep)
			keep(a, b.odds.Value(me.Soldiers-pts, v.Damage, leftAfter(v.Dice, a.Keep.N())), UnitPWin, ThenThrow)
		case a.Kind == ActKeep:
			pts, _ := b.g.table.Points(a.Keep)
			u, ku, left := v.Pool/b.plan.step, pts/b.plan.step, leftAfter(v.Dice, a.Keep.N())
			switch {
			case v.Event == Dragon:
				ku = 0
			case a.Reward == Double:
				ku *= 2
			case a.Reward == DrawItem:
				ku += b.plan.itemUnits
			}
			keep(a, b.plan.val(u+ku, left), UnitSoldiers, b.thenAfter(v, a, pts, left))
		case a.Kind == ActAccept && v.Mode == Battling:
			add(a, 0, UnitPWin)
		case a.Kind == ActAccept:
			add(a, 0, UnitSoldiers)
		case a.Kind == ActStop:
			add(a, float64(v.Pool), UnitSoldiers)
		case a.Kind == ActRoll && v.Mode == Battling:
			add(a, b.odds.Value(me.Soldiers, v.Damage, v.Dice), UnitPWin)
		case a.Kind == ActRoll:
			u := v.Pool / b.plan.step
			if u >= b.plan.capUnits {
				add(a, float64(v.Pool), UnitSoldiers) // beyond the plan: no better than stopping
			} else {
				add(a, b.plan.cont[u][v.Dice], UnitSoldiers)
			}
		case a.Kind == ActRetreat:
			add(a, 0, UnitPWin)
		case v.Phase == PhaseBrawl && a.Kind == ActUse:
			add(a, b.useValue(v, a), UnitSoldiers)
		case a.Kind == ActPass:
			add(a, b.scoreValue(v, v.BrawlScore), UnitSoldiers)
		}
	}
	return out
}

// thenAfter is what the Smart bot does after keep a (worth pts) of a
// recruiting throw of v with left dice to throw next: it stops when the
// pool then lifts its soldiers to the battle minimum, else as the plan
// says (Bot.recruitOn).
func (b *Brains) thenAfter(v View, a Action, pts, left int) string {
	pool := v.Pool
	switch {
	case v.Event == Dragon:
	case a.Reward == Double:
		pool += 2 * pts
	default:
		pool += pts
	}
	have, need := v.Players[v.Seat].Soldiers, b.g.rules.BattleMinimum
	if (have < need && have+pool >= need) || b.plan.stop(pool, left) {
		return ThenStop
	}
	return ThenThrow
}

// leftAfter returns the dice to throw after keeping k of n (hot dice: 6).
func leftAfter(n, k int) int {
	if n == k {
		return 6
	}
	return n - k
}

// OneUnit reports whether every advice has the same unit: only then is
// one of them best.
func OneUnit(adv []Advice) bool {
	for _, a := range adv {
		if a.Unit != adv[0].Unit {
			return false
		}
	}
	return true
}
