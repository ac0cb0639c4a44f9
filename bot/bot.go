package bot

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// ErrUnknownLevel is wrapped when a level name does not exist.
var ErrUnknownLevel = errors.New("bot: unknown level")

// Strategy chooses actions for whichever seat is to act.
type Strategy interface {
	// Choose returns one of s.Legal() for the seat s.Actor(). It must not
	// be called on a finished game.
	Choose(s engine.State) engine.Action
}

// Level describes a bot level to players.
type Level struct {
	Name        string
	Description string // one line
	new         func(r rules.Rules, o *options) (Strategy, error)
}

var levels = map[string]Level{}

func addLevel(l Level) { levels[l.Name] = l }

// Levels returns every level, sorted by name.
func Levels() []Level {
	out := make([]Level, 0, len(levels))
	for _, l := range levels {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LevelNames returns the level names, sorted.
func LevelNames() []string {
	var names []string
	for _, l := range Levels() {
		names = append(names, l.Name)
	}
	return names
}

// Option changes how New builds a bot.
type Option func(*options)

type options struct {
	tables *solved.Tables
}

// WithTables makes New take solver results (solo policies, duel tables)
// from ts instead of solved.DefaultTables() (nil: solved.DefaultTables()).
func WithTables(ts *solved.Tables) Option {
	return func(o *options) {
		if ts != nil {
			o.tables = ts
		}
	}
}

// WithDuelTable makes New use t as the duel table of its rules (t must be
// solved for the same rules).
func WithDuelTable(t *solve.Table) Option {
	return func(o *options) {
		ts := solved.NewTables("")
		ts.AddDuel(t)
		o.tables = ts
	}
}

// New returns a bot of the named level for rules r. It does not solve
// anything: bots that need a solver's result (expert, perfect) get it at
// their first decision, from solved.DefaultTables() unless an Option says otherwise;
// call Prepare to have it ready before. Every bot New returns is safe for
// concurrent use.
func New(level string, r rules.Rules, opts ...Option) (Strategy, error) {
	l, ok := levels[level]
	if !ok {
		return nil, fmt.Errorf("%w %q (levels: %s)", ErrUnknownLevel, level, strings.Join(LevelNames(), ", "))
	}
	o := &options{}
	for _, f := range opts {
		f(o)
	}
	if o.tables == nil {
		o.tables = solved.DefaultTables()
	}
	return l.new(r, o)
}

// Preparer is a bot with solver results to load before play.
type Preparer interface {
	// Prepare loads (or solves) what the bot needs; it returns the error
	// that would otherwise make the bot fall back to a simpler level.
	Prepare() error
}

// Prepare loads what b needs before its first decision (a no-op for bots
// that need nothing).
func Prepare(b Strategy) error {
	if p, ok := b.(Preparer); ok {
		return p.Prepare()
	}
	return nil
}
