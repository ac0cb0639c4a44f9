package bot

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
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
	new         func(r rules.Rules) (Strategy, error)
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

// New returns a bot of the named level for rules r.
func New(level string, r rules.Rules) (Strategy, error) {
	l, ok := levels[level]
	if !ok {
		return nil, fmt.Errorf("%w %q (levels: %s)", ErrUnknownLevel, level, strings.Join(LevelNames(), ", "))
	}
	return l.new(r)
}
