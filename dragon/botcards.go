package dragon

import (
	"slices"

	"github.com/farkle/farkle/dice"
)

// This file is how the bots use the cards off the recruiting and battle
// throws: a card on their own Brawl throw (as challenger or defender) and
// hiring a Companion (RULES-DECISIONS.md 34).

// brawlValue is what a brawl ending with the scores mine and theirs is
// worth to a side in soldiers: what it takes and the winner's bonus, or
// what it loses (no cards counted).
func (b *Brains) brawlValue(mine, theirs, mySoldiers, theirSoldiers int) float64 {
	switch {
	case mine > theirs:
		return float64(min(mine-theirs, theirSoldiers) + b.g.rules.BrawlBonus)
	case theirs > mine:
		return -float64(min(theirs-mine, mySoldiers))
	}
	return 0
}

// scoreValue is what a score on the bot's brawl throw is worth: against
// the challenger's settled score when the bot defends, else against the
// distribution of the defender's throw.
func (b *Brains) scoreValue(v View, score int) float64 {
	me := v.Players[v.Seat].Soldiers
	if v.Brawl.Defending {
		them := v.Players[v.Turn].Soldiers
		return b.brawlValue(score, v.Brawl.Score, me, them)
	}
	them := v.Players[v.Brawl.Defender].Soldiers
	val := 0.0
	for _, d := range b.defend {
		val += d.p * b.brawlValue(score, d.points, me, them)
	}
	return val
}

// useValue is the expected worth of the brawl after using card action a on
// the throw on the table.
func (b *Brains) useValue(v View, a Action) float64 {
	t := b.g.table
	score := func(h dice.Hand, f EventFace) float64 { return b.scoreValue(v, brawlPoints(t.Best(h), f)) }
	switch b.primitive(a.Card) {
	case Rethrow:
		rest, val := v.Throw.Minus(dice.Single(a.Face, 1)), 0.0
		for f := 1; f <= 6; f++ {
			val += score(rest.Plus(dice.Single(f, 1)), v.Event) / 6
		}
		return val
	case TwoAsFive:
		return score(v.Throw.Minus(dice.Single(2, 1)).Plus(dice.Single(5, 1)), v.Event)
	case IgnoreDragon:
		return score(v.Throw, Blank)
	case RerollFarkle:
		val := 0.0
		for _, sp := range brawlDist(t, v.Throw.N()) {
			val += sp.p * b.scoreValue(v, sp.points)
		}
		return val
	}
	return score(v.Throw, v.Event)
}

// primitive is the active primitive of card id ("" if none).
func (b *Brains) primitive(id string) Primitive {
	if c := b.g.cards.Card(id); c != nil {
		if e, ok := c.Active(); ok {
			return e.Primitive
		}
	}
	return ""
}

// chooseBrawlCard picks a card for the bot's brawl throw, or Pass. The
// Smart bot uses the card that raises the brawl's expected worth most, when
// that gain beats what the card is worth (ItemValue for a Magic Item, which
// is used up; nothing for a Companion, which is ready again next turn).
// The Simple bot uses only what cannot hurt: a card that turns a Dragon or
// a farkle into a score, or a 2 into a 5 that scores more.
func (b *Bot) chooseBrawlCard(v View) Action {
	now := b.brains.scoreValue(v, v.BrawlScore)
	best, bestGain := Pass(), 0.0
	for _, a := range v.Legal {
		if a.Kind != ActUse {
			continue
		}
		if b.Level == Simple {
			p := b.primitive(a.Card)
			if p == Rethrow {
				continue // a new die may score less
			}
			if b.brains.useValue(v, a) > now {
				return a
			}
			continue
		}
		gain := b.brains.useValue(v, a) - now
		if b.isItem(a.Card) {
			gain -= ItemValue
		}
		if gain > bestGain {
			best, bestGain = a, gain
		}
	}
	return best
}

func (b *Bot) isItem(id string) bool {
	c := b.brains.g.cards.Card(id)
	return c != nil && c.Kind == Item
}

// CompanionWorth is what the Smart bot reckons a Companion worth, in
// soldiers held at the start of a game that would win as often. Each
// effect counts by its primitive, per unit of n for the passive ones,
// from the measured worth of the default Companions (RULES-DECISIONS.md
// 34: two Smart bots, one holding the Companion, the other none, against
// a start of 500 or 2,000 soldiers more); primitives no default Companion
// has are reckoned beside the nearest one.
func CompanionWorth(c *Card) float64 {
	if c == nil {
		return 0
	}
	w := 0.0
	for _, e := range c.Effects {
		switch e.Primitive {
		case MeldBonus:
			w += float64(e.N) * meldWorth[e.Meld]
		case Rethrow:
			w += 2000 // Pip the Squire
		case TwoAsFive:
			w += 1700 // Grubb
		case IgnoreDragon:
			w += 650 // Old Marta
		case RerollFarkle:
			w += 1500 // as a rethrow of every die, only after a farkle
		case RallyDamage:
			w += 1300 * float64(e.N) // Sergeant Hask
		case BrawlGuard:
			w += 3 * float64(e.N) // Lady Wren: 1,250 for 400
		case BrawlBonus:
			w += 1.7 * float64(e.N) // Brutus: 520 for 300
		case BattleDiscount:
			w += 4 * float64(e.N) // Mother Hen: 200 for 50
		case ExtraItem:
			w += 300 * float64(e.N) // Bellow
		case HoldItems:
			w += 100 * float64(e.N)
		}
	}
	return w
}

// meldWorth is the worth of a meld_bonus per soldier of n, by meld:
// Brother Fennel (kind, 100) is worth about 550, Tinker Quill (straight
// and three pairs, 300 each) about 170; singles are kept about three
// times as often as three of a kind.
var meldWorth = map[string]float64{"single": 16, "kind": 5.5, "three_pairs": 0.3, "straight": 0.3,
	"small_straight": 0.5, "four_kind_pair": 0.3, "two_triplets": 0.3}

// hireGain is the Smart bot's reckoning of a hire now: the mean worth of
// the better of its own Companion and the one it may draw, over its own,
// times the share of a whole game's recruiting still ahead of it; less the
// cost.
func (b *Bot) hireGain(v View) float64 {
	cs := b.brains.g.cards
	mine := v.Players[v.Seat]
	own := 0.0
	if mine.Companion != nil {
		own = CompanionWorth(cs.Card(mine.Companion.ID))
	}
	// The Companions it may draw: the deck is what no one holds and the
	// discard pile does not show; an empty deck is the discard reshuffled.
	var pool []string
	if v.CompanionDeck == 0 {
		for _, c := range v.CompanionDiscard {
			pool = append(pool, c.ID)
		}
	} else {
		out := map[string]bool{}
		for _, p := range v.Players {
			if p.Companion != nil {
				out[p.Companion.ID] = true
			}
		}
		for _, c := range v.CompanionDiscard {
			out[c.ID] = true
		}
		for _, c := range cs.Companions {
			if !out[c.ID] {
				pool = append(pool, c.ID)
			}
		}
	}
	if len(pool) == 0 {
		return -1
	}
	mean := 0.0
	for _, id := range pool {
		// A worse draw is dismissed: the hire is worth the better of the two.
		mean += max(CompanionWorth(cs.Card(id)), own) / float64(len(pool))
	}
	per := b.brains.plan.expected()
	all := float64(b.brains.g.battleNeeds()) / per
	left := float64(max(0, b.brains.g.battleNeeds()-mine.Soldiers+v.HireCost)) / per
	return (mean-own)*min(1, left/all) - float64(v.HireCost)
}

// hireMargin is what a hire must gain, by hireGain, for the Smart bot to
// hire. Measured (RULES-DECISIONS.md 36): a margin of 400 moved the seats'
// shares of wins only within the noise, so the bot hires at any gain.
var hireMargin = 0.0

// chooseDismiss keeps the Companion worth more after a hire.
func (b *Bot) chooseDismiss(v View) Action {
	cs := b.brains.g.cards
	mine := v.Players[v.Seat].Companion
	if CompanionWorth(cs.Card(v.Offer.ID)) > CompanionWorth(cs.Card(mine.ID)) {
		return Dismiss(mine.ID)
	}
	return Dismiss(v.Offer.ID)
}

// canHire reports whether Hire is among the legal actions.
func canHire(v View) bool {
	return slices.ContainsFunc(v.Legal, func(a Action) bool { return a.Kind == ActHire })
}
