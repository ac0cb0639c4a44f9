package solve

import (
	"testing"

	"github.com/farkle/farkle/rules"
)

// tinyRules returns rules with one die where only a 1 scores (100), no
// penalty, the given target and ending.
func tinyRules(t testing.TB, target int, ending string) rules.Rules {
	t.Helper()
	r := rules.MustPreset("classic")
	r.Name = "tiny"
	r.Dice = 1
	r.Scoring.Single = map[string]int{"1": 100}
	r.Turn.FarklePenalty = rules.Penalty{}
	r.Game.Target = target
	r.Game.Ending = ending
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

// smallRules returns a preset with a lower target (and validates it).
func smallRules(t testing.TB, preset string, target int) rules.Rules {
	t.Helper()
	r := rules.MustPreset(preset)
	r.Game.Target = target
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

func mustDuel(t testing.TB, r rules.Rules) *Table {
	t.Helper()
	tab, err := SolveDuel(r, DuelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func near(a, b, tol float64) bool { d := a - b; return d <= tol && -d <= tol }
