package rating

import (
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
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

// Families lists the rated families.
func Families() []Family { return []Family{Ordinary, Dragon, House} }

// Valid reports whether f names a rated family.
func (f Family) Valid() bool { return f == Ordinary || f == Dragon || f == House }

// FamilyOf returns the family of a game of v: Dragon for Dragon Farkle,
// Ordinary when v's rules are those of a preset (the turn cap aside, which
// the server may lower), House for other rules when the table was marked
// rated, Unrated otherwise.
func FamilyOf(v game.Variant, rated bool) Family {
	switch v.Kind() {
	case game.Dragon:
		return Dragon
	case game.Farkle:
	default:
		return Unrated
	}
	if IsPreset(v.Scoring()) {
		return Ordinary
	}
	if rated {
		return House
	}
	return Unrated
}

// IsPreset reports whether r plays as one of the ordinary presets,
// whatever its turn cap or who starts.
func IsPreset(r rules.Rules) bool {
	h := r.ForSolver().Hash()
	for _, n := range rules.Presets() {
		p, err := rules.Preset(n)
		if err == nil && p.ForSolver().Hash() == h {
			return true
		}
	}
	return false
}
