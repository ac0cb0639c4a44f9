package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
)

// smallExploreRules is classic without its penalty to 2,000: a duel table
// solved in a fraction of a second.
const smallExploreRules = `name = "small"
base = "classic"
[turn]
farkle_penalty = { count = 0, points = 0 }
[game]
target = 2000
`

func TestExplore(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	cache := t.TempDir()
	for _, fr := range farkleRunners {
		t.Run(fr.name, func(t *testing.T) {
			out, errOut, code := fr.run(t, "", "explore", "--rules", rf, "--cache", cache, "--cells", "20", "--me", "1000", "--them", "1500", "--turn", "300", "--dice", "3")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range []string{
				"P(the player to move wins) at the start of a turn, small (target 2,000)",
				"at 1,000 to 1,500 (small): P(win) ",
				"the turn at 1,000 to 1,500",
				"solo optimum (small",
				"duel at my score 1,000",
				"small: me 1,000, them 1,500, turn 300, 3 dice (values: win probability)",
				"perfect:",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in:\n%s", want, out)
				}
			}
			if strings.Contains(out, "\x1b[") {
				t.Error("colours in output that is not a terminal")
			}
		})
	}
}

// TestExploreColour runs explore as on a terminal: coloured cells, and
// none under NO_COLOR.
func TestExploreColour(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	cache := t.TempDir()
	for _, noColor := range []string{"", "1"} {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, terminal: true,
			getenv: func(k string) string {
				if k == "NO_COLOR" {
					return noColor
				}
				return ""
			}}
		if code := Main(context.Background(), e, []string{"explore", "--rules", rf, "--cache", cache, "--cells", "10"}); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if got := strings.Contains(out.String(), ";48;5;"); got != (noColor == "") {
			t.Errorf("NO_COLOR=%q: background colours %v", noColor, got)
		}
	}
}

func TestExploreCharts(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	cache, dir := t.TempDir(), t.TempDir()
	svgFile, pngFile := filepath.Join(dir, "x.svg"), filepath.Join(dir, "x.png")
	for _, args := range [][]string{{"--svg", svgFile}, {"--png", pngFile}} {
		if _, errOut, code := runFarkle(t, "", append([]string{"explore", "--rules", rf, "--cache", cache, "--cells", "10"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	b, err := os.ReadFile(svgFile)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("SVG: %v", err)
		}
	}
	f, err := os.Open(pngFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runFarkle(t, "", "explore", "--rules", rf, "--svg", filepath.Join(dir, "x.png"))
	checkBadInput(t, errOut, code, "--svg", ".svg")
	_, errOut, code = runFarkle(t, "", "explore", "--compare", "classic")
	checkBadInput(t, errOut, code, "two to four")
}

func TestExploreCompare(t *testing.T) {
	a := writeTestFile(t, "a.toml", smallExploreRules)
	b := writeTestFile(t, "b.toml", strings.Replace(smallExploreRules, `base = "classic"`, `base = "cardgames"`, 1))
	svgFile := filepath.Join(t.TempDir(), "cmp.svg")
	out, errOut, code := runFarkle(t, "", "explore", "--compare", a+","+b, "--cache", t.TempDir(), "--games", "200", "--svg", svgFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	svg, err := os.ReadFile(svgFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"P(farkle) by dice thrown", "points of a throw", "solo optimum: bank from"} {
		if !strings.Contains(string(svg), title) {
			t.Errorf("the comparison's charts have no %q", title)
		}
	}
	for _, want := range []string{"P(farkle), 6 dice", "points per turn", "P(first player wins)", "fair compensation", "turns a game"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestExploreCursor moves the cursor right and up with the keys of stdin:
// each key redraws the map with the cell's exact value.
func TestExploreCursor(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	out, errOut, code := runFarkle(t, "l\x1b[Aq", "explore", "--rules", rf, "--cache", t.TempDir(), "--cells", "20", "--cursor")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "P(the player to move wins)"); n != 3 {
		t.Errorf("%d frames, want 3 (the first and one a key)", n)
	}
	for _, want := range []string{"at 0 to 0: P(win) ", "at 0 to 100: P(win) ", "at 100 to 100: P(win) "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the frames", want)
		}
	}
	if strings.Contains(out, "the turn at") {
		t.Error("the cursor shows the rest too")
	}
}

// TestSolvePublished solves the rule set of Busche and Neller (seconds)
// and prints their result beside ours: they agree.
func TestSolvePublished(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a duel table to 10,000")
	}
	out, errOut, code := runFarkle(t, "", "solve", "--published", "--cache", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Matthew Busche and Todd W. Neller", "published: 200 points", "farkle:    200 points", "agrees:    yes", "Clifton G. M. Presser"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "agrees:    no") {
		t.Errorf("a published result disagrees:\n%s", out)
	}
}

func TestExploreBadPosition(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	for _, args := range [][]string{
		{"--me", "1010"},
		{"--them", "-50"},
		{"--turn", "300", "--my-streak", "1"}, // no penalty: no streaks
		{"--throw", "1234567"},
		{"--cells", "0"},
	} {
		out, errOut, code := runFarkle(t, "", append([]string{"explore", "--rules", rf, "--cache", t.TempDir()}, args...)...)
		checkBadInput(t, errOut, code)
		if code == 2 && strings.Contains(out, "P(the player to move wins)") && args[0] != "--throw" && args[0] != "--cells" {
			t.Errorf("%v: the maps were written before the refusal", args)
		}
	}
}

// TestExploreNorwegian: farkle explore --lang nb (or LANG) writes its maps
// and tables in Norwegian, numbers as Norwegian writes them (2 000, 0,5).
func TestExploreNorwegian(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	cache := t.TempDir()
	args := []string{"explore", "--rules", rf, "--cache", cache, "--cells", "20", "--me", "1000", "--them", "1500", "--turn", "300", "--dice", "3"}
	for name, run := range map[string]func() (string, string, int){
		"--lang": func() (string, string, int) { return execFarkle(t, "", append(args, "--lang", "nb")...) },
		"LANG":   func() (string, string, int) { return execFarkleEnv(t, []string{"LANG=nb_NO.UTF-8"}, "", args...) },
	} {
		out, errOut, code := run()
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		nb := lang.Get("nb")
		for _, want := range []string{
			nb.Msg("cli.explore.winTitle", "rules", "small", "target", 2000),
			"ved 1\u00a0000 mot 1\u00a0500 (small): P(seier) 0,",
			nb.Msg("cli.explore.duelHead", "me", 1000),
			"(verdier: vinnersjanse)",
			"perfect:",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in:\n%s", name, want, out)
			}
		}
		for _, english := range []string{"the turn at", "solo optimum", "dice", "then", "points"} {
			if strings.Contains(out, english) {
				t.Errorf("%s: English %q in:\n%s", name, english, out)
			}
		}
	}
}
