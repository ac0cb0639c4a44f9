package rating

import (
	"slices"

	"github.com/farkle/farkle/game"
)

// Family names a pool of players rated against each other: games of
// different families say nothing about each other.
type Family string

// The families. Unrated is the family of a game that moves no rating.
const (
	Unrated  Family = ""
	Ordinary Family = "farkle" // the ordinary game under any preset
	Dragon   Family = "dragon" // Dragon Farkle
	House    Family = "house"  // the ordinary game under house rules, on tables marked rated
)

// Families lists the rated families: Ordinary first (the leaderboard's
// default), then the others of every kind of game (game.Families) by name.
func Families() []Family {
	out := []Family{Ordinary}
	for _, f := range game.Families() {
		if Family(f) != Ordinary {
			out = append(out, Family(f))
		}
	}
	return out
}

// Valid reports whether f names a rated family.
func (f Family) Valid() bool { return f != Unrated && slices.Contains(Families(), f) }

// FamilyOf returns the family of a game of v, as its variant says
// (game.Variant.Family): for the ordinary game Ordinary when v's rules are
// those of a preset (the turn cap aside, which the server may lower),
// House for other rules when the table was marked rated, Unrated
// otherwise; Dragon for Dragon Farkle.
func FamilyOf(v game.Variant, rated bool) Family { return Family(v.Family(rated)) }
