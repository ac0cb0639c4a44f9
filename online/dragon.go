package online

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/tui"
)

// Dragon Farkle online: the server sends each seat only its view
// (dragon.View: other players' Magic Items and the decks' order hidden)
// and the events it may see, never the dice source, so the game cannot be
// replayed here. The terminal holds instead a game rebuilt from the view
// (seen): the seat's view of it is the view the server sent, so that the
// screen, the checks of the seat's own actions and the hints (which read
// only the seat's view) work on it as on a local game.
func init() {
	followers[game.Dragon] = followerKind{
		started: func(welcome []byte) bool {
			var m dragonMsg
			return json.Unmarshal(welcome, &m) == nil && m.Dragon != nil
		},
		start: startDragon,
	}
}

// dragonWire is the dragon object of a message: the seat's view and the
// number of actions played.
type dragonWire struct {
	dragon.View
	Version int `json:"version"`
}

// dragonMsg is the part of a Dragon Farkle welcome or update the terminal
// reads.
type dragonMsg struct {
	Dragon *dragonWire    `json:"dragon"`
	Events []dragon.Event `json:"events"`
	// Log is the log so far (a welcome) or of this update, in the words
	// of the server (the language the link asked for).
	Log []struct {
		Text string `json:"text"`
	} `json:"log"`
}

// maxEarlier bounds the log lines kept of a game joined mid-way, and
// maxLineRunes each line (the terminal shows the last few).
const (
	maxEarlier   = 400
	maxLineRunes = 300
)

// dragonFollower is a Dragon Farkle table as one seat sees it.
type dragonFollower struct {
	v    *game.DragonVariant
	g    *game.DragonGame
	seat int
	log  []string // the welcome's log lines, the last maxEarlier
}

// earlier implements earlierLines: the welcome's log, as the server wrote
// it.
func (f *dragonFollower) earlier() []string { return f.log }

func startDragon(rec *game.Record, msg []byte, seat int) (follower, []game.Event, error) {
	v, err := rec.Variant()
	if err != nil {
		return nil, nil, err
	}
	dv, ok := v.(*game.DragonVariant) // this follower's own variant
	if !ok {
		return nil, nil, fmt.Errorf("online: the record of a %s table is not Dragon Farkle", rec.Kind)
	}
	var m dragonMsg
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, nil, fmt.Errorf("online: a Dragon Farkle message the terminal cannot read: %w", err)
	}
	if m.Dragon == nil {
		return nil, nil, fmt.Errorf("online: the Dragon Farkle table sent no game")
	}
	if err := checkView(dv.Game(), m.Dragon.View, seat); err != nil {
		return nil, nil, err
	}
	f := &dragonFollower{v: dv, seat: seat}
	f.g = dv.At(seen(dv.Game(), m.Dragon.View), m.Dragon.Version)
	if len(m.Events) > 0 {
		// The whole game's events (a server that still holds them from
		// the start): the terminal writes the log in its own words.
		evs := make([]game.Event, len(m.Events))
		for i, e := range m.Events {
			evs[i] = e
		}
		return f, evs, nil
	}
	for _, l := range m.Log[max(0, len(m.Log)-maxEarlier):] {
		if t := tui.SafeLine(l.Text, maxLineRunes); t != "" {
			f.log = append(f.log, t)
		}
	}
	return f, nil, nil
}

func (f *dragonFollower) game() game.Game { return f.g }

// update takes the view of an update: the game is the one it shows, and
// its events are those the seat may see.
func (f *dragonFollower) update(msg []byte) ([]game.Event, bool, error) {
	var m dragonMsg
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, false, err
	}
	if m.Dragon == nil || m.Dragon.Version <= f.g.Version() {
		return nil, false, nil
	}
	if err := checkView(f.v.Game(), m.Dragon.View, f.seat); err != nil {
		return nil, false, err
	}
	f.g = f.v.At(seen(f.v.Game(), m.Dragon.View), m.Dragon.Version)
	if m.Dragon.Version != f.g.Version() {
		return nil, false, fmt.Errorf("online: update %d after %d", m.Dragon.Version, f.g.Version())
	}
	evs := make([]game.Event, len(m.Events))
	for i, e := range m.Events {
		evs[i] = e
	}
	return evs, true, nil
}

// wire is a dragon.Action as an action message has it: its own JSON.
func (f *dragonFollower) wire(a game.Action) (any, error) {
	da, ok := a.(dragon.Action) // this follower's own variant's action
	if !ok {
		return nil, fmt.Errorf("online: %T is not a Dragon Farkle action", a)
	}
	return da, nil
}

// checkView refuses a view no game of g can show seat: a server's answer
// is read as hostile, and its counts become cards here (seen), so each is
// bounded by the card set before anything is made of it.
func checkView(g *dragon.Game, v dragon.View, seat int) error {
	cards := g.Cards()
	r := g.Rules()
	n := len(v.Players)
	bad := func(what string, got, most int) error {
		return fmt.Errorf("%w: %s is %d, outside 0 to %d", ErrBadMessage, what, got, most)
	}
	switch {
	case n < r.MinPlayers || n > r.MaxPlayers:
		return bad("the number of players", n, r.MaxPlayers)
	case v.Seat != seat:
		return fmt.Errorf("%w: a view for seat %d sent to seat %d", ErrBadMessage, v.Seat, seat)
	case v.Turn < 0 || v.Turn >= n:
		return bad("turn", v.Turn, n-1)
	case v.First < 0 || v.First >= n:
		return bad("first", v.First, n-1)
	case v.CompanionDeck < 0 || v.CompanionDeck > len(cards.Companions):
		return bad("companion_deck", v.CompanionDeck, len(cards.Companions))
	case v.ItemDeck < 0 || v.ItemDeck > len(cards.Items):
		return bad("item_deck", v.ItemDeck, len(cards.Items))
	case v.DrawnCount < 0 || v.DrawnCount > len(cards.Items):
		return bad("drawn_count", v.DrawnCount, len(cards.Items))
	case v.Brawl != nil && (v.Brawl.Defender < 0 || v.Brawl.Defender >= n):
		return bad("brawl.defender", v.Brawl.Defender, n-1)
	}
	for i, p := range v.Players {
		if p.ItemCount < 0 || p.ItemCount > len(cards.Items) {
			return bad(fmt.Sprintf("players[%d].item_count", i), p.ItemCount, len(cards.Items))
		}
	}
	return nil
}

// hidden is the id of a card the seat cannot see: another player's Magic
// Item, an item another drew this turn, a card of a deck.
const hidden = "?"

// seen returns a state of g whose view for v.Seat is v: what the seat
// sees is taken as it is, and what it does not see (other players' Magic
// Items, the items another drew this turn, the decks' cards) is as many
// cards of the id hidden, but for the items that raise a player's item
// limit, which the view shows (holdItems). The turns finished are counted
// from the round and the seat to play.
func seen(g *dragon.Game, v dragon.View) dragon.State {
	ids := func(cs []dragon.CardView) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.ID
		}
		return out
	}
	n := len(v.Players)
	s := dragon.State{
		First: v.First, Turn: v.Turn, Round: v.Round, Phase: v.Phase, Mode: v.Mode,
		Dice: v.Dice, Throw: v.Throw, Event: v.Event, Kept: v.Kept, Wounded: v.Wounded, Pool: v.Pool,
		Used: slices.Clone(v.Used), Damage: v.Damage, Hired: v.Hired,
		CompanionDeck: slices.Repeat([]string{hidden}, v.CompanionDeck), CompanionDiscard: ids(v.CompanionDiscard),
		ItemDeck: slices.Repeat([]string{hidden}, v.ItemDeck), ItemDiscard: ids(v.ItemDiscard),
		Stockpile: v.Stockpile, Meal: v.Meal, Eaten: v.Eaten, Winners: slices.Clone(v.Winners), Slain: v.Slain,
	}
	if n > 0 {
		s.Turns = (v.Round-1)*n + (v.Turn-v.First+n)%n
	}
	if v.Brawl != nil {
		b := *v.Brawl
		s.Brawl = &b
	}
	if v.Offer != nil {
		s.Offer = v.Offer.ID
	}
	if v.Seat == v.Turn {
		s.Drawn = ids(v.Drawn)
	} else if v.DrawnCount > 0 {
		s.Drawn = slices.Repeat([]string{hidden}, v.DrawnCount)
	}
	for i, p := range v.Players {
		ps := dragon.Player{Name: p.Name, Soldiers: p.Soldiers, Items: slices.Repeat([]string{hidden}, p.ItemCount)}
		if i == v.Seat {
			ps.Items = ids(p.Items)
		}
		if p.Companion != nil {
			ps.Companion = p.Companion.ID
		}
		s.Players = append(s.Players, ps)
	}
	for i, p := range v.Players {
		if i != v.Seat {
			holdItems(g, &s, i, p.ItemLimit)
		}
	}
	return s
}

// holdItems makes as many of the hidden items of seat cards that let it
// hold more Magic Items (hold_items) as its limit, which every seat sees,
// says it holds.
func holdItems(g *dragon.Game, s *dragon.State, seat, limit int) {
	items := s.Players[seat].Items
	for j := range items {
		more := limit - g.ItemLimit(*s, seat)
		if more <= 0 {
			return
		}
		for _, c := range g.Cards().Items {
			if n := c.Sum(dragon.HoldItems, ""); n > 0 && n <= more {
				items[j] = c.ID
				break
			}
		}
	}
}
