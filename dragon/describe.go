package dragon

import (
	"github.com/farkle/farkle/lang"
	"strings"
)

// Describe returns one line of English for an event, naming players by
// names (indexed by seat) and cards by their names, e.g. "Ann threw 1 1 5
// 2 3 4 and a Rally". A hidden card (Card "") reads "a Magic Item".
func (g *Game) Describe(names []string, e Event) string {
	return g.DescribeIn(lang.Get(lang.Default), names, e)
}

// DescribeIn is Describe in the language of c (keys dragon.*), with the
// cards of the project's own set named in it too (CardName), and numbers
// written as the language writes them (4,950 in English, 4 950 in
// Norwegian), as in the ordinary game's lines.
func (g *Game) DescribeIn(c *lang.Catalogue, names []string, e Event) string {
	num := func(n int) any { return n }
	who := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return c.Msg("dragon.seat", "n", num(seat))
	}
	card := func(id string) string {
		if cd := g.cards.Card(id); cd != nil {
			return CardName(c, cd.ID, cd.Name)
		}
		if id == "" {
			return c.Msg("dragon.hiddenItem")
		}
		return id
	}
	face := func(f EventFace) string {
		switch f {
		case Rally:
			return c.Msg("dragon.face.rally")
		case Dragon:
			return c.Msg("dragon.face.dragon")
		}
		return c.Msg("dragon.face.blank")
	}
	damage := func(n int) string {
		if n == 0 {
			return c.Msg("dragon.damage.none")
		}
		return c.Msg("dragon.damage", "n", num(n))
	}
	p := who(e.Seat)
	dice := e.Dice.String()
	switch e.Kind {
	case EvThrow:
		s := c.Msg("dragon.throw", "p", p, "dice", dice, "face", face(e.Face))
		if e.N > 0 {
			s += c.Msg("dragon.brawlScore", "n", num(e.N))
		}
		return s
	case EvWound:
		return c.Msg("dragon.wound", "n", num(e.N), "total", num(e.Total))
	case EvKeep:
		if e.Battle {
			return c.Msg("dragon.keepBattle", "p", p, "dice", dice, "n", num(e.N), "left", num(e.Total))
		}
		if e.N == 0 {
			return c.Msg("dragon.keepNothing", "p", p, "dice", dice)
		}
		return c.Msg("dragon.keep", "p", p, "dice", dice, "n", num(e.N))
	case EvEaten:
		return c.Msg("dragon.eaten", "n", num(e.N))
	case EvRally:
		if e.Reward == Double {
			return c.Msg("dragon.rallyDouble", "p", p)
		}
		return c.Msg("dragon.rallyItem", "p", p)
	case EvItemDrawn:
		return c.Msg("dragon.drawn", "p", p, "card", card(e.Card))
	case EvHotDice:
		return c.Msg("dragon.hot", "p", p)
	case EvFarkle:
		return c.Msg("dragon.farkle", "p", p, "n", num(e.N))
	case EvEvaded:
		return c.Msg("dragon.evaded", "p", p)
	case EvBank:
		return c.Msg("dragon.bank", "p", p, "n", num(e.N), "total", num(e.Total))
	case EvUse:
		return c.Msg("dragon.use", "p", p, "card", card(e.Card))
	case EvCardChanged:
		if e.N > 0 {
			return c.Msg("dragon.changedBrawl", "p", p, "dice", dice, "face", face(e.Face), "n", num(e.N))
		}
		return c.Msg("dragon.changed", "dice", dice, "face", face(e.Face))
	case EvPass:
		return c.Msg("dragon.pass", "p", p, "n", num(e.N))
	case EvHire:
		return c.Msg("dragon.hire", "p", p, "n", num(e.N), "card", card(e.Card), "left", num(e.Total))
	case EvDismiss:
		return c.Msg("dragon.dismiss", "p", p, "card", card(e.Card))
	case EvBrawl:
		if e.Winner < 0 {
			return c.Msg("dragon.brawlTie", "p", p, "q", who(e.Target), "a", num(e.N), "b", num(e.Other))
		}
		loser := e.Seat + e.Target - e.Winner
		return c.Msg("dragon.brawlWin", "w", who(e.Winner), "a", num(max(e.N, e.Other)), "b", num(min(e.N, e.Other)),
			"n", num(e.Total), "l", who(loser), "bonus", num(e.Bonus))
	case EvBattleStart:
		return c.Msg("dragon.battleStart", "p", p, "n", num(e.N))
	case EvBattleLost:
		return c.Msg("dragon.battleLost", "p", p, "n", num(e.N), "total", num(e.Total))
	case EvBattleEnd:
		end := c.Msg("dragon.battleEnds", "n", num(e.Total), "damage", damage(e.N))
		switch e.Ending {
		case EndRetreat:
			return c.Msg("dragon.end.retreat", "p", p, "end", end)
		case EndNoWave:
			return c.Msg("dragon.end.noWave", "p", p, "n", num(e.Other), "end", end)
		case EndFarkle:
			return c.Msg("dragon.end.farkle", "p", p, "end", end)
		case EndUnpaid:
			return c.Msg("dragon.end.unpaid", "p", p, "end", end)
		}
		return c.Msg("dragon.end.over", "p", p, "end", end)
	case EvHeal:
		return c.Msg("dragon.heal", "damage", damage(e.N))
	case EvDiscard:
		return c.Msg("dragon.discard", "p", p, "card", card(e.Card))
	case EvTurn:
		return c.Msg("dragon.turn", "round", num(e.Round), "p", p)
	case EvWin:
		if e.Slain {
			return c.Msg("dragon.winSlain", "p", p)
		}
		return c.Msg("dragon.winMost", "p", p)
	case EvWave:
		return c.Msg("dragon.wave", "p", p, "n", num(e.N), "left", num(e.Total))
	case EvFire:
		return c.Msg("dragon.fire", "p", p, "n", num(e.N), "left", num(e.Total))
	case EvStart:
		return c.Msg("dragon.start", "p", p, "n", num(e.N))
	case EvReshuffle:
		deck := e.Card
		if k := "dragon.deck." + e.Card; c.Has(k) {
			deck = c.Msg(k)
		}
		return c.Msg("dragon.reshuffle", "deck", deck)
	}
	return e.Kind.String()
}

// CardName returns the name of the card id in the language of c: the
// catalogue's card.<id>.name when the card is the project's own (its name
// is the English text of that key), else name, the card file's own.
func CardName(c *lang.Catalogue, id, name string) string {
	return cardText(c, "card."+id+".name", name)
}

// CardText is CardName for the card's text (card.<id>.text).
func CardText(c *lang.Catalogue, id, text string) string {
	return cardText(c, "card."+id+".text", text)
}

// cardText is the catalogue's text of key in the language of c (nil:
// English) when own, the card file's, is the catalogue's English (its
// numbers written without separators, as a card file has them: "1000"
// for "1,000"), else own.
func cardText(c *lang.Catalogue, key, own string) string {
	en := lang.Get(lang.Default)
	if c == nil {
		c = en
	}
	if plainNumbers(en.Msg(key), en.Thousands) != own {
		return own
	}
	return c.Msg(key)
}

// plainNumbers is s with the thousands separator sep taken out of its
// numbers.
func plainNumbers(s, sep string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, sep)
		if i < 0 {
			break
		}
		j := i + len(sep)
		b.WriteString(s[:i])
		if !(i > 0 && isDigit(s[i-1]) && j+3 <= len(s) && isDigit(s[j]) && isDigit(s[j+1]) && isDigit(s[j+2])) {
			b.WriteString(sep)
		}
		s = s[j:]
	}
	b.WriteString(s)
	return b.String()
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
