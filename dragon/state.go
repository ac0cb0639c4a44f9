package dragon

import (
	"fmt"
	"slices"

	"github.com/farkle/farkle/dice"
)

// Phase is where a turn stands: it decides which actions are legal.
type Phase uint8

// The phases of a turn.
const (
	// PhaseChoose: the start of a turn; Recruit, Brawl or Battle.
	PhaseChoose Phase = iota
	// PhaseKeep: a throw lies on the table; Keep, Use a card, or Accept
	// when no keep is possible (a farkle, or a battle keep the player
	// cannot pay) and a card could still change that.
	PhaseKeep
	// PhaseEvaded: recruiting, the Dragon showed on a throw without scoring
	// dice; Roll the same dice again or Stop.
	PhaseEvaded
	// PhaseRoll: between throws; Roll, or Stop (recruiting) / Retreat (battle).
	PhaseRoll
	// PhaseDiscard: the turn is over but the player holds more Magic Items
	// than allowed; Discard one at a time.
	PhaseDiscard
	// PhaseOver: the game has ended.
	PhaseOver
	// PhaseBrawl: a Brawl throw lies on the table and its thrower (the
	// challenger, or the defender on another player's turn: State.ToAct)
	// holds a card usable on it; Use a card or Pass. Only with
	// card_timing = "anytime".
	PhaseBrawl
	// PhaseHire: the player hired a Companion (State.Offer); Dismiss one
	// of the two, then choose the turn's action.
	PhaseHire
)

var phaseNames = [...]string{"choose", "keep", "evaded", "roll", "discard", "over", "brawl", "hire"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// MarshalText writes the phase name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase name.
func (p *Phase) UnmarshalText(b []byte) error {
	i, err := lookup(phaseNames[:], "phase", b)
	*p = Phase(i)
	return err
}

func lookup(names []string, what string, b []byte) (int, error) {
	for i, n := range names {
		if n == string(b) && n != "" {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown %s %q", ErrBadAction, what, b)
}

// Mode is the action a turn is taking.
type Mode uint8

// The modes of a turn.
const (
	NoMode Mode = iota
	Recruiting
	Battling
	Brawling // a Brawl whose throws wait for cards (card_timing = "anytime")
)

var modeNames = []string{"none", "recruit", "battle", "brawl"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "none"
}

// MarshalText writes "none", "recruit", "battle" or "brawl".
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads "none", "recruit", "battle" or "brawl".
func (m *Mode) UnmarshalText(b []byte) error {
	i, err := lookup(modeNames, "mode", b)
	*m = Mode(i)
	return err
}

// Player is one Wannabe.
type Player struct {
	Name      string   `json:"name"`
	Soldiers  int      `json:"soldiers"`
	Companion string   `json:"companion,omitempty"` // card id, face up
	Items     []string `json:"items"`               // card ids, hidden from the other players
}

// State is a whole game, including what some players may not see (their
// opponents' items, the deck order). It is plain data: Apply never
// modifies the State it is given. Front ends get a View.
type State struct {
	Players []Player `json:"players"`
	First   int      `json:"first"` // seat that started the game; a round ends before it
	Turn    int      `json:"turn"`  // seat to act
	Round   int      `json:"round"` // 1-based
	Phase   Phase    `json:"phase"`
	Mode    Mode     `json:"mode"`

	Dice  int       `json:"dice"`  // dice to throw next (hot dice: 6 again)
	Throw dice.Hand `json:"throw"` // the dice on the table in PhaseKeep and PhaseEvaded
	Event EventFace `json:"event"` // the event die of the throw
	Kept  dice.Hand `json:"kept"`  // dice set aside since the last hot dice
	// Wounded: the current throw damaged the dragon (battle).
	Wounded bool     `json:"wounded,omitempty"`
	Pool    int      `json:"pool"`            // soldiers recruited this turn, not yet on the mat
	Drawn   []string `json:"drawn,omitempty"` // Magic Items drawn this turn, set aside face down
	Used    []string `json:"used,omitempty"`  // Companions whose active effect was used this turn
	Damage  int      `json:"damage"`          // the dragon's damage in this battle
	// Brawl is the Brawl in progress (Mode Brawling); Offer the Companion
	// a hire drew (PhaseHire); Hired: the player hired this turn.
	Brawl *BrawlState `json:"brawl,omitempty"`
	Offer string      `json:"offer,omitempty"`
	Hired bool        `json:"hired,omitempty"`

	CompanionDeck    []string `json:"companion_deck"` // top is the last element
	CompanionDiscard []string `json:"companion_discard"`
	ItemDeck         []string `json:"item_deck"`
	ItemDiscard      []string `json:"item_discard"`

	// Stockpile is the net count of soldier tokens taken from (negative)
	// or returned to the unlimited stockpile; Meal counts the soldiers the
	// dragon ate in battle. Stockpile + Meal + every player's soldiers +
	// Pool is always 0.
	Stockpile int `json:"stockpile"`
	Meal      int `json:"meal"`
	// Eaten counts recruits the dragon ate before they were drawn (a
	// Dragon on a recruiting throw); they never leave the stockpile.
	Eaten int `json:"eaten"`

	Turns   int   `json:"turns"`             // turns finished
	Winners []int `json:"winners,omitempty"` // seats, when the game is over
	Slain   bool  `json:"slain,omitempty"`   // the dragon was slain (else the round limit ended the game)
}

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		c.Players[i].Items = slices.Clone(s.Players[i].Items)
	}
	c.Drawn = slices.Clone(s.Drawn)
	c.Used = slices.Clone(s.Used)
	c.CompanionDeck = slices.Clone(s.CompanionDeck)
	c.CompanionDiscard = slices.Clone(s.CompanionDiscard)
	c.ItemDeck = slices.Clone(s.ItemDeck)
	c.ItemDiscard = slices.Clone(s.ItemDiscard)
	c.Winners = slices.Clone(s.Winners)
	if s.Brawl != nil {
		b := *s.Brawl
		c.Brawl = &b
	}
	return c
}

// BrawlState is a Brawl in progress with card_timing = "anytime": the challenger
// (the player whose turn it is) throws, may use cards on that throw, then
// the defender throws and may use cards on theirs. The throw on the table is
// State.Throw and State.Event; the challenger's, once settled, is kept here.
type BrawlState struct {
	Defender int `json:"defender"`
	// Defending: the defender's throw lies on the table (the game waits
	// for the defender); else the challenger's.
	Defending bool      `json:"defending,omitempty"`
	Throw     dice.Hand `json:"throw,omitempty"` // the challenger's settled throw
	Event     EventFace `json:"event"`           // its event die
	Score     int       `json:"score"`           // its score
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// ToAct returns the seat the game waits for: the player whose turn it is,
// or the defender while their Brawl throw lies on the table; -1 when the
// game is over.
func (s *State) ToAct() int {
	switch {
	case s.Phase == PhaseOver:
		return -1
	case s.Brawl != nil && s.Brawl.Defending:
		return s.Brawl.Defender
	}
	return s.Turn
}

// ActionKind names an action.
type ActionKind uint8

// The actions.
const (
	ActRecruit ActionKind = iota + 1 // PhaseChoose: start recruiting (throws at once)
	ActBrawl                         // PhaseChoose: challenge Target (resolved at once unless a side may use a card)
	ActBattle                        // PhaseChoose: start the Final Battle (throws at once)
	ActKeep                          // PhaseKeep: set aside Keep; on a recruiting Rally, with Reward
	ActUse                           // PhaseKeep, PhaseBrawl: use the active effect of Card (Face: the die it acts on)
	ActAccept                        // PhaseKeep, no keep possible: accept the farkle or the lost battle
	ActRoll                          // PhaseRoll, PhaseEvaded: throw the dice left
	ActStop                          // PhaseRoll, PhaseEvaded (recruiting): bank the pool and the drawn items
	ActRetreat                       // PhaseRoll (battle): leave the battle; the dragon heals
	ActDiscard                       // PhaseDiscard: discard the Magic Item Card
	ActPass                          // PhaseBrawl: use no (more) cards on this Brawl throw
	ActHire                          // PhaseChoose: pay hire_cost soldiers and draw a Companion (once a turn)
	ActDismiss                       // PhaseHire: let Card go (the Companion held or the one hired)
)

var actionNames = [...]string{"", "recruit", "brawl", "battle", "keep", "use", "accept", "roll", "stop", "retreat", "discard", "pass", "hire", "dismiss"}

func (k ActionKind) String() string {
	if int(k) < len(actionNames) && k > 0 {
		return actionNames[k]
	}
	return fmt.Sprintf("ActionKind(%d)", k)
}

// MarshalText writes the action name.
func (k ActionKind) MarshalText() ([]byte, error) {
	if k == 0 || int(k) >= len(actionNames) {
		return nil, fmt.Errorf("%w: action kind %d", ErrBadAction, k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads an action name.
func (k *ActionKind) UnmarshalText(b []byte) error {
	for i, n := range actionNames {
		if i > 0 && n == string(b) {
			*k = ActionKind(i)
			return nil
		}
	}
	return fmt.Errorf("%w: unknown action %q (actions: %v)", ErrBadAction, b, actionNames[1:])
}

// Reward is the choice on a recruiting Rally with scoring dice.
type Reward uint8

// The rewards of a Rally.
const (
	NoReward Reward = iota
	Double          // double the soldiers of the dice kept on this throw
	DrawItem        // draw a Magic Item (set aside face down)
)

func (r Reward) String() string {
	switch r {
	case Double:
		return "double"
	case DrawItem:
		return "item"
	}
	return ""
}

// MarshalText writes "", "double" or "item".
func (r Reward) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads "", "double" or "item".
func (r *Reward) UnmarshalText(b []byte) error {
	switch string(b) {
	case "":
		*r = NoReward
	case "double":
		*r = Double
	case "item":
		*r = DrawItem
	default:
		return fmt.Errorf("%w: unknown reward %q (rewards: double, item)", ErrBadAction, b)
	}
	return nil
}

// Action is one move of the seat the game waits for (State.ToAct).
type Action struct {
	Kind   ActionKind `json:"kind"`
	Keep   dice.Hand  `json:"keep,omitempty"`   // ActKeep
	Reward Reward     `json:"reward,omitempty"` // ActKeep on a recruiting Rally
	Target int        `json:"target"`           // ActBrawl: the defender's seat
	Card   string     `json:"card,omitempty"`   // ActUse, ActDiscard
	Face   int        `json:"face,omitempty"`   // ActUse of rethrow: the face of the die to throw again
}

// Named writes the action with the players' names where it names a seat
// ("brawl Ana"), else as String does.
func (a Action) Named(names []string) string {
	if a.Kind == ActBrawl && a.Target >= 0 && a.Target < len(names) {
		return "brawl " + names[a.Target]
	}
	return a.String()
}

// String describes the action, e.g. "keep 1 1 5 (double)" (dice as the
// game shows a throw).
func (a Action) String() string {
	switch a.Kind {
	case ActBrawl:
		return fmt.Sprintf("brawl seat %d", a.Target)
	case ActKeep:
		if a.Reward != NoReward {
			return fmt.Sprintf("keep %s (%s)", a.Keep, a.Reward)
		}
		return "keep " + a.Keep.String()
	case ActUse:
		if a.Face != 0 {
			return fmt.Sprintf("use %s on a %d", a.Card, a.Face)
		}
		return "use " + a.Card
	case ActDiscard:
		return "discard " + a.Card
	case ActDismiss:
		return "dismiss " + a.Card
	}
	return a.Kind.String()
}

// Recruit returns the action that starts recruiting.
func Recruit() Action { return Action{Kind: ActRecruit} }

// Brawl returns the action that challenges the player in seat target.
func Brawl(target int) Action { return Action{Kind: ActBrawl, Target: target} }

// Battle returns the action that starts the Final Battle.
func Battle() Action { return Action{Kind: ActBattle} }

// Keep returns the action that sets aside the dice h.
func Keep(h dice.Hand) Action { return Action{Kind: ActKeep, Keep: h} }

// KeepRally returns the keep of h with the reward r on a recruiting Rally.
func KeepRally(h dice.Hand, r Reward) Action { return Action{Kind: ActKeep, Keep: h, Reward: r} }

// Use returns the action that uses the active effect of card; face names
// the die of a rethrow (0 for other effects).
func Use(card string, face int) Action { return Action{Kind: ActUse, Card: card, Face: face} }

// Accept returns the action that accepts a farkle or a lost battle when a
// card could still have changed the throw.
func Accept() Action { return Action{Kind: ActAccept} }

// Roll returns the action that throws the dice left.
func Roll() Action { return Action{Kind: ActRoll} }

// Stop returns the action that banks the recruiting pool.
func Stop() Action { return Action{Kind: ActStop} }

// Retreat returns the action that leaves the Final Battle.
func Retreat() Action { return Action{Kind: ActRetreat} }

// Discard returns the action that discards the Magic Item card.
func Discard(card string) Action { return Action{Kind: ActDiscard, Card: card} }

// Pass returns the action that uses no (more) cards on a Brawl throw.
func Pass() Action { return Action{Kind: ActPass} }

// Hire returns the action that pays for a new Companion.
func Hire() Action { return Action{Kind: ActHire} }

// Dismiss returns the action that lets the Companion card go after a hire.
func Dismiss(card string) Action { return Action{Kind: ActDismiss, Card: card} }

// EventKind names what happened.
type EventKind uint8

// The events Apply reports.
const (
	EvThrow       EventKind = iota + 1 // Seat threw Dice with Face on the event die
	EvWound                            // the dragon took N damage (Total: its damage now)
	EvKeep                             // Seat kept Dice worth N soldiers (battle: paid N)
	EvEaten                            // the dragon ate the N soldiers of the throw
	EvRally                            // Seat chose Reward on a Rally
	EvItemDrawn                        // Seat drew Card (hidden from others)
	EvHotDice                          // all six dice kept: six to throw again
	EvFarkle                           // Seat farkled: N soldiers of the pool lost
	EvEvaded                           // Seat evaded the dragon (Dragon face, no scoring dice)
	EvBank                             // Seat moved N soldiers (and the drawn items) to the mat
	EvUse                              // Seat used Card
	EvCardChanged                      // a card changed the throw: Dice is the new throw (in a Brawl, N its score)
	EvBrawl                            // Seat (N soldiers scored) against Target (Other scored): Winner gets Total
	EvBattleStart                      // Seat entered the Final Battle with N soldiers
	EvBattleLost                       // Seat could not pay N and lost Total soldiers; the battle ends
	EvBattleEnd                        // the battle ended without a win (retreat, or a throw without scoring dice)
	EvHeal                             // the dragon healed
	EvDiscard                          // Seat discarded Card
	EvTurn                             // Seat's turn begins (Round)
	EvWin                              // Seat won (Slain: by slaying the dragon)
	EvReshuffle                        // a deck was reshuffled from its discards (Card: "companion" or "item")
	EvWave                             // army battle: Seat sent N soldiers against the dragon for the next throw (Total: soldiers left)
	EvFire                             // army battle: the dragon's fire burned N of Seat's soldiers after a throw without scoring dice (Total: soldiers left)
	EvStart                            // Seat starts the game with N soldiers from the stockpile (seat_bonus)
	EvPass                             // Seat uses no (more) cards on their Brawl throw (N: its score)
	EvHire                             // Seat paid N soldiers (Total: left) and drew the Companion Card
	EvDismiss                          // Seat let the Companion Card go to the Companion discard pile
)

var eventNames = [...]string{"", "throw", "wound", "keep", "eaten", "rally", "item-drawn", "hot-dice", "farkle", "evaded", "bank", "use", "card-changed", "brawl", "battle-start", "battle-lost", "battle-end", "heal", "discard", "turn", "win", "reshuffle", "wave", "fire", "start", "pass", "hire", "dismiss"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && k > 0 {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// MarshalText writes the event name.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads an event name.
func (k *EventKind) UnmarshalText(b []byte) error {
	i, err := lookup(eventNames[:], "event", b)
	*k = EventKind(i)
	return err
}

// Event is one thing that happened during Apply, in order. Fields unused by
// a kind are zero.
type Event struct {
	Kind   EventKind `json:"kind"`
	Seat   int       `json:"seat"`
	Dice   dice.Hand `json:"dice,omitempty"`
	Face   EventFace `json:"face"`
	N      int       `json:"n,omitempty"`
	Total  int       `json:"total,omitempty"`
	Target int       `json:"target"`
	Other  int       `json:"other,omitempty"`
	Winner int       `json:"winner"`
	Bonus  int       `json:"bonus,omitempty"`
	Reward Reward    `json:"reward,omitempty"`
	Card   string    `json:"card,omitempty"`
	Slain  bool      `json:"slain,omitempty"`
	Round  int       `json:"round,omitempty"`
	// Battle marks a keep in the Final Battle (N is its cost, Total the
	// soldiers left); Ending says how a battle ended (EvBattleEnd).
	Battle bool         `json:"battle,omitempty"`
	Ending BattleEnding `json:"ending,omitempty"`
}

// BattleEnding is how a Final Battle that did not slay the dragon ended.
type BattleEnding string

// The endings of a battle.
const (
	EndRetreat BattleEnding = "retreat" // the player retreated
	EndNoWave  BattleEnding = "no_wave" // too few soldiers left for the next wave (Other: the wave)
	EndFarkle  BattleEnding = "farkle"  // a throw without scoring dice (the classic battle)
	EndUnpaid  BattleEnding = "unpaid"  // scoring dice the player could not pay for: every soldier lost
)
