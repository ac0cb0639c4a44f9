package server_test

import (
	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// botsCast is advise.Cast(nil) whose ordinary bots are made by f: tests
// inject failing bots with it.
func botsCast(f func(level string, r rules.Rules) (bot.Strategy, error)) game.Cast {
	c := advise.Cast(nil)
	return c.With(game.Farkle, madeBots{c[game.Farkle], f})
}

// madeBots are the ordinary game's Players with the bots of make.
type madeBots struct {
	game.Players
	make func(level string, r rules.Rules) (bot.Strategy, error)
}

func (m madeBots) Bot(v game.Variant, level string) (game.Bot, error) {
	s, err := m.make(level, v.Scoring())
	if err != nil {
		return nil, err
	}
	return bot.Of(s), nil
}

// advising is advise.Cast(nil) whose ordinary game's advisor, for every
// rule set and number of players, is a: tests give a server a stand-in
// advisor with it.
func advising(a game.Advisor) game.Cast {
	c := advise.Cast(nil)
	return c.With(game.Farkle, advisedBy{c[game.Farkle], a})
}

// advisedBy are the ordinary game's Players with the advisor a.
type advisedBy struct {
	game.Players
	a game.Advisor
}

func (p advisedBy) Advisor(game.Variant, int) (game.Advisor, error) { return p.a, nil }
