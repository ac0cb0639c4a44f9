package rules_test

import (
	"errors"
	"fmt"

	"github.com/farkle/farkle/rules"
)

// A preset is a complete rule set by name; Presets lists the names.
func ExamplePreset() {
	r, err := rules.Preset("farkle-dice")
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Name, r.Scoring.KindMode, r.Turn.EntryMinimum, r.Game.Target)
	fmt.Println(rules.Presets())

	_, err = rules.Preset("yahtzee")
	fmt.Println(errors.Is(err, rules.ErrUnknownPreset))
	// Output:
	// farkle-dice multiply 500 10000
	// [cardgames classic farkle-dice pocket-farkel]
	// true
}

// A rule file names a base preset and overrides some of its fields; the
// result is validated. Load reads the same from a file (.toml or .json).
func ExampleParseTOML() {
	r, err := rules.ParseTOML([]byte(`
name = "short game"
base = "classic"

[scoring]
straight = 1500

[game]
target = 5000
`))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Name, r.Scoring.Straight, r.Game.Target, r.Turn.FarklePenalty.Points)
	// Output: short game 1500 5000 1000
}

// A value out of bounds is refused with a *FieldError naming the field and
// what is allowed.
func ExampleParseTOML_invalid() {
	_, err := rules.ParseTOML([]byte("[game]\ntarget = 2000000\n"))
	var fe *rules.FieldError
	fmt.Println(errors.As(err, &fe), errors.Is(err, rules.ErrInvalid))
	fmt.Println(fe.Field, "-", fe.Msg)
	// Output:
	// true true
	// game.target - at most 1000000 (got 2000000)
}
