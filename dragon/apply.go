package dragon

import (
	"slices"

	"github.com/farkle/farkle/dice"
)

// apply performs a checked action on n (a private copy).
func (g *Game) apply(s *State, a Action, src dice.Source, evs *[]Event) {
	switch a.Kind {
	case ActRecruit:
		s.Mode, s.Dice, s.Kept, s.Pool = Recruiting, 6, 0, 0
		g.throw(s, src, evs)
	case ActBattle:
		s.Mode, s.Dice, s.Kept, s.Damage = Battling, 6, 0, 0
		*evs = append(*evs, Event{Kind: EvBattleStart, Seat: s.Turn, N: s.Players[s.Turn].Soldiers})
		g.throw(s, src, evs)
	case ActBrawl:
		if g.rules.Anytime() {
			g.startBrawl(s, a.Target, src, evs)
			return
		}
		g.brawl(s, a.Target, src, evs)
		g.endTurn(s, evs)
	case ActPass:
		*evs = append(*evs, Event{Kind: EvPass, Seat: s.ToAct(), N: g.brawlScore(s)})
		if g.brawlNext(s, src, evs) {
			g.brawlOn(s, src, evs)
		}
	case ActHire:
		g.hire(s, src, evs)
	case ActDismiss:
		g.dismiss(s, a.Card, evs)
	case ActKeep:
		g.keep(s, a, src, evs)
	case ActUse:
		g.use(s, a, src, evs)
	case ActAccept:
		g.resolveStuck(s, evs)
	case ActRoll:
		g.throw(s, src, evs)
	case ActStop:
		g.bank(s, evs)
		g.endTurn(s, evs)
	case ActRetreat:
		g.endBattle(s, EndRetreat, evs)
		g.endTurn(s, evs)
	case ActDiscard:
		p := &s.Players[s.Turn]
		i := slices.Index(p.Items, a.Card)
		p.Items = slices.Delete(p.Items, i, i+1)
		s.ItemDiscard = append(s.ItemDiscard, a.Card)
		*evs = append(*evs, Event{Kind: EvDiscard, Seat: s.Turn, Card: a.Card})
		if len(p.Items) <= g.ItemLimit(*s, s.Turn) {
			g.nextTurn(s, evs)
		}
	}
}

// throwDice draws n dice from src.
func throwDice(n int, src dice.Source) dice.Hand {
	var h dice.Hand
	for range n {
		h += dice.Single(dice.Face(src), 1)
	}
	return h
}

// throw throws s.Dice dice and the event die and settles the result. In
// the army battle the throw's wave is paid first.
func (g *Game) throw(s *State, src dice.Source, evs *[]Event) {
	if s.Mode == Battling && g.rules.Army() {
		w := g.rules.BattleWave
		s.Players[s.Turn].Soldiers -= w
		s.Meal += w
		*evs = append(*evs, Event{Kind: EvWave, Seat: s.Turn, N: w, Total: s.Players[s.Turn].Soldiers})
	}
	s.Throw = throwDice(s.Dice, src)
	s.Event = eventOf(dice.Face(src))
	s.Wounded = false
	*evs = append(*evs, Event{Kind: EvThrow, Seat: s.Turn, Dice: s.Throw, Face: s.Event})
	if s.Mode == Battling {
		dmg := 0
		switch s.Event {
		case Rally:
			dmg = g.rules.RallyDamage + g.sum(s, s.Turn, RallyDamage, "")
		case Dragon:
			dmg = g.rules.DragonDamage
		}
		if dmg > 0 {
			s.Damage += dmg
			s.Wounded = true
			*evs = append(*evs, Event{Kind: EvWound, Seat: s.Turn, N: dmg, Total: s.Damage})
			if s.Damage >= g.rules.DragonHealth {
				g.win(s, []int{s.Turn}, true, evs)
				return
			}
		}
	}
	g.settle(s, evs)
}

// settle decides the phase after the throw on the table changed.
func (g *Game) settle(s *State, evs *[]Event) {
	s.Phase = PhaseKeep
	if s.Mode == Recruiting && s.Event == Dragon && g.table.Farkle(s.Throw) {
		s.Phase = PhaseEvaded
		*evs = append(*evs, Event{Kind: EvEvaded, Seat: s.Turn, Dice: s.Throw})
		return
	}
	if len(g.keeps(s)) > 0 {
		return
	}
	if s.Mode == Battling && s.Wounded && g.table.Farkle(s.Throw) {
		// A throw without scoring dice that wounded the dragon does not end
		// the battle: throw the same dice again (or retreat).
		g.battleOn(s, evs)
		return
	}
	if len(g.legalUses(s)) > 0 {
		return // stuck, but a card may help: Use or Accept
	}
	g.resolveStuck(s, evs)
}

// resolveStuck ends a throw with no possible keep: a farkle while
// recruiting, a throw without scoring dice or a keep the player cannot pay
// in battle.
func (g *Game) resolveStuck(s *State, evs *[]Event) {
	if s.Mode == Recruiting {
		*evs = append(*evs, Event{Kind: EvFarkle, Seat: s.Turn, Dice: s.Throw, N: s.Pool})
		s.Stockpile += s.Pool // the pool's tokens go back
		s.Pool = 0
		s.ItemDiscard = append(s.ItemDiscard, s.Drawn...)
		s.Drawn = nil
		g.endTurn(s, evs)
		return
	}
	p := &s.Players[s.Turn]
	if g.table.Farkle(s.Throw) && g.rules.Army() {
		// The army battle: the dragon's fire answers the throw; the battle
		// goes on with six dice while the player can send a wave.
		burn := min(g.rules.BattleFire, p.Soldiers)
		p.Soldiers -= burn
		s.Meal += burn
		*evs = append(*evs, Event{Kind: EvFire, Seat: s.Turn, Dice: s.Throw, N: burn, Total: p.Soldiers})
		s.Dice, s.Kept, s.Throw = 6, 0, 0
		g.battleOn(s, evs)
		return
	}
	if !g.table.Farkle(s.Throw) {
		// Scoring dice the player cannot pay for: the battle is lost with
		// every soldier the player has left.
		cheapest := g.cost(s, int(g.table.Keeps(s.Throw)[0].Points))
		for _, k := range g.table.Keeps(s.Throw) {
			cheapest = min(cheapest, g.cost(s, int(k.Points)))
		}
		*evs = append(*evs, Event{Kind: EvBattleLost, Seat: s.Turn, Dice: s.Throw, N: cheapest, Total: p.Soldiers})
		s.Meal += p.Soldiers
		p.Soldiers = 0
		g.endBattle(s, EndUnpaid, evs)
		g.endTurn(s, evs)
		return
	}
	g.endBattle(s, EndFarkle, evs)
	g.endTurn(s, evs)
}

func (g *Game) keep(s *State, a Action, src dice.Source, evs *[]Event) {
	kv := g.keepValue(s, a.Keep, a.Reward)
	seat := s.Turn
	if s.Mode == Battling {
		s.Players[seat].Soldiers -= kv.Cost
		s.Meal += kv.Cost
		*evs = append(*evs, Event{Kind: EvKeep, Seat: seat, Dice: a.Keep, N: kv.Cost, Total: s.Players[seat].Soldiers, Battle: true})
	} else {
		switch s.Event {
		case Dragon:
			s.Eaten += kv.Eaten
			*evs = append(*evs, Event{Kind: EvKeep, Seat: seat, Dice: a.Keep}, Event{Kind: EvEaten, Seat: seat, N: kv.Eaten})
		case Rally:
			*evs = append(*evs, Event{Kind: EvRally, Seat: seat, Reward: a.Reward})
			if a.Reward != Double {
				for range 1 + g.sum(s, seat, ExtraItem, "") {
					id, ok := g.draw(s, Item, src, evs)
					if !ok {
						break
					}
					s.Drawn = append(s.Drawn, id)
					*evs = append(*evs, Event{Kind: EvItemDrawn, Seat: seat, Card: id})
				}
			}
			*evs = append(*evs, Event{Kind: EvKeep, Seat: seat, Dice: a.Keep, N: kv.Soldiers})
		default:
			*evs = append(*evs, Event{Kind: EvKeep, Seat: seat, Dice: a.Keep, N: kv.Soldiers})
		}
		s.Pool += kv.Soldiers
		s.Stockpile -= kv.Soldiers
	}
	s.Kept += a.Keep
	s.Dice -= a.Keep.N()
	s.Throw, s.Wounded = 0, false
	if s.Dice == 0 {
		s.Dice, s.Kept = 6, 0
		*evs = append(*evs, Event{Kind: EvHotDice, Seat: seat})
	}
	s.Phase = PhaseRoll
	if s.Mode == Battling {
		g.battleOn(s, evs)
	}
}

// battleOn goes on to the next battle throw (PhaseRoll: Roll or Retreat),
// or, in the army battle when the player cannot send the next wave, ends
// the battle: the player leaves with the soldiers left.
func (g *Game) battleOn(s *State, evs *[]Event) {
	s.Phase = PhaseRoll
	if g.rules.Army() && s.Players[s.Turn].Soldiers < g.rules.BattleWave {
		g.endBattle(s, EndNoWave, evs)
		g.endTurn(s, evs)
	}
}

// meldKind maps a meld of the soldier table to the meld names of
// meld_bonus.
func meldKind(m dice.Meld) string {
	n := m.Hand.N()
	switch {
	case n == 1:
		return "single"
	case m.Name == "three pairs":
		return "three_pairs"
	case m.Name == "a straight":
		return "straight"
	case m.Name == "a small straight":
		return "small_straight"
	case m.Name == "four of a kind and a pair":
		return "four_kind_pair"
	case m.Name == "two triplets":
		return "two_triplets"
	}
	return "kind"
}

func (g *Game) use(s *State, a Action, src dice.Source, evs *[]Event) {
	seat := s.ToAct()
	c := g.cards.Card(a.Card)
	e, _ := c.Active()
	*evs = append(*evs, Event{Kind: EvUse, Seat: seat, Card: a.Card, N: a.Face})
	if c.Kind == Companion {
		s.Used = append(s.Used, a.Card)
	} else {
		p := &s.Players[seat]
		i := slices.Index(p.Items, a.Card)
		p.Items = slices.Delete(p.Items, i, i+1)
		s.ItemDiscard = append(s.ItemDiscard, a.Card)
	}
	switch e.Primitive {
	case Rethrow:
		s.Throw = s.Throw.Minus(dice.Single(a.Face, 1)).Plus(dice.Single(dice.Face(src), 1))
	case TwoAsFive:
		s.Throw = s.Throw.Minus(dice.Single(2, 1)).Plus(dice.Single(5, 1))
	case IgnoreDragon:
		s.Event = Blank
	case RerollFarkle:
		if s.Mode == Brawling {
			g.brawlThrow(s, seat, s.Throw.N(), src, evs)
			g.brawlOn(s, src, evs)
			return
		}
		g.throw(s, src, evs)
		return
	}
	if s.Mode == Brawling {
		*evs = append(*evs, Event{Kind: EvCardChanged, Seat: seat, Dice: s.Throw, Face: s.Event, N: g.brawlScore(s)})
		g.brawlOn(s, src, evs)
		return
	}
	*evs = append(*evs, Event{Kind: EvCardChanged, Seat: seat, Dice: s.Throw, Face: s.Event})
	g.settle(s, evs)
}

// bank moves the pool and the items drawn this turn to the mat.
func (g *Game) bank(s *State, evs *[]Event) {
	p := &s.Players[s.Turn]
	p.Soldiers += s.Pool
	p.Items = append(p.Items, s.Drawn...)
	*evs = append(*evs, Event{Kind: EvBank, Seat: s.Turn, N: s.Pool, Total: p.Soldiers})
	s.Pool, s.Drawn = 0, nil
}

// endBattle heals the dragon after a battle that did not slay it. The
// event says how it ended, the damage dealt (N) and the soldiers kept
// (Total).
func (g *Game) endBattle(s *State, why BattleEnding, evs *[]Event) {
	ev := Event{Kind: EvBattleEnd, Seat: s.Turn, Ending: why, N: s.Damage, Total: s.Players[s.Turn].Soldiers}
	if why == EndNoWave {
		ev.Other = g.rules.BattleWave
	}
	*evs = append(*evs, ev)
	if s.Damage > 0 {
		*evs = append(*evs, Event{Kind: EvHeal, Seat: s.Turn, N: s.Damage})
	}
	s.Damage = 0
}

// brawlRoll is one side's throw in a brawl: its best keep, doubled by a
// Rally, 0 under the Dragon.
func (g *Game) brawlRoll(n int, src dice.Source) (dice.Hand, EventFace, int) {
	h := throwDice(n, src)
	f := eventOf(dice.Face(src))
	return h, f, brawlPoints(g.table.Best(h), f)
}

// brawlScore is the score of the brawl throw on the table.
func (g *Game) brawlScore(s *State) int { return brawlPoints(g.table.Best(s.Throw), s.Event) }

func brawlPoints(best int, f EventFace) int {
	switch f {
	case Rally:
		return 2 * best
	case Dragon:
		return 0
	}
	return best
}

func (g *Game) brawl(s *State, target int, src dice.Source, evs *[]Event) {
	me := s.Turn
	h1, f1, a := g.brawlRoll(g.rules.BrawlDice[0], src)
	*evs = append(*evs, Event{Kind: EvThrow, Seat: me, Dice: h1, Face: f1, N: a})
	h2, f2, b := g.brawlRoll(g.rules.BrawlDice[1], src)
	*evs = append(*evs, Event{Kind: EvThrow, Seat: target, Dice: h2, Face: f2, N: b})
	g.brawlResult(s, target, a, b, evs)
}

// brawlResult settles a brawl of the player to act against target with
// the scores a (challenger) and b (defender).
func (g *Game) brawlResult(s *State, target, a, b int, evs *[]Event) {
	me := s.Turn
	ev := Event{Kind: EvBrawl, Seat: me, Target: target, N: a, Other: b, Winner: -1}
	if a != b {
		w, l := me, target
		if b > a {
			w, l = target, me
		}
		take := g.brawlTake(s, w, l, abs(a-b))
		bonus := g.rules.BrawlBonus + g.sum(s, w, BrawlBonus, "")
		s.Players[l].Soldiers -= take
		s.Players[w].Soldiers += take + bonus
		s.Stockpile -= bonus
		ev.Winner, ev.Total, ev.Bonus = w, take, bonus
	}
	*evs = append(*evs, ev)
}

// startBrawl begins a brawl with card_timing = "anytime": the challenger
// throws, and each side may use cards on its own throw before the next.
func (g *Game) startBrawl(s *State, target int, src dice.Source, evs *[]Event) {
	s.Mode = Brawling
	s.Brawl = &BrawlState{Defender: target}
	g.brawlThrow(s, s.Turn, g.rules.BrawlDice[0], src, evs)
	g.brawlOn(s, src, evs)
}

// brawlThrow throws n dice and the event die for seat's side of the brawl.
func (g *Game) brawlThrow(s *State, seat, n int, src dice.Source, evs *[]Event) {
	h, f, score := g.brawlRoll(n, src)
	s.Throw, s.Event = h, f
	*evs = append(*evs, Event{Kind: EvThrow, Seat: seat, Dice: h, Face: f, N: score})
}

// brawlOn waits (PhaseBrawl) while the side whose throw lies on the table
// holds a card usable on it, and moves the brawl on otherwise.
func (g *Game) brawlOn(s *State, src dice.Source, evs *[]Event) {
	for len(g.legalUses(s)) == 0 {
		if !g.brawlNext(s, src, evs) {
			return
		}
	}
	s.Phase = PhaseBrawl
}

// brawlNext settles the throw on the table: after the challenger's the
// defender throws (true: a throw lies on the table again); after the
// defender's the brawl is resolved and the turn ends (false).
func (g *Game) brawlNext(s *State, src dice.Source, evs *[]Event) bool {
	b := s.Brawl
	if !b.Defending {
		b.Throw, b.Event, b.Score, b.Defending = s.Throw, s.Event, g.brawlScore(s), true
		g.brawlThrow(s, b.Defender, g.rules.BrawlDice[1], src, evs)
		return true
	}
	g.brawlResult(s, b.Defender, b.Score, g.brawlScore(s), evs)
	s.Brawl = nil
	g.endTurn(s, evs)
	return false
}

// hire pays for a Companion and draws it: the player who holds one keeps
// one of the two (PhaseHire), one who holds none takes it.
func (g *Game) hire(s *State, src dice.Source, evs *[]Event) {
	p, cost := &s.Players[s.Turn], g.rules.HireCost
	p.Soldiers -= cost
	s.Stockpile += cost // the tokens go back
	id, _ := g.draw(s, Companion, src, evs)
	s.Hired = true
	*evs = append(*evs, Event{Kind: EvHire, Seat: s.Turn, N: cost, Total: p.Soldiers, Card: id})
	if p.Companion == "" {
		p.Companion = id // nothing to choose between
		return
	}
	s.Offer, s.Phase = id, PhaseHire
}

// dismiss lets a Companion go after a hire: the one held (the hired one
// takes its place) or the one hired. It goes to the Companion discard pile.
func (g *Game) dismiss(s *State, id string, evs *[]Event) {
	p := &s.Players[s.Turn]
	if id != s.Offer {
		p.Companion = s.Offer
	}
	s.CompanionDiscard = append(s.CompanionDiscard, id)
	s.Offer, s.Phase = "", PhaseChoose
	*evs = append(*evs, Event{Kind: EvDismiss, Seat: s.Turn, Card: id})
}

// brawlTake returns how many soldiers the winner of a brawl takes from
// the loser l when the scores differ by diff: diff less the loser's
// brawl_guard effects, at most what the loser has, never negative.
func (g *Game) brawlTake(s *State, w, l, diff int) int {
	return max(0, min(diff-g.sum(s, l, BrawlGuard, ""), s.Players[l].Soldiers))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// endTurn finishes the turn of the player to act: the discard phase if
// they hold too many items, else the next player's turn.
func (g *Game) endTurn(s *State, evs *[]Event) {
	s.Mode, s.Throw, s.Event, s.Kept, s.Dice, s.Wounded = NoMode, 0, Blank, 0, 0, false
	s.Pool, s.Drawn, s.Used, s.Brawl, s.Offer, s.Hired = 0, nil, nil, nil, "", false
	if len(s.Players[s.Turn].Items) > g.ItemLimit(*s, s.Turn) {
		s.Phase = PhaseDiscard
		return
	}
	g.nextTurn(s, evs)
}

func (g *Game) nextTurn(s *State, evs *[]Event) {
	s.Turns++
	s.Turn = (s.Turn + 1) % len(s.Players)
	if s.Turn == s.First {
		s.Round++
		if g.rules.RoundLimit > 0 && s.Round > g.rules.RoundLimit {
			best := 0
			for _, p := range s.Players {
				best = max(best, p.Soldiers)
			}
			var ws []int
			for i, p := range s.Players {
				if p.Soldiers == best {
					ws = append(ws, i)
				}
			}
			g.win(s, ws, false, evs)
			return
		}
	}
	s.Phase = PhaseChoose
	*evs = append(*evs, Event{Kind: EvTurn, Seat: s.Turn, Round: s.Round})
}

func (g *Game) win(s *State, seats []int, slain bool, evs *[]Event) {
	s.Phase = PhaseOver
	s.Winners = seats
	s.Slain = slain
	s.Mode, s.Throw, s.Dice = NoMode, 0, 0
	for _, w := range seats {
		*evs = append(*evs, Event{Kind: EvWin, Seat: w, Slain: slain})
	}
}
