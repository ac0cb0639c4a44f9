package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
)

// DragonRulesText returns the rules of a Dragon Farkle game as lines of at
// most width columns (at least 40): the turn, the event die, the actions,
// the soldier table of these rules (built from dice.Melds) and the text of
// every card of the game's set.
func DragonRulesText(g *dragon.Game, width int) []string {
	width = max(width, 40)
	r := g.Rules()
	var out []string
	add := func(format string, args ...any) {
		out = append(out, wrap(fmt.Sprintf(format, args...), width, "    ")...)
	}
	add("Rules: Dragon Farkle (%s), %d to %d players", r.Name, r.MinPlayers, r.MaxPlayers)
	add("  Slay the dragon: deal it %d damage in one Final Battle. Soldiers are your points.", r.DragonHealth)
	if r.RoundLimit > 0 {
		add("  After %d rounds with the dragon alive, the most soldiers win.", r.RoundLimit)
	}
	add("  Each turn choose one action:")
	add("  Recruit: throw 6 dice and the event die; keep scoring dice after every throw; their soldiers go to the turn's pool. Stop to move the pool to your mat; a throw with nothing to keep (a farkle) loses the pool and the items drawn this turn. Hot dice: keep all six and throw six again.")
	add("  Event die (4 blank, 1 Rally, 1 Dragon) when recruiting: Rally with scoring dice: double the soldiers kept from this throw, or draw a Magic Item. Dragon with scoring dice: all scoring dice are set aside and the dragon eats their soldiers. Dragon with nothing to keep: you evaded the dragon; throw again or stop.")
	add("  Brawl a player: you throw %d dice and the event die, they throw %d; each scores its best keep (Rally doubles, Dragon is 0). The higher score takes the difference from the other, plus %d from the stockpile; a tie does nothing.", r.BrawlDice[0], r.BrawlDice[1], r.BrawlBonus)
	add("  Final Battle (with at least %d soldiers): throw as when recruiting, but every keep costs its soldiers. The event die wounds the dragon: Rally %d, Dragon %d. A throw with nothing to keep ends the battle unless it wounded the dragon; you may retreat between throws; if you cannot pay a keep you lose the battle and your soldiers. The dragon heals after every battle it survives.", r.BattleMinimum, r.RallyDamage, r.DragonDamage)
	add("  Magic Items are hidden from the other players; hold at most %d at the end of a turn (the Sack of Holding raises it). Companions are face up and stay with you.", r.ItemLimit)
	if r.Anytime() {
		add("  Cards in a brawl: after each side's throw, a player holding a card usable on it may use it (the defender too, on the challenger's turn) or stand by the throw.")
	}
	if r.HireCost > 0 {
		add("  Hire a Companion at the start of a turn for %d soldiers (once a turn): the top Companion is drawn; holding one already, keep one of the two and dismiss the other.", r.HireCost)
	}
	out = append(out, "", "Soldiers (melds count only within one throw):")
	for _, row := range meldRows(dice.Melds(r.Soldiers)) {
		head := fmt.Sprintf("  %-16s ", row.head)
		for i, line := range wrapTokens(row.body, width-len(head)) {
			if i > 0 {
				head = strings.Repeat(" ", len(head))
			}
			out = append(out, head+line)
		}
	}
	cards := g.Cards()
	for _, deck := range []struct {
		title string
		cards []dragon.Card
	}{{"Companions (face up)", cards.Companions}, {"Magic Items (hidden)", cards.Items}} {
		if len(deck.cards) == 0 {
			continue
		}
		out = append(out, "", deck.title+":")
		for _, c := range deck.cards {
			out = append(out, wrap(fmt.Sprintf("  %s: %s", c.Name, c.Text), width, "    ")...)
		}
	}
	out = append(out, "", "(This project's own cards; the official card texts are not reproduced.)")
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

// brawlSituation says where the brawl of v stands: whose throw lies on
// the table, its score and, for the defender, the score to beat.
func brawlSituation(v dragon.View, names []string) string {
	b := v.Brawl
	if b == nil {
		return ""
	}
	if !b.Defending {
		return fmt.Sprintf("brawl: %s throw against %s: %s and %s scores %d", possessive(names[v.Turn]), names[b.Defender], v.Throw, faceName(v.Event), v.BrawlScore)
	}
	return fmt.Sprintf("brawl: %s defends against %s: %s and %s scores %d, against %d", names[b.Defender], names[v.Turn], v.Throw, faceName(v.Event), v.BrawlScore, b.Score)
}

// faceName says an event face with its article: "a Rally", "the Dragon".
func faceName(f dragon.EventFace) string {
	switch f {
	case dragon.Dragon:
		return "the Dragon"
	case dragon.Rally:
		return "a Rally"
	}
	return "a Blank"
}

// dragonAdviceValue formats an advice value: "51.2% to win" for the battle
// odds, "640 soldiers" for soldiers.
func dragonAdviceValue(a dragon.Advice) string {
	if a.Unit == dragon.UnitPWin {
		return fmt.Sprintf("%.1f%% to slay", 100*a.Value)
	}
	if math.Abs(a.Value) < 0.5 {
		return "0 soldiers"
	}
	return fmt.Sprintf("%.0f soldiers", a.Value)
}

// keepSoldiers describes keeping k from v's throw as the player to act
// would get or pay for it ("+350 (200 + 150 from your cards)", "costs 150
// of your 5000 soldiers", "eaten"), or ok false when k does not score. The
// figures are the game's own (dragon.Game.ValueKeep), every card bonus
// included: s is the state of the game, read for the cards of the player
// to act (who is the one looking).
func keepSoldiers(g *dragon.Game, s dragon.State, v dragon.View, k dice.Hand) (what string, ok bool) {
	if _, ok := g.Table().Points(k); !ok {
		return "", false
	}
	cards := func(kv dragon.KeepValue) string {
		if kv.Bonus == 0 {
			return ""
		}
		return fmt.Sprintf(" (%d + %d from your cards)", kv.Points, kv.Bonus)
	}
	switch {
	case v.Mode == dragon.Battling:
		kv := g.ValueKeep(s, k, dragon.NoReward)
		what = fmt.Sprintf("costs %d of your %d soldiers", kv.Cost, v.Players[v.Turn].Soldiers)
		if kv.Discount > 0 {
			what += fmt.Sprintf(" (%d off from your cards)", kv.Discount)
		}
		return what, true
	case v.Event == dragon.Dragon:
		kv := g.ValueKeep(s, k, dragon.NoReward)
		return fmt.Sprintf("%d eaten by the dragon%s", kv.Eaten, cards(kv)), true
	case v.Event == dragon.Rally:
		d, i := g.ValueKeep(s, k, dragon.Double), g.ValueKeep(s, k, dragon.DrawItem)
		what = fmt.Sprintf("+%d doubled, or +%d and an item", d.Soldiers, i.Soldiers)
		if i.Bonus > 0 {
			what += fmt.Sprintf(" (with %d from your cards)", i.Bonus)
		}
		return what, true
	}
	kv := g.ValueKeep(s, k, dragon.NoReward)
	return fmt.Sprintf("+%d%s", kv.Soldiers, cards(kv)), true
}
