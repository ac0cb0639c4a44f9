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

// eachStart calls f for every start of a turn of tab, with its farkle value
// F and nothing value Z read from the table.
func eachStart(tab *Table, f func(a, b, sa, sb int32, F, Z float64)) {
	for a := int32(0); a < tab.A; a++ {
		for b := int32(0); b < tab.A; b++ {
			for sa := int32(0); sa < tab.c; sa++ {
				for sb := int32(0); sb < tab.c; sb++ {
					F := 1 - tab.w[tab.idx(tab.farkleTarget(a, b, sa, sb))]
					Z := 1 - tab.w[tab.idx(b, a, sb, sa)]
					f(a, b, sa, sb, F, Z)
				}
			}
		}
	}
}
