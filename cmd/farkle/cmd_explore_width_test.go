package main

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// smallPenaltyRules is classic with its farkle penalty to 1,500: the
// thresholds' rows after farkles in a row, solved at once.
const smallPenaltyRules = `name = "small-penalty"
base = "classic"
[game]
target = 1500
`

// TestExploreFitsEighty runs each mode of farkle explore, in English and
// Norwegian, and fails on a line wider than an 80-column terminal.
func TestExploreFitsEighty(t *testing.T) {
	small := writeTestFile(t, "small.toml", smallExploreRules)
	penalty := writeTestFile(t, "penalty.toml", smallPenaltyRules)
	longName := writeTestFile(t, "long.toml", strings.Replace(smallExploreRules, `"small"`, `"a rule set with a rather long name"`, 1))
	huge := writeTestFile(t, "huge.toml", "name = \"huge\"\nbase = \"classic\"\n[game]\ntarget = 1000000\n") // too big for a duel table
	cache := t.TempDir()
	modes := map[string][]string{
		"map":        {"--rules", small},
		"penalty":    {"--rules", penalty, "--me", "500", "--them", "1000"},
		"inspection": {"--rules", small, "--me", "1000", "--them", "1500", "--turn", "300", "--throw", "113556"},
		"streak":     {"--rules", penalty, "--turn", "300", "--dice", "2", "--my-streak", "2"},
		"compare":    {"--compare", small + "," + penalty + "," + longName + "," + small, "--games", "20"},
		"published":  {"--published"},
		"no duel":    {"--rules", huge},
		"cursor":     {"--rules", small, "--cursor"},
	}
	for name, args := range modes {
		for _, lc := range []string{"en", "nb"} {
			t.Run(name+"/"+lc, func(t *testing.T) {
				out, errOut, code := runFarkle(t, "lq", append([]string{"explore", "--lang", lc, "--cache", cache}, args...)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				lines := strings.Split(out, "\n")
				if len(lines) < 5 {
					t.Fatalf("only %d lines:\n%s", len(lines), out)
				}
				for i, line := range lines {
					if w := ansi.StringWidth(line); w > 80 {
						t.Errorf("line %d is %d columns: %q", i+1, w, line)
					}
				}
			})
		}
	}
}
