package dragon

import "github.com/farkle/farkle/dice"

// KeepValue is what keeping some dice of the throw on the table does to
// the soldiers, every card bonus included: Soldiers recruited into the
// pool (after meld bonuses and a Rally's doubling), Eaten by the dragon
// under the Dragon face, or Cost paid in the Final Battle. The game
// applies a keep with the same computation, so a front end's preview and
// what is added cannot differ.
type KeepValue struct {
	Dice     dice.Hand `json:"dice"`
	Reward   Reward    `json:"reward,omitempty"`
	Points   int       `json:"points"`             // the dice's worth on the soldier table
	Bonus    int       `json:"bonus,omitempty"`    // meld bonuses of the player's cards
	Soldiers int       `json:"soldiers"`           // added to the pool
	Eaten    int       `json:"eaten,omitempty"`    // eaten by the dragon instead
	Cost     int       `json:"cost,omitempty"`     // paid in the Final Battle
	Discount int       `json:"discount,omitempty"` // battle discount of the player's cards
}

// ValueKeep returns what keeping keep (with reward on a recruiting Rally)
// would do for the player to act in s. It does not check that the keep is
// legal; dice that do not score are worth 0.
func (g *Game) ValueKeep(s State, keep dice.Hand, reward Reward) KeepValue {
	return g.keepValue(&s, keep, reward)
}

func (g *Game) keepValue(s *State, keep dice.Hand, reward Reward) KeepValue {
	pts, _ := g.table.Points(keep)
	kv := KeepValue{Dice: keep, Reward: reward, Points: pts}
	if s.Mode == Battling {
		kv.Reward = NoReward
		kv.Cost = g.cost(s, pts)
		kv.Discount = pts - kv.Cost
		return kv
	}
	for _, m := range g.table.Split(keep) {
		kv.Bonus += g.sum(s, s.Turn, MeldBonus, meldKind(m))
	}
	got := pts + kv.Bonus
	switch {
	case s.Event == Dragon:
		kv.Reward, kv.Eaten = NoReward, got
		return kv
	case s.Event == Rally && reward == Double:
		got *= 2
	case s.Event != Rally:
		kv.Reward = NoReward
	}
	kv.Soldiers = got
	return kv
}

// keepValues returns the value of every legal keep action of s.
func (g *Game) keepValues(s *State, legal []Action) []KeepValue {
	var out []KeepValue
	for _, a := range legal {
		if a.Kind == ActKeep {
			out = append(out, g.keepValue(s, a.Keep, a.Reward))
		}
	}
	return out
}
