package bot

import (
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/solved"
)

// Of returns s as a bot of the ordinary game in the terms of package game
// (game.Bot), which front ends play through a game.Cast. It chooses in
// the ordinary game's games (*game.FarkleGame) only and draws nothing at
// random. When s has something to load before play (a Preparer) so has
// the bot: Prepare, and Fallback, which says why it plays below its level
// ("" when it does not).
func Of(s Strategy) game.Bot {
	if _, ok := s.(Preparer); ok {
		return preparedBot{gameBot{s}}
	}
	return gameBot{s}
}

// StrategyOf returns the Strategy of a bot made by Of (for the fast
// simulator, which plays Deciders without the engine).
func StrategyOf(b game.Bot) (Strategy, bool) {
	s, ok := b.(interface{ strategy() Strategy })
	if !ok {
		return nil, false
	}
	return s.strategy(), true
}

// GameLevels returns Levels in the terms of package game.
func GameLevels() []game.BotLevel {
	var out []game.BotLevel
	for _, l := range Levels() {
		out = append(out, game.BotLevel{Name: l.Name, Description: l.Description})
	}
	return out
}

// DefaultLevel is the level seated when none is named: steady, a sensible
// club player.
const DefaultLevel = "steady"

type gameBot struct{ s Strategy }

func (b gameBot) strategy() Strategy { return b.s }

// Choose is the Strategy's choice in the engine state of g.
func (b gameBot) Choose(g game.Game, seat int, _ dice.Source) (game.Action, error) {
	fg, ok := g.(*game.FarkleGame)
	if !ok {
		return nil, fmt.Errorf("bot: %T is not a game of ordinary Farkle", g)
	}
	s := fg.State()
	if s.Over() || s.Actor() != seat {
		return nil, fmt.Errorf("%w: the game does not wait for seat %d", game.ErrNoDecision, seat)
	}
	return b.s.Choose(s), nil
}

// preparedBot is a gameBot with solver results to load.
type preparedBot struct{ gameBot }

// Prepare loads what the bot needs (see Preparer).
func (b preparedBot) Prepare() error { return Prepare(b.s) }

// PrepareFor loads what the bot needs for a game of players seats
// (Perfect.PrepareFor), or what Prepare loads.
func (b preparedBot) PrepareFor(players int) error {
	if p, ok := b.s.(interface{ PrepareFor(int) error }); ok {
		return p.PrepareFor(players)
	}
	return Prepare(b.s)
}

// Fallback says why the bot plays below its level (Perfect.Fallback), ""
// when it does not.
func (b preparedBot) Fallback() string { return b.FallbackWhy().In(nil) }

// FallbackWhy is Fallback for front ends that say it in their player's
// language (Perfect.FallbackWhy).
func (b preparedBot) FallbackWhy() solved.Why {
	if f, ok := b.s.(interface{ FallbackWhy() solved.Why }); ok {
		return f.FallbackWhy()
	}
	return solved.Why{}
}
