package rules

import (
	"fmt"
	"sort"
	"strings"
)

// ErrUnknownPreset is returned (wrapped) for a preset name that does not exist.
var ErrUnknownPreset = fmt.Errorf("rules: unknown preset")

func standard() Rules {
	return Rules{
		Dice: 6,
		Scoring: Scoring{
			Single:         map[string]int{"1": 100, "5": 50},
			Triple:         [6]int{1000, 200, 300, 400, 500, 600},
			KindMode:       KindNone,
			ThreePairsQuad: true,
		},
		Turn: Turn{HotDice: true},
		Game: Game{
			Target:      10000,
			Ending:      EndFinalRound,
			MinPlayers:  1,
			MaxPlayers:  8,
			FirstPlayer: RollOff,
			Tie:         RollOff,
		},
	}
}

var presets = map[string]func() Rules{
	// The "Official farkle rules" (docs/RULES.md section 3).
	"classic": func() Rules {
		r := standard()
		r.Name = "classic"
		r.Turn.FarklePenalty = Penalty{Count: 3, Points: 1000}
		return r
	},
	// Pocket Farkel, Legendary Games.
	"pocket-farkel": func() Rules {
		r := standard()
		r.Name = "pocket-farkel"
		s := &r.Scoring
		s.Triple[0] = 300
		s.KindMode = KindFixed
		s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = 1000, 2000, 3000
		s.Straight = 1500
		s.ThreePairs = 1500
		s.TwoTriplets = 2500
		return r
	},
	// Smart Box Design's Farkle Dice.
	"farkle-dice": func() Rules {
		r := standard()
		r.Name = "farkle-dice"
		s := &r.Scoring
		s.KindMode = KindMultiply
		s.Straight = 1000
		s.ThreePairs = 750
		r.Turn.EntryMinimum = 500
		r.Turn.FarklePenalty = Penalty{Count: 3, Points: 1000}
		r.Game.NextFirst = NextWinner
		return r
	},
	// The two-player printable rules.
	"cardgames": func() Rules {
		r := standard()
		r.Name = "cardgames"
		s := &r.Scoring
		s.KindMode = KindFixed
		s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = 1000, 2000, 3000
		s.Straight = 2500
		s.ThreePairs = 1500
		r.Game.Ending = EndImmediate
		r.Game.MinPlayers, r.Game.MaxPlayers = 2, 2
		return r
	},
}

// Presets returns the names of the presets, sorted.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Preset returns the named preset, or an error wrapping ErrUnknownPreset that
// lists the presets that exist.
func Preset(name string) (Rules, error) {
	f, ok := presets[name]
	if !ok {
		return Rules{}, fmt.Errorf("%w %q (presets: %s)", ErrUnknownPreset, name, strings.Join(Presets(), ", "))
	}
	return f(), nil
}

// MustPreset is Preset for names known to exist; it panics otherwise.
func MustPreset(name string) Rules {
	r, err := Preset(name)
	if err != nil {
		panic(err)
	}
	return r
}
