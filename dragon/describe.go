package dragon

import (
	"fmt"

	"github.com/farkle/farkle/lang"
)

// Describe returns one line of English for an event, naming players by
// names (indexed by seat) and cards by their names, e.g. "Ann threw 1 1 5
// 2 3 4 and a Rally". A hidden card (Card "") reads "a Magic Item".
func (g *Game) Describe(names []string, e Event) string {
	return g.DescribeIn(lang.Get(lang.Default), names, e)
}

// DescribeIn is Describe in the language of c.
// TODO(i13): the texts below are English still; they move to the catalogue.
func (g *Game) DescribeIn(c *lang.Catalogue, names []string, e Event) string {
	who := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return fmt.Sprintf("seat %d", seat)
	}
	card := func(id string) string {
		if c := g.cards.Card(id); c != nil {
			return c.Name
		}
		if id == "" {
			return "a Magic Item"
		}
		return id
	}
	p := who(e.Seat)
	switch e.Kind {
	case EvThrow:
		s := fmt.Sprintf("%s threw %s and %s", p, e.Dice, faceWord(e.Face))
		if e.N > 0 {
			s += fmt.Sprintf(" (brawl score %d)", e.N)
		}
		return s
	case EvWound:
		return fmt.Sprintf("the dragon takes %d damage (%d in all)", e.N, e.Total)
	case EvKeep:
		if e.Battle {
			return fmt.Sprintf("%s keeps %s, costing %d soldiers (%d left)", p, e.Dice, e.N, e.Total)
		}
		if e.N == 0 {
			return fmt.Sprintf("%s keeps %s", p, e.Dice)
		}
		return fmt.Sprintf("%s keeps %s for +%d soldiers", p, e.Dice, e.N)
	case EvEaten:
		return fmt.Sprintf("the dragon eats the %d soldiers of that throw", e.N)
	case EvRally:
		if e.Reward == Double {
			return fmt.Sprintf("%s rallies: double soldiers", p)
		}
		return fmt.Sprintf("%s rallies: a Magic Item", p)
	case EvItemDrawn:
		return fmt.Sprintf("%s draws %s", p, card(e.Card))
	case EvHotDice:
		return fmt.Sprintf("%s has hot dice: six dice again", p)
	case EvFarkle:
		return fmt.Sprintf("%s farkles and loses %d soldiers", p, e.N)
	case EvEvaded:
		return fmt.Sprintf("%s evades the dragon", p)
	case EvBank:
		return fmt.Sprintf("%s recruits %d soldiers (%d in all)", p, e.N, e.Total)
	case EvUse:
		return fmt.Sprintf("%s uses %s", p, card(e.Card))
	case EvCardChanged:
		if e.N > 0 {
			return fmt.Sprintf("%s's throw is now %s and %s (brawl score %d)", p, e.Dice, faceWord(e.Face), e.N)
		}
		return fmt.Sprintf("the throw is now %s and %s", e.Dice, faceWord(e.Face))
	case EvPass:
		return fmt.Sprintf("%s stands by the brawl throw (score %d)", p, e.N)
	case EvHire:
		return fmt.Sprintf("%s pays %d soldiers to hire %s (%d left)", p, e.N, card(e.Card), e.Total)
	case EvDismiss:
		return fmt.Sprintf("%s dismisses %s", p, card(e.Card))
	case EvBrawl:
		if e.Winner < 0 {
			return fmt.Sprintf("%s and %s brawl to a tie (%d to %d)", p, who(e.Target), e.N, e.Other)
		}
		loser := e.Seat + e.Target - e.Winner
		return fmt.Sprintf("%s wins the brawl (%d to %d): takes %d soldiers from %s and %d from the stockpile", who(e.Winner), max(e.N, e.Other), min(e.N, e.Other), e.Total, who(loser), e.Bonus)
	case EvBattleStart:
		return fmt.Sprintf("%s attacks the dragon with %d soldiers", p, e.N)
	case EvBattleLost:
		return fmt.Sprintf("%s cannot pay %d soldiers and loses the battle with %d soldiers", p, e.N, e.Total)
	case EvBattleEnd:
		end := fmt.Sprintf("the battle ends with %d soldiers kept and %s dealt", e.Total, damageWord(e.N))
		switch e.Ending {
		case EndRetreat:
			return fmt.Sprintf("%s retreats: %s", p, end)
		case EndNoWave:
			return fmt.Sprintf("%s cannot send another wave of %d: %s", p, e.Other, end)
		case EndFarkle:
			return fmt.Sprintf("%s farkles in battle: %s", p, end)
		case EndUnpaid:
			return fmt.Sprintf("%s's army is lost: %s", p, end)
		}
		return fmt.Sprintf("%s's battle is over: %s", p, end)
	case EvHeal:
		return fmt.Sprintf("the dragon heals its %s", damageWord(e.N))
	case EvDiscard:
		return fmt.Sprintf("%s discards %s", p, card(e.Card))
	case EvTurn:
		return fmt.Sprintf("round %d: %s's turn", e.Round, p)
	case EvWin:
		if e.Slain {
			return fmt.Sprintf("%s slays the dragon and wins", p)
		}
		return fmt.Sprintf("%s wins with the most soldiers", p)
	case EvWave:
		return fmt.Sprintf("%s sent a wave of %d soldiers against the dragon (%d left)", p, e.N, e.Total)
	case EvFire:
		return fmt.Sprintf("%s lost %d soldiers to the dragon's fire (no scoring dice; %d left)", p, e.N, e.Total)
	case EvStart:
		return fmt.Sprintf("%s started with %d soldiers for not playing first", p, e.N)
	case EvReshuffle:
		return fmt.Sprintf("the %s discards are shuffled into a new deck", e.Card)
	}
	return e.Kind.String()
}

// damageWord is "no damage", "1 damage", "2 damage".
func damageWord(n int) string {
	if n == 0 {
		return "no damage"
	}
	return fmt.Sprintf("%d damage", n)
}

func faceWord(f EventFace) string {
	switch f {
	case Rally:
		return "a Rally"
	case Dragon:
		return "the Dragon"
	}
	return "a Blank"
}
