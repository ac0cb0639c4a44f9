package game

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/farkle/farkle/dice"
)

// Bot chooses the actions of a seat: the one contract of the bots of every
// variant (the ordinary game's in package bot, Dragon Farkle's in package
// dragon), made by level name through a Cast.
type Bot interface {
	// Choose returns seat's next action in g, one of g.Legal(seat): g must
	// wait for seat (g.ToAct() == seat). A bot that chooses at random draws
	// from src (see BotSource); the others ignore it. It returns an error
	// when g is not a game its variant's bots play or seat has no choice.
	Choose(g Game, seat int, src dice.Source) (Action, error)
}

// BotLevel names and describes one level of a kind's bots.
type BotLevel struct {
	Name        string `json:"name"`
	Description string `json:"description"` // one line
}

// BotSource returns the source of the random choices of the bots of a
// game dealt from seed, apart from the game's own dice: keyed by the seed
// derived with the label "dragon-bots" (the label of the first variant
// whose bots chose at random, kept so that its games replay), so that the
// seed, once revealed, rebuilds the bots' choices too.
func BotSource(seed dice.Seed) dice.Source { return dice.NewSource(seed.Derive("dragon-bots")) }

// Players are the bots and the advisor of one kind of game.
type Players interface {
	// Levels lists the levels of the kind's bots.
	Levels() []BotLevel
	// DefaultLevel is the level of a bot seated when none is named.
	DefaultLevel() string
	// Bot returns a bot of level for games of v (of the Players' kind). An
	// unknown level is an error naming the levels.
	Bot(v Variant, level string) (Bot, error)
	// Advisor returns the advisor of games of v between players players.
	Advisor(v Variant, players int) (Advisor, error)
}

// ErrNoPlayers is wrapped when a Cast has no Players for a kind.
var ErrNoPlayers = errors.New("game: no bots for this kind of game")

// Cast is the Players of every kind of game: the one place where front
// ends, simulations and analyses get bots by level name and advisors,
// whatever the variant. DefaultCast holds the kinds whose bots and hints
// need nothing beyond their own package (Dragon Farkle); package advise's
// Cast adds the ordinary game's, which need the solvers' results.
type Cast map[Kind]Players

// DefaultCast returns the Players of the kinds whose bots and hints are
// their own package's: Dragon Farkle's.
func DefaultCast() Cast { return Cast{Dragon: dragonPlayers{}} }

// With returns a copy of c with p as the Players of kind k.
func (c Cast) With(k Kind, p Players) Cast {
	out := maps.Clone(c)
	if out == nil {
		out = Cast{}
	}
	out[k] = p
	return out
}

// Players returns the Players of kind k, or an error wrapping
// ErrNoPlayers.
func (c Cast) Players(k Kind) (Players, error) {
	if p, ok := c[k]; ok {
		return p, nil
	}
	kinds := make([]string, 0, len(c))
	for _, k := range slices.Sorted(maps.Keys(c)) {
		kinds = append(kinds, string(k))
	}
	return nil, fmt.Errorf("%w: %q (bots play: %s)", ErrNoPlayers, k, strings.Join(kinds, ", "))
}

// Bot returns a bot of level for games of v.
func (c Cast) Bot(v Variant, level string) (Bot, error) {
	p, err := c.Players(v.Kind())
	if err != nil {
		return nil, err
	}
	return p.Bot(v, level)
}

// Advisor returns the advisor of games of v between players players.
func (c Cast) Advisor(v Variant, players int) (Advisor, error) {
	p, err := c.Players(v.Kind())
	if err != nil {
		return nil, err
	}
	return p.Advisor(v, players)
}

// Levels lists the bot levels of kind k (none when c has no Players for
// it).
func (c Cast) Levels(k Kind) []BotLevel {
	if p, ok := c[k]; ok {
		return p.Levels()
	}
	return nil
}

// LevelNames lists the names of the bot levels of kind k.
func (c Cast) LevelNames(k Kind) []string {
	var out []string
	for _, l := range c.Levels(k) {
		out = append(out, l.Name)
	}
	return out
}

// DefaultLevel returns the level of a bot of kind k seated when none is
// named ("" when c has no Players for it).
func (c Cast) DefaultLevel(k Kind) string {
	if p, ok := c[k]; ok {
		return p.DefaultLevel()
	}
	return ""
}
