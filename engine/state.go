package engine

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/internal/lru"
	"github.com/farkle/farkle/rules"
)

// Errors of Apply and New. Every error Apply returns wraps one of them.
var (
	ErrGameOver      = errors.New("engine: the game is over")
	ErrUnknownAction = errors.New("engine: unknown action")
	ErrNotYourTurn   = errors.New("engine: not your turn")
	ErrIllegal       = errors.New("engine: illegal action")
	ErrPlayers       = errors.New("engine: wrong players")
)

// Phase is the stage of a game.
type Phase uint8

// The phases of a game.
const (
	PhaseFirstRollOff Phase = iota + 1 // players throw one die each; highest starts
	PhasePlay                          // turns
	PhaseTieRollOff                    // tied winners throw one die each; highest wins
	PhaseOver                          // Winners are known
)

var phaseNames = [...]string{PhaseFirstRollOff: "first-roll-off", PhasePlay: "play", PhaseTieRollOff: "tie-roll-off", PhaseOver: "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && phaseNames[p] != "" {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// MarshalText writes the phase's name, or "" for the zero Phase.
func (p Phase) MarshalText() ([]byte, error) {
	if p == 0 {
		return []byte{}, nil
	}
	return []byte(p.String()), nil
}

// Step is where a turn is.
type Step uint8

// The steps of a turn.
const (
	StepThrow  Step = iota + 1 // the player must throw (turn start, or six dice scored nothing)
	StepKeep                   // a throw is on the table: the player must keep
	StepChoose                 // the player kept: throw again or bank
)

var stepNames = [...]string{StepThrow: "throw", StepKeep: "keep", StepChoose: "choose"}

func (s Step) String() string {
	if int(s) < len(stepNames) && stepNames[s] != "" {
		return stepNames[s]
	}
	return fmt.Sprintf("Step(%d)", s)
}

// MarshalText writes the step's name, or "" between turns (the zero Step).
func (s Step) MarshalText() ([]byte, error) {
	if s == 0 {
		return []byte{}, nil
	}
	return []byte(s.String()), nil
}

// Player is one seat's standing.
type Player struct {
	Name     string `json:"name"`
	Score    int    `json:"score"`
	Streak   int    `json:"streak"`    // farkles in a row
	Banked   int    `json:"banked"`    // sum of banked turn totals
	Penalty  int    `json:"penalty"`   // sum of penalty points taken
	Turns    int    `json:"turns"`     // turns started
	Farkles  int    `json:"farkles"`   // turns that ended in a farkle
	BestTurn int    `json:"best_turn"` // largest banked turn total
	// Out: the player resigned (or was forfeited). They are skipped from
	// then on and can never win; their score stays for the record.
	Out bool `json:"out,omitempty"`
}

// State is a whole game at one moment. It is a value: Apply never changes
// the State it is given. Fields are for reading; change a state only
// through Apply.
type State struct {
	cfg *config

	Players []Player `json:"players"`
	Phase   Phase    `json:"phase"`
	Current int      `json:"current"` // whose turn it is (PhasePlay)

	// The turn in progress (PhasePlay).
	Step  Step      `json:"step"`
	Total int       `json:"total"` // turn total at risk
	Left  int       `json:"left"`  // dice left to throw after the keeps so far (0: hot dice)
	Throw dice.Hand `json:"throw"` // the last throw
	Kept  dice.Hand `json:"kept"`  // what was kept from the last throw

	FinalRound bool `json:"final_round"`
	Trigger    int  `json:"trigger"` // who started the final round, -1 if none

	// A roll-off in progress: the contenders and what each threw (0: not yet).
	Contenders []int `json:"contenders,omitempty"`
	RollFaces  []int `json:"roll_faces,omitempty"`

	Winners []int `json:"winners,omitempty"`
	Version int   `json:"version"` // number of actions applied
}

type config struct {
	rules rules.Rules
	table *dice.Table
}

// maxTables bounds the keep tables TableFor keeps (about 54 KiB each):
// every distinct scoring a client sends (a house-rules table, an explorer
// request) would otherwise stay in memory for the life of the process.
// A game holds its own table, so one forgotten here is only built again.
const maxTables = 256

// tables are the keep tables built, by rules.ScoringHash, the least
// recently used forgotten past maxTables (each counted 1).
var tables = keepTables{c: lru.New[string, *dice.Table](maxTables)}

// keepTables is the cache of TableFor, safe for concurrent use.
type keepTables struct {
	mu sync.Mutex
	c  *lru.Cache[string, *dice.Table]
}

// get returns the table of scoring hash h, marking it the most recently
// used.
func (k *keepTables) get(h string) (*dice.Table, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.c.Get(h)
}

// getOrAdd returns the table of h if one is kept, else keeps t and returns
// it.
func (k *keepTables) getOrAdd(h string, t *dice.Table) *dice.Table {
	k.mu.Lock()
	defer k.mu.Unlock()
	if old, ok := k.c.Get(h); ok {
		return old
	}
	k.c.Add(h, t, 1)
	return t
}

// len returns the number of tables kept.
func (k *keepTables) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.c.Len()
}

// TableFor returns the keep table of r, built once per distinct dice and
// scoring table (while among the maxTables most recently used) and shared: rule sets that differ only in their turn or
// game rules (another target, other players) share one table. The table's
// Rules hold only r's dice and scoring.
func TableFor(r rules.Rules) *dice.Table {
	h := r.ScoringHash()
	if t, ok := tables.get(h); ok {
		return t
	}
	// built outside the lock; one built meanwhile by another caller is
	// shared instead
	return tables.getOrAdd(h, dice.NewTable(rules.Rules{Dice: r.Dice, Scoring: r.Scoring}))
}

// New starts a game under r with the named players (1 to 8, within the
// rules' min_players and max_players). With first_player = "roll-off" and
// more than one player, the game starts with the roll-off.
func New(r rules.Rules, names []string) (State, error) {
	if err := r.Validate(); err != nil {
		return State{}, err
	}
	n := len(names)
	if n < r.Game.MinPlayers || n > r.Game.MaxPlayers {
		return State{}, fmt.Errorf("%w: %d players (these rules allow %d to %d)", ErrPlayers, n, r.Game.MinPlayers, r.Game.MaxPlayers)
	}
	s := State{cfg: &config{rules: r.Clone(), table: TableFor(r)}, Trigger: -1}
	for _, name := range names {
		s.Players = append(s.Players, Player{Name: name})
	}
	if r.Game.FirstPlayer == rules.RollOff && n > 1 {
		s.Phase = PhaseFirstRollOff
		s.startRollOff(allSeats(n))
	} else {
		s.Phase = PhasePlay
		s.startTurn(0)
	}
	return s, nil
}

// Rules returns the rules of the game.
func (s State) Rules() rules.Rules { return s.cfg.rules }

// Table returns the keep table of the game's rules.
func (s State) Table() *dice.Table { return s.cfg.table }

// Over reports whether the game has ended.
func (s State) Over() bool { return s.Phase == PhaseOver }

// Actor returns the seat expected to act next, or -1 when the game is over.
func (s State) Actor() int {
	switch s.Phase {
	case PhasePlay:
		return s.Current
	case PhaseFirstRollOff, PhaseTieRollOff:
		for i, f := range s.RollFaces {
			if f == 0 {
				return s.Contenders[i]
			}
		}
	}
	return -1
}

// Names returns the players' names in seat order.
func (s State) Names() []string {
	out := make([]string, len(s.Players))
	for i, p := range s.Players {
		out[i] = p.Name
	}
	return out
}

// ToThrow returns how many dice a Throw now would throw: the dice left, or
// all of them with hot dice.
func (s State) ToThrow() int {
	if s.Left == 0 {
		return s.cfg.rules.Dice
	}
	return s.Left
}

// CanThrow reports whether Throw is legal now.
func (s State) CanThrow() bool {
	if s.Phase != PhasePlay {
		return false
	}
	switch s.Step {
	case StepThrow:
		return true
	case StepChoose:
		return s.Left > 0 || s.cfg.rules.Turn.HotDice
	}
	return false
}

// CanBank reports whether Bank is legal now, and if not, why.
func (s State) CanBank() (bool, string) {
	if s.Phase != PhasePlay || s.Step != StepChoose {
		return false, "keep some dice first"
	}
	t := s.cfg.rules.Turn
	if s.Total < t.BankMinimum {
		return false, fmt.Sprintf("%d is below the bank minimum of %d", s.Total, t.BankMinimum)
	}
	if s.Players[s.Current].Score == 0 && s.Total < t.EntryMinimum {
		return false, fmt.Sprintf("%d is below the %d needed to get on the board", s.Total, t.EntryMinimum)
	}
	return true, ""
}

// Legal returns every move of the game allowed now: one per legal keep of
// the throw on the table, or Throw and/or Bank, or the next roll-off throw.
// It is empty when the game is over. Resign is not listed: it is not a move
// of the game but leaving it, and it is always legal for the actor
// (ResignBy(s.Actor())) while the game is not over.
func (s State) Legal() []Action {
	p := s.Actor()
	if p < 0 {
		return nil
	}
	if s.Phase != PhasePlay {
		return []Action{RollOffBy(p)}
	}
	if s.Step == StepKeep {
		keeps := s.cfg.table.Keeps(s.Throw)
		out := make([]Action, len(keeps))
		for i, k := range keeps {
			out[i] = KeepBy(p, k.Hand)
		}
		return out
	}
	var out []Action
	if s.CanThrow() {
		out = append(out, ThrowBy(p))
	}
	if ok, _ := s.CanBank(); ok {
		out = append(out, BankBy(p))
	}
	return out
}

// In returns the seats of the players still in the game (not resigned), in
// seat order.
func (s State) In() []int {
	out := make([]int, 0, len(s.Players))
	for i, p := range s.Players {
		if !p.Out {
			out = append(out, i)
		}
	}
	return out
}

// Legal is State.Legal as a function.
func Legal(s State) []Action { return s.Legal() }

func allSeats(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// clone returns a copy of s whose slices may be changed freely.
func (s State) clone() State {
	s.Players = slices.Clone(s.Players)
	s.Contenders = slices.Clone(s.Contenders)
	s.RollFaces = slices.Clone(s.RollFaces)
	s.Winners = slices.Clone(s.Winners)
	return s
}

func (s *State) startRollOff(contenders []int) {
	s.Contenders = contenders
	s.RollFaces = make([]int, len(contenders))
}

func (s *State) startTurn(p int) {
	s.Current = p
	s.Step = StepThrow
	s.Total = 0
	s.Left = s.cfg.rules.Dice
	s.Throw, s.Kept = 0, 0
	s.Players[p].Turns++
}
