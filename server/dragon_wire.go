package server

import (
	"cmp"
	"slices"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// Dragon Farkle on the wire (docs/API.md): the server's own types, filled
// from package dragon's, so that a change there changes what clients read
// only where this file says so.

// dragonView is the game as one seat sees it (dragon.View: other players'
// Magic Items hidden), with the state version and, on the seat's turn, the
// soldiers each legal keep is worth.
type dragonView struct {
	Seat          int                `json:"seat"`
	Players       []dragonPlayerView `json:"players"`
	First         int                `json:"first"`
	Turn          int                `json:"turn"`
	ToAct         int                `json:"to_act"` // the seat the game waits for: the turn's, or the defender's during their brawl throw; -1 when over
	Round         int                `json:"round"`
	Phase         string             `json:"phase"`
	Mode          string             `json:"mode"`
	Dice          int                `json:"dice"`
	Throw         []int              `json:"throw"`
	Event         string             `json:"event"`
	Kept          []int              `json:"kept"`
	Wounded       bool               `json:"wounded,omitempty"`
	Pool          int                `json:"pool"`
	Drawn         []cardView         `json:"drawn,omitempty"` // the items drawn this turn, for the player to act only
	DrawnCount    int                `json:"drawn_count"`
	Used          []string           `json:"used,omitempty"`
	Damage        int                `json:"damage"`
	DragonHealth  int                `json:"dragon_health"`
	CompanionDeck int                `json:"companion_deck"`
	// CompanionDiscard: the Companions dismissed after hires, face up.
	CompanionDiscard []cardView `json:"companion_discard"`
	ItemDeck         int        `json:"item_deck"`
	ItemDiscard      []cardView `json:"item_discard"`
	// Brawl is the brawl in progress (mode "brawl"); the throw on the
	// table is Throw and Event, worth BrawlScore.
	Brawl      *dragonBrawlView `json:"brawl,omitempty"`
	BrawlScore int              `json:"brawl_score,omitempty"`
	// Offer is the Companion a hire drew (phase "hire"); HireCost what a
	// hire costs (0: no hiring); Hired: the player to act hired this turn.
	Offer      *cardView          `json:"offer,omitempty"`
	HireCost   int                `json:"hire_cost,omitempty"`
	Hired      bool               `json:"hired,omitempty"`
	Stockpile  int                `json:"stockpile"`
	Meal       int                `json:"meal"`
	Eaten      int                `json:"eaten"`
	Winners    []int              `json:"winners,omitempty"`
	Slain      bool               `json:"slain,omitempty"`
	Legal      []dragonActionView `json:"legal,omitempty"`
	KeepValues []keepValueView    `json:"keep_values,omitempty"`
	Version    int                `json:"version"`
	Keeps      []dragonKeep       `json:"keeps,omitempty"`
}

// dragonBrawlView is a brawl in progress: the defender, whether the
// defender's throw lies on the table (else the challenger's), and once the
// challenger's throw is settled, that throw, its event die and its score.
type dragonBrawlView struct {
	Defender  int    `json:"defender"`
	Defending bool   `json:"defending"`
	Throw     []int  `json:"throw,omitempty"`
	Event     string `json:"event,omitempty"`
	Score     int    `json:"score"`
}

// dragonPlayerView is one player as a seat sees them.
type dragonPlayerView struct {
	Name      string     `json:"name"`
	Soldiers  int        `json:"soldiers"`
	Companion *cardView  `json:"companion,omitempty"`
	Items     []cardView `json:"items,omitempty"` // for the seat's own player only
	ItemCount int        `json:"item_count"`
	ItemLimit int        `json:"item_limit"`
}

// cardView is a card as a front end shows it.
type cardView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Text   string `json:"text"`
	Kind   string `json:"kind"`
	Usable bool   `json:"usable,omitempty"`
}

// dragonActionView is an action: as played, as legal, and as a client
// sends it back.
type dragonActionView struct {
	Kind   string `json:"kind"`
	Keep   []int  `json:"keep,omitempty"`
	Reward string `json:"reward,omitempty"`
	Target int    `json:"target"`
	Card   string `json:"card,omitempty"`
	Face   int    `json:"face,omitempty"`
}

// keepValueView is what a legal keep does to the soldiers.
type keepValueView struct {
	Dice     []int  `json:"dice"`
	Reward   string `json:"reward,omitempty"`
	Points   int    `json:"points"`
	Bonus    int    `json:"bonus,omitempty"`
	Soldiers int    `json:"soldiers"`
	Eaten    int    `json:"eaten,omitempty"`
	Cost     int    `json:"cost,omitempty"`
	Discount int    `json:"discount,omitempty"`
}

// dragonEventView is one event as a seat may see it.
type dragonEventView struct {
	Kind   string `json:"kind"`
	Seat   int    `json:"seat"`
	Dice   []int  `json:"dice,omitempty"`
	Face   string `json:"face"`
	N      int    `json:"n,omitempty"`
	Total  int    `json:"total,omitempty"`
	Target int    `json:"target"`
	Other  int    `json:"other,omitempty"`
	Winner int    `json:"winner"`
	Bonus  int    `json:"bonus,omitempty"`
	Reward string `json:"reward,omitempty"`
	Card   string `json:"card,omitempty"`
	Slain  bool   `json:"slain,omitempty"`
	Round  int    `json:"round,omitempty"`
	Battle bool   `json:"battle,omitempty"`
	Ending string `json:"ending,omitempty"`
}

// adviceView is the value of one legal action.
type adviceView struct {
	Action dragonActionView `json:"action"`
	Value  float64          `json:"value"`
	Unit   string           `json:"unit"`
}

// reward is the name of a Rally's reward, "" for none.
func reward(r dragon.Reward) string {
	if r == 0 {
		return ""
	}
	return name(r)
}

func cardOf(c dragon.CardView) cardView {
	return cardView{ID: c.ID, Name: c.Name, Text: c.Text, Kind: string(c.Kind), Usable: c.Usable}
}

func cardsOf(cs []dragon.CardView) []cardView {
	if cs == nil {
		return nil
	}
	out := make([]cardView, len(cs))
	for i, c := range cs {
		out[i] = cardOf(c)
	}
	return out
}

func dragonActionOf(a dragon.Action) dragonActionView {
	return dragonActionView{Kind: name(a.Kind), Keep: a.Keep.Faces(), Reward: reward(a.Reward), Target: a.Target, Card: a.Card, Face: a.Face}
}

// viewOfDragon is v on the wire at version.
func viewOfDragon(v dragon.View, version int) *dragonView {
	out := &dragonView{Seat: v.Seat, Players: make([]dragonPlayerView, len(v.Players)), First: v.First, Turn: v.Turn, ToAct: v.ToAct, Round: v.Round,
		Phase: name(v.Phase), Mode: name(v.Mode), Dice: v.Dice, Throw: faces(v.Throw), Event: name(v.Event), Kept: faces(v.Kept),
		Wounded: v.Wounded, Pool: v.Pool, Drawn: cardsOf(v.Drawn), DrawnCount: v.DrawnCount, Used: v.Used, Damage: v.Damage,
		DragonHealth: v.DragonHealth, CompanionDeck: v.CompanionDeck, ItemDeck: v.ItemDeck, ItemDiscard: append([]cardView{}, cardsOf(v.ItemDiscard)...),
		CompanionDiscard: append([]cardView{}, cardsOf(v.CompanionDiscard)...), BrawlScore: v.BrawlScore, HireCost: v.HireCost, Hired: v.Hired,
		Stockpile: v.Stockpile, Meal: v.Meal, Eaten: v.Eaten, Winners: v.Winners, Slain: v.Slain, Version: version}
	if b := v.Brawl; b != nil {
		out.Brawl = &dragonBrawlView{Defender: b.Defender, Defending: b.Defending, Score: b.Score}
		if b.Defending {
			out.Brawl.Throw, out.Brawl.Event = faces(b.Throw), name(b.Event)
		}
	}
	if v.Offer != nil {
		c := cardOf(*v.Offer)
		out.Offer = &c
	}
	for i, p := range v.Players {
		pv := dragonPlayerView{Name: p.Name, Soldiers: p.Soldiers, Items: cardsOf(p.Items), ItemCount: p.ItemCount, ItemLimit: p.ItemLimit}
		if p.Companion != nil {
			c := cardOf(*p.Companion)
			pv.Companion = &c
		}
		out.Players[i] = pv
	}
	for _, a := range v.Legal {
		out.Legal = append(out.Legal, dragonActionOf(a))
	}
	for _, k := range v.KeepValues {
		out.KeepValues = append(out.KeepValues, keepValueView{Dice: faces(k.Dice), Reward: reward(k.Reward), Points: k.Points, Bonus: k.Bonus,
			Soldiers: k.Soldiers, Eaten: k.Eaten, Cost: k.Cost, Discount: k.Discount})
	}
	return out
}

func eventsOf(evs []dragon.Event) []dragonEventView {
	out := make([]dragonEventView, len(evs))
	for i, e := range evs {
		out[i] = dragonEventView{Kind: name(e.Kind), Seat: e.Seat, Dice: e.Dice.Faces(), Face: name(e.Face), N: e.N, Total: e.Total,
			Target: e.Target, Other: e.Other, Winner: e.Winner, Bonus: e.Bonus, Reward: reward(e.Reward), Card: e.Card, Slain: e.Slain,
			Round: e.Round, Battle: e.Battle, Ending: string(e.Ending)}
	}
	return out
}

// adviceOf is the advice as a hint message has it: each valued action with
// its value and unit, in the order of the legal actions.
func adviceOf(adv *game.Advice, legal []game.Action) []adviceView {
	at := func(a game.Action) int { return slices.Index(legal, a) }
	cs := slices.Clone(adv.Choices)
	slices.SortStableFunc(cs, func(x, y game.Choice) int { return cmp.Compare(at(x.Action), at(y.Action)) })
	out := make([]adviceView, len(cs))
	for i, c := range cs {
		a, _ := c.Action.(dragon.Action)
		out[i] = adviceView{Action: dragonActionOf(a), Value: c.Value, Unit: units[adv.MeasureOf(c)]}
	}
	return out
}

// units are the units of a hint message's values by their measure.
var units = map[game.Measure]string{game.WinProbability: dragon.UnitPWin, game.ExpectedSoldiers: dragon.UnitSoldiers}

// dragonKeep is one legal keep with what it is worth: Points recruited
// (before a Rally's doubling), or Cost paid in a battle.
type dragonKeep struct {
	Dice   []int `json:"dice"`
	Points int   `json:"points"`
	Cost   int   `json:"cost,omitempty"`
}

// dragonLine is one line of a dragon table's log, as one seat may read it.
type dragonLine struct {
	Version int    `json:"version"` // the number of actions played when it happened
	Kind    string `json:"kind"`
	Seat    int    `json:"seat"`
	Text    string `json:"text"`
	// Dice, Face and N of a throw and of a throw a card changed (N: its
	// brawl score), and N of a brawl's outcome (the challenger's score), so
	// that a front end can show a brawl throw by throw.
	Dice []int  `json:"dice,omitempty"`
	Face string `json:"face,omitempty"`
	N    int    `json:"n,omitempty"`
}
