package dragon

import (
	"github.com/farkle/farkle/dice"
)

// Spectator is the seat of a View for someone who plays no seat.
const Spectator = -1

// CardView is a card as a front end shows it.
type CardView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Text string `json:"text"`
	Kind Kind   `json:"kind"`
	// Usable: its active effect may be used now (only in the owner's view).
	Usable bool `json:"usable,omitempty"`
}

// PlayerView is one player as seen from a seat: the Companion is public,
// the Magic Items only for their owner (others see how many).
type PlayerView struct {
	Name      string     `json:"name"`
	Soldiers  int        `json:"soldiers"`
	Companion *CardView  `json:"companion,omitempty"`
	Items     []CardView `json:"items,omitempty"` // nil for other seats
	ItemCount int        `json:"item_count"`
	ItemLimit int        `json:"item_limit"`
}

// View is what one seat may see of a game: everything of State except the
// other players' Magic Items, items they drew this turn and the order of
// the decks. Legal holds the seat's legal actions when the game waits for
// it (ToAct): on its turn, and as the defender while its Brawl throw lies
// on the table.
type View struct {
	Seat    int          `json:"seat"`
	Players []PlayerView `json:"players"`
	First   int          `json:"first"`
	Turn    int          `json:"turn"`
	ToAct   int          `json:"to_act"` // the seat the game waits for (State.ToAct); -1 when over
	Round   int          `json:"round"`
	Phase   Phase        `json:"phase"`
	Mode    Mode         `json:"mode"`
	Dice    int          `json:"dice"`
	Throw   dice.Hand    `json:"throw"`
	Event   EventFace    `json:"event"`
	Kept    dice.Hand    `json:"kept"`
	Wounded bool         `json:"wounded,omitempty"`
	Pool    int          `json:"pool"`
	// Drawn lists the items drawn this turn for the player to act; others
	// see only DrawnCount.
	Drawn        []CardView `json:"drawn,omitempty"`
	DrawnCount   int        `json:"drawn_count"`
	Used         []string   `json:"used,omitempty"`
	Damage       int        `json:"damage"`
	DragonHealth int        `json:"dragon_health"`

	CompanionDeck    int        `json:"companion_deck"`    // cards left
	CompanionDiscard []CardView `json:"companion_discard"` // face up
	ItemDeck         int        `json:"item_deck"`
	ItemDiscard      []CardView `json:"item_discard"` // face up

	// Brawl is the Brawl in progress (Mode "brawl"): Throw and Event are
	// the throw on the table, BrawlScore its score.
	Brawl      *BrawlState `json:"brawl,omitempty"`
	BrawlScore int         `json:"brawl_score,omitempty"`
	// Offer is the Companion a hire drew (phase "hire"); HireCost what a
	// hire costs (0: no hiring); Hired: the player hired this turn.
	Offer    *CardView `json:"offer,omitempty"`
	HireCost int       `json:"hire_cost,omitempty"`
	Hired    bool      `json:"hired,omitempty"`

	Stockpile int   `json:"stockpile"`
	Meal      int   `json:"meal"`
	Eaten     int   `json:"eaten"`
	Winners   []int `json:"winners,omitempty"`
	Slain     bool  `json:"slain,omitempty"`

	Legal []Action `json:"legal,omitempty"`
	// KeepValues holds, with Legal, what each legal keep would do to the
	// soldiers (card bonuses included), in the order of Legal's keeps.
	KeepValues []KeepValue `json:"keep_values,omitempty"`
}

func (g *Game) cardView(id string) CardView {
	c := g.cards.Card(id)
	if c == nil {
		return CardView{ID: id, Name: id}
	}
	return CardView{ID: c.ID, Name: c.Name, Text: c.Text, Kind: c.Kind}
}

// View filters s for seat (Spectator, or 0..players-1): other players'
// Magic Items and drawn items are hidden and the decks show only their
// size. The record keeps the full State; front ends get only Views.
func (g *Game) View(s State, seat int) View {
	v := View{
		Seat: seat, First: s.First, Turn: s.Turn, ToAct: s.ToAct(), Round: s.Round, Phase: s.Phase, Mode: s.Mode,
		HireCost: g.rules.HireCost, Hired: s.Hired,
		Dice: s.Dice, Throw: s.Throw, Event: s.Event, Kept: s.Kept, Wounded: s.Wounded, Pool: s.Pool,
		DrawnCount: len(s.Drawn), Damage: s.Damage, DragonHealth: g.rules.DragonHealth,
		CompanionDeck: len(s.CompanionDeck), ItemDeck: len(s.ItemDeck),
		Stockpile: s.Stockpile, Meal: s.Meal, Eaten: s.Eaten, Slain: s.Slain,
		Used:    append([]string(nil), s.Used...),
		Winners: append([]int(nil), s.Winners...),
	}
	if s.Brawl != nil {
		b := *s.Brawl
		v.Brawl, v.BrawlScore = &b, g.brawlScore(&s)
	}
	if s.Offer != "" {
		cv := g.cardView(s.Offer)
		v.Offer = &cv
	}
	var usable map[string]bool
	if seat == s.ToAct() && (s.Phase == PhaseKeep || s.Phase == PhaseBrawl) {
		usable = map[string]bool{}
		for _, a := range g.legalUses(&s) {
			usable[a.Card] = true
		}
	}
	for i, p := range s.Players {
		pv := PlayerView{Name: p.Name, Soldiers: p.Soldiers, ItemCount: len(p.Items), ItemLimit: g.ItemLimit(s, i)}
		if p.Companion != "" {
			cv := g.cardView(p.Companion)
			cv.Usable = i == seat && usable[p.Companion]
			pv.Companion = &cv
		}
		if i == seat {
			pv.Items = make([]CardView, 0, len(p.Items))
			for _, id := range p.Items {
				cv := g.cardView(id)
				cv.Usable = usable[id]
				pv.Items = append(pv.Items, cv)
			}
		}
		v.Players = append(v.Players, pv)
	}
	if seat == s.Turn {
		for _, id := range s.Drawn {
			v.Drawn = append(v.Drawn, g.cardView(id))
		}
	}
	if seat == s.ToAct() {
		v.Legal = g.Legal(s)
		v.KeepValues = g.keepValues(&s, v.Legal)
	}
	v.ItemDiscard = g.cardViews(s.ItemDiscard)
	v.CompanionDiscard = g.cardViews(s.CompanionDiscard)
	return v
}

func (g *Game) cardViews(ids []string) []CardView {
	out := make([]CardView, 0, len(ids))
	for _, id := range ids {
		out = append(out, g.cardView(id))
	}
	return out
}

// ViewEvents filters events for seat: the card of an item drawn by
// another player is hidden (Card is ""). Discarded and used cards are
// public.
func ViewEvents(evs []Event, seat int) []Event {
	out := make([]Event, len(evs))
	for i, e := range evs {
		if e.Kind == EvItemDrawn && e.Seat != seat {
			e.Card = ""
		}
		out[i] = e
	}
	return out
}
