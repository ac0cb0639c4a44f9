package dragon

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/farkle/farkle/dice"
)

// Game is an immutable Dragon Farkle rule set ready to play: the rules,
// the soldier keep table and the card set. It is safe for concurrent use;
// all game data lives in State.
type Game struct {
	rules Rules
	table *dice.Table
	cards *Cards
}

// NewGame returns a Game for r with the card set cards (nil: DefaultCards).
// It returns an error wrapping ErrInvalid if r is not valid.
func NewGame(r Rules, cards *Cards) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if cards == nil {
		cards = DefaultCards()
	}
	return &Game{rules: r, table: dice.NewTable(r.Soldiers), cards: cards}, nil
}

// MustGame is NewGame for rules known to be valid; it panics otherwise.
func MustGame(r Rules, cards *Cards) *Game {
	g, err := NewGame(r, cards)
	if err != nil {
		panic(err)
	}
	return g
}

// Rules returns the game's rules.
func (g *Game) Rules() Rules { return g.rules }

// Table returns the soldier keep table.
func (g *Game) Table() *dice.Table { return g.table }

// Cards returns the card set.
func (g *Game) Cards() *Cards { return g.cards }

// New deals a game for the named players (2 to 5 by default): it shuffles
// both decks, deals each player one Companion (face up) and one Magic Item
// (hidden) in seat order, and draws the first player at random, all from
// src in that order. It returns the state and the first EvTurn event.
func (g *Game) New(players []string, src dice.Source) (State, []Event, error) {
	r := &g.rules
	if len(players) < r.MinPlayers || len(players) > r.MaxPlayers {
		return State{}, nil, refuse(ErrPlayers, "dragon.err.players", "count", len(players), "min", r.MinPlayers, "max", r.MaxPlayers)
	}
	s := State{Players: make([]Player, len(players)), Round: 1, Phase: PhaseChoose}
	for i, name := range players {
		if strings.TrimSpace(name) == "" {
			return State{}, nil, refuse(ErrPlayers, "dragon.err.noName", "seat", i+1)
		}
		s.Players[i] = Player{Name: name, Items: []string{}}
	}
	s.CompanionDeck = ids(g.cards.Companions)
	s.ItemDeck = ids(g.cards.Items)
	shuffle(s.CompanionDeck, src)
	shuffle(s.ItemDeck, src)
	s.CompanionDiscard, s.ItemDiscard = []string{}, []string{}
	for i := range s.Players {
		if id, ok := g.draw(&s, Companion, src, nil); ok {
			s.Players[i].Companion = id
		}
		if id, ok := g.draw(&s, Item, src, nil); ok {
			s.Players[i].Items = append(s.Players[i].Items, id)
		}
	}
	s.First = dice.Intn(src, len(players))
	s.Turn = s.First
	var evs []Event
	if b := r.SeatBonus; b > 0 {
		// Every player but the first starts with the seat bonus, from the
		// stockpile, in turn order.
		for k := 1; k < len(players); k++ {
			seat := (s.First + k) % len(players)
			s.Players[seat].Soldiers += b
			s.Stockpile -= b
			evs = append(evs, Event{Kind: EvStart, Seat: seat, N: b})
		}
	}
	return s, append(evs, Event{Kind: EvTurn, Seat: s.Turn, Round: 1}), nil
}

func ids(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// shuffle is a Fisher-Yates shuffle drawing from src.
func shuffle(a []string, src dice.Source) {
	for i := len(a) - 1; i > 0; i-- {
		j := dice.Intn(src, i+1)
		a[i], a[j] = a[j], a[i]
	}
}

// draw takes the top card of a deck, reshuffling its discards when it is
// empty; ok is false when deck and discards are both empty.
func (g *Game) draw(s *State, kind Kind, src dice.Source, evs *[]Event) (string, bool) {
	deck, discard := &s.ItemDeck, &s.ItemDiscard
	if kind == Companion {
		deck, discard = &s.CompanionDeck, &s.CompanionDiscard
	}
	if len(*deck) == 0 {
		if len(*discard) == 0 {
			return "", false
		}
		*deck, *discard = *discard, []string{}
		shuffle(*deck, src)
		if evs != nil {
			*evs = append(*evs, Event{Kind: EvReshuffle, Seat: s.Turn, Card: string(kind)})
		}
	}
	n := len(*deck) - 1
	id := (*deck)[n]
	*deck = (*deck)[:n]
	return id, true
}

// Apply plays action a for the seat the game waits for (State.ToAct) and
// returns the new state and what happened. Dice, the event die and
// reshuffles are drawn from src (a throw draws its dice in order, then the
// event die). An illegal action returns an error wrapping ErrIllegal (or ErrBadAction,
// ErrGameOver) that says why and what is allowed; s is never modified,
// whether the action is legal or not.
func (g *Game) Apply(s State, a Action, src dice.Source) (State, []Event, error) {
	if s.Phase == PhaseOver {
		return s, nil, refuse(ErrGameOver, "dragon.err.over")
	}
	if err := g.check(&s, a); err != nil {
		return s, nil, err
	}
	n := s.Clone()
	var evs []Event
	g.apply(&n, a, src, &evs)
	return n, evs, nil
}

// ApplyFor is Apply for an action sent by the player in seat: it returns
// Check's error, with s unchanged, unless the action is legal for seat.
// Servers use it; Apply trusts its caller to be the seat to act, which is
// the player whose turn it is or, during their Brawl throw, the defender.
func (g *Game) ApplyFor(s State, seat int, a Action, src dice.Source) (State, []Event, error) {
	if err := g.Check(s, seat, a); err != nil {
		return s, nil, err
	}
	n := s.Clone()
	var evs []Event
	g.apply(&n, a, src, &evs)
	return n, evs, nil
}

// Check reports whether ApplyFor would accept action a from seat in s,
// without a source and without playing it: nil, or an error wrapping
// ErrGameOver, ErrNotTurn, ErrBadAction or ErrIllegal that says why.
func (g *Game) Check(s State, seat int, a Action) error {
	if s.Phase == PhaseOver {
		return refuse(ErrGameOver, "dragon.err.over")
	}
	if actor := s.ToAct(); seat != actor {
		var name any = said("dragon.err.spectator")
		if seat >= 0 && seat < len(s.Players) {
			name = s.Players[seat].Name
		}
		if actor != s.Turn {
			return refuse(ErrNotTurn, "dragon.err.waitsDefender", "p", s.Players[actor].Name, "q", name)
		}
		return refuse(ErrNotTurn, "dragon.err.notTurn", "p", s.Players[s.Turn].Name, "q", name)
	}
	return g.check(&s, a)
}

// check returns why a is not legal in s for the seat to act, or nil.
func (g *Game) check(s *State, a Action) error {
	p := &s.Players[s.ToAct()]
	wrong := func() error {
		return refuse(ErrIllegal, "dragon.err.notNow", "kind", a.Kind.String(), "when", phaseWords(s.Phase), "allowed", g.allowedKinds(s))
	}
	if a.Kind == 0 || int(a.Kind) >= len(actionNames) {
		return refuse(ErrBadAction, "dragon.err.unknownKind", "kind", int(a.Kind))
	}
	if err := checkFields(a); err != nil {
		return err
	}
	switch a.Kind {
	case ActRecruit, ActBattle, ActBrawl:
		if s.Phase != PhaseChoose {
			return wrong()
		}
		if need := g.battleNeeds(); a.Kind == ActBattle && p.Soldiers < need {
			return refuse(ErrIllegal, "dragon.err.battleNeeds", "need", need, "have", p.Soldiers)
		}
		if a.Kind == ActBrawl {
			if a.Target < 0 || a.Target >= len(s.Players) {
				return refuse(ErrIllegal, "dragon.err.noSeat", "seat", a.Target, "last", len(s.Players)-1)
			}
			if a.Target == s.Turn {
				return refuse(ErrIllegal, "dragon.err.brawlSelf", "seat", a.Target)
			}
		}
		return nil
	case ActHire:
		if s.Phase != PhaseChoose {
			return wrong()
		}
		return g.checkHire(s)
	case ActDismiss:
		if s.Phase != PhaseHire {
			return wrong()
		}
		if a.Card == "" || (a.Card != s.Offer && a.Card != p.Companion) {
			return refuse(ErrIllegal, "dragon.err.dismiss", "card", strconv.Quote(a.Card), "mine", strconv.Quote(p.Companion), "offer", strconv.Quote(s.Offer))
		}
		return nil
	case ActPass:
		if s.Phase != PhaseBrawl {
			return wrong()
		}
		return nil
	case ActKeep:
		if s.Phase != PhaseKeep {
			return wrong()
		}
		return g.checkKeep(s, a)
	case ActUse:
		if s.Phase != PhaseKeep && s.Phase != PhaseBrawl {
			return wrong()
		}
		return g.checkUse(s, a)
	case ActAccept:
		if s.Phase != PhaseKeep {
			return wrong()
		}
		if len(g.keeps(s)) > 0 {
			return refuse(ErrIllegal, "dragon.err.accept", "throw", s.Throw.String())
		}
		return nil
	case ActRoll:
		if s.Phase != PhaseRoll && s.Phase != PhaseEvaded {
			return wrong()
		}
		return nil
	case ActStop:
		if (s.Phase != PhaseRoll && s.Phase != PhaseEvaded) || s.Mode != Recruiting {
			if s.Mode == Battling && s.Phase == PhaseRoll {
				return refuse(ErrIllegal, "dragon.err.stopBattle")
			}
			return wrong()
		}
		return nil
	case ActRetreat:
		if s.Phase != PhaseRoll || s.Mode != Battling {
			return wrong()
		}
		return nil
	case ActDiscard:
		if s.Phase != PhaseDiscard {
			return wrong()
		}
		if !slices.Contains(p.Items, a.Card) {
			return refuse(ErrIllegal, "dragon.err.discard", "card", strconv.Quote(a.Card), "items", strings.Join(p.Items, ", "))
		}
		return nil
	}
	return wrong()
}

// checkFields rejects an action that sets a field its kind does not use,
// so that every accepted action equals one that Legal lists.
func checkFields(a Action) error {
	var stray []string
	if a.Keep != 0 && a.Kind != ActKeep {
		stray = append(stray, "keep")
	}
	if a.Reward != NoReward && a.Kind != ActKeep {
		stray = append(stray, "reward")
	}
	if a.Target != 0 && a.Kind != ActBrawl {
		stray = append(stray, "target")
	}
	if a.Card != "" && a.Kind != ActUse && a.Kind != ActDiscard && a.Kind != ActDismiss {
		stray = append(stray, "card")
	}
	if a.Face != 0 && a.Kind != ActUse {
		stray = append(stray, "face")
	}
	if len(stray) > 0 {
		return refuse(ErrBadAction, "dragon.err.stray", "kind", a.Kind.String(), "fields", strings.Join(stray, ", "))
	}
	return nil
}

func (g *Game) allowedKinds(s *State) kindList {
	var kinds kindList
	for _, a := range g.Legal(*s) {
		if !slices.Contains(kinds, a.Kind) {
			kinds = append(kinds, a.Kind)
		}
	}
	return kinds
}

// keeps returns the legal keeps of the throw on the table: in battle the
// ones the player can pay; recruiting under a Dragon only the keep of all
// scoring dice.
func (g *Game) keeps(s *State) []dice.Keep {
	all := g.table.Keeps(s.Throw)
	if len(all) == 0 {
		return nil
	}
	switch {
	case s.Mode == Recruiting && s.Event == Dragon:
		return all[len(all)-1:] // sorted by dice count: the last keep has every scoring die
	case s.Mode == Battling:
		soldiers := s.Players[s.Turn].Soldiers
		var out []dice.Keep
		for _, k := range all {
			if g.cost(s, int(k.Points)) <= soldiers {
				out = append(out, k)
			}
		}
		return out
	}
	return all
}

// allScoring returns the keep of every scoring die of a throw: the largest
// legal keep. The union of all scoring dice is itself a legal keep for
// every meld set built by dice.Melds (singles, n of a kind, straights, pairs).
func (g *Game) allScoring(throw dice.Hand) dice.Keep {
	ks := g.table.Keeps(throw)
	return ks[len(ks)-1]
}

func (g *Game) cost(s *State, points int) int {
	return max(0, points-g.sum(s, s.Turn, BattleDiscount, ""))
}

// sum adds up passive effect p over a player's Companion and items.
func (g *Game) sum(s *State, seat int, p Primitive, meld string) int {
	pl := &s.Players[seat]
	n := 0
	if c := g.cards.Card(pl.Companion); c != nil {
		n += c.Sum(p, meld)
	}
	for _, id := range pl.Items {
		if c := g.cards.Card(id); c != nil {
			n += c.Sum(p, meld)
		}
	}
	return n
}

func (g *Game) checkKeep(s *State, a Action) error {
	legal := g.keeps(s)
	for _, k := range legal {
		if k.Hand == a.Keep {
			return g.checkReward(s, a)
		}
	}
	var ke *dice.KeepError
	if err := g.table.CheckKeep(s.Throw, a.Keep); errors.As(err, &ke) {
		return refuse(ErrIllegal, "dragon.err.keep", "keep", a.Keep.String(), "why", keepWhy{ke})
	}
	if s.Mode == Recruiting && s.Event == Dragon {
		return refuse(ErrIllegal, "dragon.err.keepDragon", "keep", a.Keep.String(), "all", legal[0].Hand.String())
	}
	if s.Mode == Battling {
		pts, _ := g.table.Points(a.Keep)
		return refuse(ErrIllegal, "dragon.err.keepCost", "keep", a.Keep.String(), "cost", g.cost(s, pts), "have", s.Players[s.Turn].Soldiers)
	}
	return refuse(ErrIllegal, "dragon.err.keepNot", "keep", a.Keep.String())
}

func (g *Game) checkReward(s *State, a Action) error {
	rally := s.Mode == Recruiting && s.Event == Rally
	switch {
	case rally && a.Reward == NoReward:
		return refuse(ErrIllegal, "dragon.err.rallyReward", "keep", a.Keep.String())
	case rally && a.Reward != Double && a.Reward != DrawItem:
		return refuse(ErrBadAction, "dragon.err.unknownReward", "keep", a.Keep.String(), "reward", int(a.Reward))
	case !rally && a.Reward != NoReward:
		return refuse(ErrIllegal, "dragon.err.noRally", "keep", a.Keep.String())
	}
	return nil
}

// checkHire returns why the player to act may not hire a Companion now.
func (g *Game) checkHire(s *State) error {
	cost, p := g.rules.HireCost, &s.Players[s.Turn]
	switch {
	case cost == 0:
		return refuse(ErrIllegal, "dragon.err.hireNone")
	case s.Hired:
		return refuse(ErrIllegal, "dragon.err.hireOnce")
	case p.Soldiers < cost:
		return refuse(ErrIllegal, "dragon.err.hireCost", "cost", cost, "have", p.Soldiers)
	case len(s.CompanionDeck)+len(s.CompanionDiscard) == 0:
		return refuse(ErrIllegal, "dragon.err.hireEmpty")
	}
	return nil
}

// moment is where a card used now would be used.
func (s *State) moment() Moment {
	switch s.Mode {
	case Battling:
		return AtBattle
	case Brawling:
		return AtBrawl
	}
	return AtRecruit
}

// canUse reports whether card id, held by the seat to act, may have its
// active effect used now on the throw on the table; if not, why.
func (g *Game) canUse(s *State, id string) (Effect, *Refusal) {
	q := strconv.Quote(id)
	p := &s.Players[s.ToAct()]
	c := g.cards.Card(id)
	if c == nil || (p.Companion != id && !slices.Contains(p.Items, id)) {
		return Effect{}, refuse(ErrIllegal, "dragon.err.useNotHeld", "card", q)
	}
	e, ok := c.Active()
	if !ok {
		return Effect{}, refuse(ErrIllegal, "dragon.err.usePassive", "card", q, "name", cardWords{c.ID, c.Name})
	}
	if c.Kind == Companion && slices.Contains(s.Used, id) {
		return Effect{}, refuse(ErrIllegal, "dragon.err.useUsed", "card", q, "name", cardWords{c.ID, c.Name})
	}
	if m := s.moment(); !slices.Contains(e.Moments(), m) {
		return Effect{}, refuse(ErrIllegal, "dragon.err.useWhen", "card", q, "name", cardWords{c.ID, c.Name}, "now", momentList{m}, "when", momentList(e.Moments()))
	}
	switch e.Primitive {
	case Rethrow:
	case TwoAsFive:
		if s.Throw.Count(2) == 0 {
			return Effect{}, refuse(ErrIllegal, "dragon.err.useNoTwo", "card", q, "throw", s.Throw.String())
		}
	case IgnoreDragon:
		if s.Event != Dragon {
			return Effect{}, refuse(ErrIllegal, "dragon.err.useNoDragon", "card", q)
		}
	case RerollFarkle:
		farkle := len(g.keeps(s)) == 0
		if s.Mode == Brawling {
			farkle = g.table.Farkle(s.Throw)
		}
		if !farkle {
			return Effect{}, refuse(ErrIllegal, "dragon.err.useNoFarkle", "card", q)
		}
	}
	return e, nil
}

func (g *Game) checkUse(s *State, a Action) error {
	e, r := g.canUse(s, a.Card)
	if r != nil {
		return r
	}
	if e.Primitive == Rethrow {
		if a.Face < 1 || a.Face > 6 || s.Throw.Count(a.Face) == 0 {
			return refuse(ErrIllegal, "dragon.err.useFace", "card", strconv.Quote(a.Card), "throw", s.Throw.String(), "face", a.Face)
		}
	} else if a.Face != 0 {
		return refuse(ErrBadAction, "dragon.err.useNoFace", "card", strconv.Quote(a.Card), "primitive", string(e.Primitive))
	}
	return nil
}

// heldActive lists the cards of the seat to act, Companion first, then
// items in hand order.
func (g *Game) heldActive(s *State) []string {
	p := &s.Players[s.ToAct()]
	var out []string
	if p.Companion != "" {
		out = append(out, p.Companion)
	}
	out = append(out, p.Items...)
	return out
}

// Legal returns every legal action of the seat to act (State.ToAct), in
// a stable order; empty when the game is over. Every action it lists is
// accepted by Apply, and Apply rejects every other.
func (g *Game) Legal(s State) []Action {
	var out []Action
	switch s.Phase {
	case PhaseChoose:
		out = append(out, Recruit())
		for t := range s.Players {
			if t != s.Turn {
				out = append(out, Brawl(t))
			}
		}
		if s.Players[s.Turn].Soldiers >= g.battleNeeds() {
			out = append(out, Battle())
		}
		if g.checkHire(&s) == nil {
			out = append(out, Hire())
		}
	case PhaseHire:
		out = append(out, Dismiss(s.Players[s.Turn].Companion), Dismiss(s.Offer))
	case PhaseBrawl:
		out = append(out, g.legalUses(&s)...)
		out = append(out, Pass())
	case PhaseKeep:
		ks := g.keeps(&s)
		for _, k := range ks {
			if s.Mode == Recruiting && s.Event == Rally {
				out = append(out, KeepRally(k.Hand, Double), KeepRally(k.Hand, DrawItem))
			} else {
				out = append(out, Keep(k.Hand))
			}
		}
		out = append(out, g.legalUses(&s)...)
		if len(ks) == 0 {
			out = append(out, Accept())
		}
	case PhaseEvaded:
		out = append(out, Roll(), Stop())
	case PhaseRoll:
		out = append(out, Roll())
		if s.Mode == Battling {
			out = append(out, Retreat())
		} else {
			out = append(out, Stop())
		}
	case PhaseDiscard:
		for _, id := range s.Players[s.Turn].Items {
			out = append(out, Discard(id))
		}
	}
	return out
}

// LegalFor returns the legal actions of seat: Legal when the game waits
// for seat, else none.
func (g *Game) LegalFor(s State, seat int) []Action {
	if seat != s.ToAct() {
		return nil
	}
	return g.Legal(s)
}

func (g *Game) legalUses(s *State) []Action {
	var out []Action
	for _, id := range g.heldActive(s) {
		e, err := g.canUse(s, id)
		if err != nil {
			continue
		}
		if e.Primitive == Rethrow {
			for f := 1; f <= 6; f++ {
				if s.Throw.Count(f) > 0 {
					out = append(out, Use(id, f))
				}
			}
			continue
		}
		out = append(out, Use(id, 0))
	}
	return out
}

// ItemLimit returns how many Magic Items the player in seat may hold at
// the end of a turn: the rules' limit plus every hold_items effect held.
func (g *Game) ItemLimit(s State, seat int) int {
	return g.rules.ItemLimit + g.sum(&s, seat, HoldItems, "")
}

// battleNeeds is the least army that may start a Final Battle: the battle
// minimum, and in the army battle at least one wave.
func (g *Game) battleNeeds() int {
	if g.rules.Army() {
		return max(g.rules.BattleMinimum, g.rules.BattleWave)
	}
	return g.rules.BattleMinimum
}

// BattleCost returns what keeping points' worth of dice costs the player
// to act in the Final Battle (after battle_discount effects).
func (g *Game) BattleCost(s State, points int) int { return g.cost(&s, points) }
