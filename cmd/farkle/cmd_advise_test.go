package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// noHotRules is pocket-farkel (1 = 100, 5 = 50, no penalty) without hot
// dice to a target of 1,000: positions small enough to value by hand.
const noHotRules = `base = "pocket-farkel"
[turn]
hot_dice = false
[game]
target = 1000
`

// adviceOut is the JSON of advise, read back.
type adviceOut struct {
	Measure string `json:"measure"`
	Farkle  bool   `json:"farkle"`
	Choices []struct {
		Action string  `json:"action"`
		Keep   []int   `json:"keep"`
		Value  float64 `json:"value"`
		Then   string  `json:"then"`
		Best   bool    `json:"best"`
	} `json:"choices"`
}

func (a adviceOut) value(name string) float64 {
	for _, c := range a.Choices {
		n := c.Action
		for _, d := range c.Keep {
			n += string(rune('0' + d))
		}
		if n == name {
			return c.Value
		}
	}
	return math.NaN()
}

func (a adviceOut) best() string {
	for _, c := range a.Choices {
		if c.Best {
			n := c.Action
			for _, d := range c.Keep {
				n += string(rune('0' + d))
			}
			return n
		}
	}
	return ""
}

func runAdviseJSON(t *testing.T, run func(testing.TB, string, ...string) (string, string, int), args ...string) adviceOut {
	t.Helper()
	out, errOut, code := run(t, "", append([]string{"advise", "--json", "--cache", t.TempDir()}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var a adviceOut
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return a
}

// TestAdviseByHand checks values worked out by hand (see the advise
// package's tests for the derivations).
func TestAdviseByHand(t *testing.T) {
	file := writeTestFile(t, "nohot.toml", noHotRules)
	for _, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			// Last turn of the final round: a bank loses, a throw wins 1/4.
			a := runAdviseJSON(t, runner.run, "--rules", file, "--me", "500", "--them", "1000", "--turn", "450", "--dice", "1")
			if a.Measure != "win probability" || math.Abs(a.value("bank")) > 1e-9 || math.Abs(a.value("throw")-0.25) > 1e-9 || a.best() != "throw" {
				t.Errorf("last turn: %+v", a)
			}
			// Expected points: keep 1 (400), keep 5 (350), keep both (450).
			a = runAdviseJSON(t, runner.run, "--rules", file, "--turn", "300", "--throw", "15")
			if a.Measure != "expected points" || a.value("keep1") != 400 || a.value("keep5") != 350 || a.value("keep15") != 450 || a.best() != "keep15" {
				t.Errorf("throw 1 5: %+v", a)
			}
			// One die at 300: bank 300, throw (400+350)/6.
			a = runAdviseJSON(t, runner.run, "--rules", file, "--turn", "300", "--dice", "1")
			if a.value("bank") != 300 || math.Abs(a.value("throw")-125) > 1e-9 || a.best() != "bank" {
				t.Errorf("one die: %+v", a)
			}
		})
	}
}

func TestAdviseText(t *testing.T) {
	file := writeTestFile(t, "nohot.toml", noHotRules)
	out, errOut, code := runFarkle(t, "", "advise", "--rules", file, "--me", "200", "--them", "400", "--turn", "100", "--dice", "3", "--throw", "115", "--cache", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var bestLines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "<- best") {
			bestLines = append(bestLines, l)
		}
	}
	if len(bestLines) != 1 || !strings.Contains(out, "probability of winning") || !strings.Contains(out, "keep 1 1 5") || !strings.Contains(out, "%") {
		t.Errorf("output:\n%s", out)
	}
	// The marked line is the JSON's best keep.
	a := runAdviseJSON(t, runFarkle, "--rules", file, "--me", "200", "--them", "400", "--turn", "100", "--dice", "3", "--throw", "115")
	best := a.best()
	keep := strings.Join(strings.Split(strings.TrimPrefix(best, "keep"), ""), " ")
	if len(bestLines) == 1 && !strings.HasPrefix(bestLines[0], "keep "+keep+" ") {
		t.Errorf("marked %q, JSON best %s", bestLines[0], best)
	}
}

func TestAdviseFarkle(t *testing.T) {
	a := runAdviseJSON(t, runFarkle, "--turn", "300", "--throw", "2346")
	if !a.Farkle || len(a.Choices) != 0 {
		t.Errorf("throw 2 3 4 6: %+v", a)
	}
}

func TestAdviseBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		mention []string
	}{
		{"negative turn", []string{"--turn", "-50", "--dice", "3"}, []string{"negative"}},
		{"negative score", []string{"--me", "-100", "--turn", "50", "--dice", "3"}, []string{"negative"}},
		{"negative opponent", []string{"--them", "-100", "--turn", "50", "--dice", "3"}, []string{"negative"}},
		{"seven dice", []string{"--turn", "100", "--dice", "7"}, []string{"7 dice"}},
		{"off unit", []string{"--turn", "75", "--dice", "3"}, []string{"75", "multiple of 50"}},
		{"score off unit", []string{"--me", "120", "--turn", "50", "--dice", "3"}, []string{"120", "multiple of 50"}},
		{"bad throw", []string{"--turn", "100", "--throw", "1x5"}, []string{"--throw"}},
		{"seven dice thrown", []string{"--turn", "100", "--throw", "1155223"}, []string{"more than 6 dice"}},
		{"throw size", []string{"--turn", "100", "--dice", "3", "--throw", "15"}, []string{"2 dice, not 3"}},
		{"nothing kept", []string{"--turn", "0", "--dice", "2"}, []string{"turn total 0"}},
		{"at target", []string{"--me", "10000", "--turn", "50", "--dice", "2"}, []string{"target"}},
		{"stray argument", []string{"--turn", "50", "--dice", "2", "extra"}, []string{"extra"}},
		{"unknown rules", []string{"--rules", "nope", "--turn", "50", "--dice", "2"}, []string{"nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runFarkle(t, "", append([]string{"advise", "--no-cache"}, tc.args...)...)
			checkBadInput(t, errOut, code, tc.mention...)
		})
	}
}
