package server

// The hints of every kind of game come from one place: the advisors of the
// server's Cast (Options.Cast), through the game.Advisor contract; each
// kind writes the advice in its own wire form (farkle.go, dragon.go).

import (
	"errors"

	"github.com/farkle/farkle/game"
)

// errNoAdvisor is the refusal of a hint where the Cast has no advisor.
var errNoAdvisor = errors.New("this server has no advisor: hints are unavailable")

// NoHints returns c whose Players of kind k still play (their bots) but
// give no hints: a server that serves c answers hints of that kind as
// unavailable, as one given no Cast does the ordinary game's (its advisors
// would wait for solves).
func NoHints(c game.Cast, k game.Kind) game.Cast {
	p, err := c.Players(k)
	if err != nil {
		return c
	}
	return c.With(k, noAdvice{p})
}

// noAdvice are Players that give no hints (NoHints).
type noAdvice struct{ game.Players }

func (noAdvice) Advisor(game.Variant, int) (game.Advisor, error) { return nil, errNoAdvisor }

// hints reports whether the server's Cast gives hints for games of kind k.
func (s *Server) hints(k game.Kind) bool {
	p, err := s.cast().Players(k)
	if err != nil {
		return false
	}
	_, none := p.(noAdvice)
	return !none
}

// advise returns the advice of the Cast's advisor of v for seat in g.
func (s *Server) advise(v game.Variant, g game.Game, seat int) (*game.Advice, error) {
	adv, err := s.cast().Advisor(v, len(g.Players()))
	if err != nil {
		return nil, err
	}
	return adv.Advise(g, seat)
}
