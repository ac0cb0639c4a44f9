package server

import (
	"encoding"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/gameview"
)

// The ordinary game on the wire (docs/API.md): package gameview's types,
// filled from the engine's and shared with the browser's local games, so
// that a change in package engine changes what clients read only where
// gameview says so.
type (
	stateView  = gameview.State
	actionView = gameview.Action
)

// name is the name a package gives a value of one of its enumerations.
func name(m encoding.TextMarshaler) string {
	b, _ := m.MarshalText()
	return string(b)
}

// faces are the faces of a hand in ascending order, [] for none.
func faces(h dice.Hand) []int { return append([]int{}, h.Faces()...) }

func actionOf(a engine.Action) actionView { return gameview.ActionOf(a) }

func makeStateView(s engine.State) *stateView { return gameview.Of(s) }
