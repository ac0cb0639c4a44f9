package tui

import (
	"fmt"
	"math"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
)

// DragonRulesTextIn returns the rules of a Dragon Farkle game in the
// language of c (nil: English) as lines of at most width columns (at least
// 40): the turn, the event die, the actions, the soldier table of these
// rules (built from dice.Melds) and the text of every card of the game's
// set.
func DragonRulesTextIn(c *lang.Catalogue, g *dragon.Game, width int) []string {
	c = orEnglish(c)
	width = max(width, 40)
	r := g.Rules()
	var out []string
	add := func(key string, kv ...any) {
		out = append(out, wrap(c.Msg(key, kv...), width, "    ")...)
	}
	add("dragon.rules.head", "name", r.Name, "min", r.MinPlayers, "max", r.MaxPlayers)
	add("dragon.rules.slay", "n", r.DragonHealth)
	if r.RoundLimit > 0 {
		add("dragon.rules.rounds", "n", r.RoundLimit)
	}
	add("dragon.rules.actions")
	add("dragon.rules.recruit")
	add("dragon.rules.event")
	add("dragon.rules.brawl", "mine", r.BrawlDice[0], "theirs", r.BrawlDice[1], "bonus", r.BrawlBonus)
	add("dragon.rules.battle", "min", r.BattleMinimum, "rally", r.RallyDamage, "dragon", r.DragonDamage)
	add("dragon.rules.items", "n", r.ItemLimit)
	if r.Anytime() {
		add("dragon.rules.anytime")
	}
	if r.HireCost > 0 {
		add("dragon.rules.hire", "n", r.HireCost)
	}
	out = append(out, "", c.Msg("dragon.rules.soldiers"))
	out = append(out, meldTableIn(c, dice.Melds(r.Soldiers), width)...)
	cards := g.Cards()
	for _, deck := range []struct {
		title string
		cards []dragon.Card
	}{{c.Msg("dragon.rules.companions"), cards.Companions}, {c.Msg("dragon.rules.magicItems"), cards.Items}} {
		if len(deck.cards) == 0 {
			continue
		}
		out = append(out, "", deck.title+":")
		for _, cd := range deck.cards {
			out = append(out, wrap(fmt.Sprintf("  %s: %s", dragon.CardName(c, cd.ID, cd.Name), dragon.CardText(c, cd.ID, cd.Text)), width, "    ")...)
		}
	}
	out = append(out, "", c.Msg("dragon.rules.ownCards"))
	return out
}

// dragonCommand returns the line-mode command of a, e.g. "brawl ana",
// "keep 1 1 5 double", "use lucky-coin 2".
func dragonCommand(a dragon.Action, names []string) string {
	switch a.Kind {
	case dragon.ActBrawl:
		if a.Target >= 0 && a.Target < len(names) {
			return "brawl " + names[a.Target]
		}
	case dragon.ActKeep:
		s := "keep " + a.Keep.String()
		if a.Reward != dragon.NoReward {
			s += " " + a.Reward.String()
		}
		return s
	case dragon.ActUse:
		if a.Face != 0 {
			return fmt.Sprintf("use %s %d", a.Card, a.Face)
		}
		return "use " + a.Card
	case dragon.ActDiscard:
		return "discard " + a.Card
	case dragon.ActDismiss:
		return "dismiss " + a.Card
	}
	return a.Kind.String()
}

// dragonActionWords says the action a in the language of c, for people
// (the line mode's commands are dragonCommand): "behold 1 5 (dobbelt)",
// "slåss med ana", "bruk Lykkehestesko på en 2-er".
func dragonActionWords(c *lang.Catalogue, g *dragon.Game, a dragon.Action, names []string) string {
	c = orEnglish(c)
	card := func(id string) string {
		if cd := g.Cards().Card(id); cd != nil {
			return dragon.CardName(c, cd.ID, cd.Name)
		}
		return id
	}
	switch a.Kind {
	case dragon.ActBrawl:
		if a.Target >= 0 && a.Target < len(names) {
			return c.Msg("dragon.act.brawl", "p", names[a.Target])
		}
	case dragon.ActKeep:
		if a.Reward != dragon.NoReward {
			return c.Msg("dragon.act.keepReward", "dice", a.Keep.String(), "reward", c.Msg("dragon.act.reward."+a.Reward.String()))
		}
		return c.Msg("dragon.act.keep", "dice", a.Keep.String())
	case dragon.ActUse:
		if a.Face != 0 {
			return c.Msg("dragon.act.useOn", "card", card(a.Card), "face", a.Face)
		}
		return c.Msg("dragon.act.use", "card", card(a.Card))
	case dragon.ActDiscard, dragon.ActDismiss:
		return c.Msg("dragon.act."+a.Kind.String(), "card", card(a.Card))
	}
	if k := "dragon.act." + a.Kind.String(); c.Has(k) {
		return c.Msg(k)
	}
	return a.Kind.String()
}

// brawlSituation says where the brawl of v stands: whose throw lies on
// the table, its score and, for the defender, the score to beat.
func brawlSituation(c *lang.Catalogue, v dragon.View, names []string) string {
	b := v.Brawl
	if b == nil {
		return ""
	}
	c = orEnglish(c)
	if !b.Defending {
		return dragonWhose(c, "dragon.tui.brawlThrow", names[v.Turn], "q", names[b.Defender], "dice", v.Throw.String(), "face", faceName(c, v.Event), "n", v.BrawlScore)
	}
	return c.Msg("dragon.tui.brawlDefends", "p", names[b.Defender], "q", names[v.Turn], "dice", v.Throw.String(), "face", faceName(c, v.Event), "n", v.BrawlScore, "against", b.Score)
}

// faceName says an event face with its article: "a Rally", "the Dragon".
func faceName(c *lang.Catalogue, f dragon.EventFace) string {
	c = orEnglish(c)
	switch f {
	case dragon.Dragon:
		return c.Msg("dragon.face.dragon")
	case dragon.Rally:
		return c.Msg("dragon.face.rally")
	}
	return c.Msg("dragon.face.blank")
}

// dragonAdviceValue formats an advice value: "51.2% to slay" for the
// battle odds, "640 soldiers" for soldiers.
func dragonAdviceValue(c *lang.Catalogue, v float64, m game.Measure) string {
	c = orEnglish(c)
	if m == game.WinProbability {
		return c.Msg("dragon.tui.toSlay", "p", c.Pct(v, 1))
	}
	if math.Abs(v) < 0.5 {
		return c.Msg("dragon.tui.soldiers", "n", 0)
	}
	return c.Msg("dragon.tui.soldiers", "n", int(math.Round(v)))
}

// keepSoldiers describes keeping k from v's throw as the player to act
// would get or pay for it ("+350 (200 + 150 from your cards)", "costs 150
// of your 5000 soldiers", "eaten"), or ok false when k does not score. The
// figures are the game's own (dragon.Game.ValueKeep), every card bonus
// included: s is the state of the game, read for the cards of the player
// to act (who is the one looking).
func keepSoldiers(c *lang.Catalogue, g *dragon.Game, s dragon.State, v dragon.View, k dice.Hand) (what string, ok bool) {
	if _, ok := g.Table().Points(k); !ok {
		return "", false
	}
	c = orEnglish(c)
	cards := func(kv dragon.KeepValue) string {
		if kv.Bonus == 0 {
			return ""
		}
		return c.Msg("dragon.tui.fromCards", "n", kv.Points, "bonus", kv.Bonus)
	}
	switch {
	case v.Mode == dragon.Battling:
		kv := g.ValueKeep(s, k, dragon.NoReward)
		what = c.Msg("dragon.tui.costs", "n", kv.Cost, "of", v.Players[v.Turn].Soldiers)
		if kv.Discount > 0 {
			what += c.Msg("dragon.tui.discount", "n", kv.Discount)
		}
		return what, true
	case v.Event == dragon.Dragon:
		kv := g.ValueKeep(s, k, dragon.NoReward)
		return c.Msg("dragon.tui.eaten", "n", kv.Eaten) + cards(kv), true
	case v.Event == dragon.Rally:
		d, i := g.ValueKeep(s, k, dragon.Double), g.ValueKeep(s, k, dragon.DrawItem)
		what = c.Msg("dragon.tui.rallyChoice", "double", d.Soldiers, "n", i.Soldiers)
		if i.Bonus > 0 {
			what += c.Msg("dragon.tui.withCards", "n", i.Bonus)
		}
		return what, true
	}
	kv := g.ValueKeep(s, k, dragon.NoReward)
	return "+" + c.Num(int64(kv.Soldiers)) + cards(kv), true
}
