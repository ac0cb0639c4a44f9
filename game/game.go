// Package game is the one contract every variant of Farkle plays through:
// the ordinary game (package engine, under any rules.Rules) and Dragon
// Farkle (package dragon). A Variant is a kind of game with its rules
// fixed; it starts a Game, which checks, applies and lists a seat's actions
// and shows each seat what it may see. Play runs one game from a secret
// Seed and keeps its Record, the one record format of every variant, which
// Verify and Replay check and rebuild whatever the kind.
//
// Choosing is one contract too: a Bot chooses a seat's action in a Game,
// an Advisor values a seat's choices (Advice), and a Cast makes both for
// every kind by level name (each kind's Players). Dragon Farkle's are
// here (DefaultCast); the ordinary game's, which need the solvers, are
// package advise's Cast.
//
// The front ends (the web server, the terminal game, the command line)
// work through this package; what differs between variants is only the
// variant's own types: its rules, actions, events and views. A new
// variant is a new file here implementing Variant and Game over its own
// package, with an entry in Kinds (how to open it, its rating families,
// its invalid-rules error, its older record formats), and its Players in
// DefaultCast and its preset (Preset) when it has them; the front ends
// then need only its views.
package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// Kind names a variant in records, stores and the API.
type Kind string

// The kinds of game.
const (
	Farkle Kind = "farkle" // the ordinary game under any rules.Rules (package engine)
	Dragon Kind = "dragon" // Dragon Farkle (package dragon)
)

// Action is one decision of a player in a variant's own type
// (engine.Action, dragon.Action); it marshals to the variant's JSON.
type Action interface{ fmt.Stringer }

// Event is one thing that happened when an action was applied, in the
// variant's own type (engine.Event, dragon.Event).
type Event any

// Variant is one kind of game with its rules (and, for Dragon Farkle, its
// cards) fixed. It is immutable and safe for concurrent use.
type Variant interface {
	// Kind names the variant.
	Kind() Kind
	// Rules returns the rules as a record holds them; Open(Kind(), Rules())
	// returns an equal variant.
	Rules() json.RawMessage
	// Name is the rules' display name ("classic", "Dragon Farkle").
	Name() string
	// Start begins a game for the named players. Anything random about the
	// start (a shuffle, the first player) is drawn from src.
	Start(players []string, src dice.Source) (Game, []Event, error)
	// ParseAction reads one action as a client sends it or a record holds
	// it, refusing unknown fields.
	ParseAction(data []byte) (Action, error)
	// Entry is what a record holds for action a of seat that caused the
	// events:
	// the action and, where the variant records them, the dice it threw.
	Entry(seat int, a Action, events []Event) json.RawMessage
	// Describe says what an event means in one sentence, with the players'
	// names.
	Describe(c *lang.Catalogue, e Event, names []string) string
	// Seats returns the fewest and the most players a game takes.
	Seats() (min, max int)
	// Scoring returns the rule set its throws score by: the ordinary
	// game's rules, Dragon Farkle's soldier table (under the Dragon rules'
	// name).
	Scoring() rules.Rules
	// Capped returns the variant whose games end after at most rounds
	// rounds (the ordinary game's max_turns, Dragon Farkle's round
	// limit): the receiver when its own limit is already that or lower,
	// or rounds is 0 or less. A server caps every game it hosts so that
	// none runs for ever.
	Capped(rounds int) Variant
	// Family names the pool of players its games are rated in (one of
	// its kind's KindInfo.Families; package rating keeps the ratings), or
	// "" when its games move no rating; marked says the table was marked
	// rated (the ordinary game's house rules are rated only then).
	Family(marked bool) string
}

// Game is one game at one moment. It is a value: Apply returns the next
// Game and leaves the receiver as it was, so a refused action changes
// nothing.
type Game interface {
	// Variant returns the game's variant.
	Variant() Variant
	// Players returns the players' names in seat order.
	Players() []string
	// ToAct returns the seat whose decision the game waits for, or -1 when
	// it is over.
	ToAct() int
	// Version counts the actions applied since the start.
	Version() int
	// Check reports whether Apply would accept action a from seat, without
	// playing it and without a dice source: nil or an error that says why.
	Check(seat int, a Action) error
	// Apply plays action a from seat with the dice from src, returning the
	// next game and the events in order. On error the receiver is the
	// game, unchanged.
	Apply(seat int, a Action, src dice.Source) (Game, []Event, error)
	// Legal lists the actions seat may take now, in a stable order (empty
	// when it is not the seat's decision or the game is over). Apply
	// accepts every one of them.
	Legal(seat int) []Action
	// View is what seat may see (-1: a watcher), as the variant's own JSON
	// value.
	View(seat int) any
	// Over reports whether the game has ended.
	Over() bool
	// Winners lists the winning seats once the game is over (several for a
	// shared win; none if nobody won).
	Winners() []int
	// Scores are the seats' scores (Dragon Farkle: soldiers) in seat order.
	Scores() []int
	// Turns counts the turns of each seat in seat order: at the end of a
	// game, every turn it played.
	Turns() []int
	// Aborted reports whether the game, were it over now, ended before
	// every seat had finished a turn of its own: such a game counts for
	// nobody in the ratings, as no loss either.
	Aborted() bool
}

// KindInfo is what package game knows of a kind of variant before it has
// a variant of it: the one entry a new variant adds to Kinds.
type KindInfo struct {
	// Open returns the variant of the kind with the rules as a record
	// holds them.
	Open func(rules json.RawMessage) (Variant, error)
	// Families are the rating families its games may be rated in (every
	// value Variant.Family returns but "").
	Families []string
	// Invalid is wrapped by the errors that say rules of the kind are
	// invalid, rather than unreadable (InvalidRules).
	Invalid error
	// ReadOld reads a record of the kind in a format written before
	// Format; ok is false, and nothing is read, when format is none of the
	// kind's (nil: the kind has none).
	ReadOld func(format string, data []byte) (rec *Record, ok bool, err error)
}

// Kinds are the kinds of game, each with what opens its variants.
var Kinds = map[Kind]KindInfo{
	Farkle: farkleKind, // farkle.go
	Dragon: dragonKind, // dragon.go
}

// KindNames lists the kinds: the ordinary game first (the kind of a table
// or message that names none), then the others by name.
func KindNames() []Kind {
	out := []Kind{Farkle}
	for _, k := range slices.Sorted(maps.Keys(Kinds)) {
		if k != Farkle {
			out = append(out, k)
		}
	}
	return out
}

// kindList is KindNames as a list for a message: "farkle, dragon".
func kindList() string {
	var b strings.Builder
	for i, k := range KindNames() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(k))
	}
	return b.String()
}

// Families lists the rating families of every kind (KindInfo.Families),
// sorted.
func Families() []string {
	var out []string
	for _, k := range Kinds {
		out = append(out, k.Families...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// InvalidRules reports whether err says that rules of some kind are
// invalid (it wraps a KindInfo.Invalid), rather than unreadable.
func InvalidRules(err error) bool {
	for _, k := range Kinds {
		if k.Invalid != nil && errors.Is(err, k.Invalid) {
			return true
		}
	}
	return false
}

// Open returns the variant of kind with the rules as a record holds them.
func Open(kind Kind, rules json.RawMessage) (Variant, error) {
	k, ok := Kinds[kind]
	if !ok {
		return nil, fmt.Errorf("game: unknown kind %q (kinds: %s)", kind, kindList())
	}
	return k.Open(rules)
}
