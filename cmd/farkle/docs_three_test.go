package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/internal/testflags"
)

// threeDocRows reads the results table of docs/THREE.md: by preset, the
// cells of its row (seat 1, seat 2, seat 3, orbits, fair compensation,
// the chances with it).
func threeDocRows(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "THREE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	row := regexp.MustCompile("^\\| `([a-z-]+)`[^|]*\\|(.*)\\|$")
	for _, line := range strings.Split(string(data), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var cells []string
		for _, c := range strings.Split(m[2], "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows[m[1]] = cells
	}
	return rows
}

// TestThreeDocAgreesWithSolve: docs/THREE.md has a row of results for
// every preset farkle solve --published shows at the full target, each
// seat's chance and the fair compensation written as the command writes
// them; with the full-target tables at hand (FARKLE_THREE_CACHE: the
// directory farkle solve --players 3 --cache wrote them to, as docs/THREE.md
// section 5 says) the row is the command's very numbers.
func TestThreeDocAgreesWithSolve(t *testing.T) {
	rows := threeDocRows(t)
	pct := regexp.MustCompile(`^\d+\.\d\d %$`)
	for _, g := range explore.PublishedThree {
		if g.Target != 10000 {
			continue
		}
		cells, ok := rows[g.Preset]
		if !ok {
			t.Errorf("docs/THREE.md has no row of %s", g.Preset)
			continue
		}
		if len(cells) != 6 {
			t.Fatalf("%s: cells %q, want 6", g.Preset, cells)
		}
		for _, c := range cells[:3] {
			if !pct.MatchString(c) {
				t.Errorf("%s: %q is not a chance as the command writes it", g.Preset, c)
			}
		}
	}
	dir := os.Getenv("FARKLE_THREE_CACHE")
	if dir == "" {
		t.Skip("FARKLE_THREE_CACHE names no directory of the full-target three-player tables (a quarter of an hour of CPU each)")
	}
	out, errOut, code := runFarkle(t, "", "solve", "--published", "--cache", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, g := range explore.PublishedThree {
		if g.Target != 10000 {
			continue
		}
		c := rows[g.Preset]
		nospace := func(s string) string { return strings.ReplaceAll(s, " %", "%") }
		fair := regexp.MustCompile(`\+(\d+)`).FindAllStringSubmatch(c[4], -1)
		if len(fair) != 2 {
			t.Fatalf("%s: fair compensation %q, want seat 2 +N, seat 3 +M", g.Preset, c[4])
		}
		want := []string{
			"P(seat 1 / 2 / 3 wins): " + nospace(c[0]) + " / " + nospace(c[1]) + " / " + nospace(c[2]),
			"orbits: " + strings.Fields(c[3])[0] + " (",
			"fair compensation: seat 1 +0, seat 2 +" + fair[0][1] + ", seat 3 +" + fair[1][1] + " points",
			"then P(seat 1 / 2 / 3 wins): " + nospace(c[5]),
		}
		at := strings.Index(out, g.Preset+", target 10,000")
		if at < 0 {
			t.Fatalf("no %s in:\n%s", g.Preset, out)
		}
		block := out[at:]
		block = block[:strings.Index(block+"\n\n", "\n\n")]
		for _, w := range want {
			if !strings.Contains(block, w) {
				t.Errorf("%s: the command does not say %q:\n%s", g.Preset, w, block)
			}
		}
	}
}

// TestThreeDocShorterGames: the rows of docs/THREE.md's shorter games of
// classic and Farkle Dice are what farkle solve --players 3 gives: each
// seat's chance (to the hundredth of a point), the fair compensation and
// the chances with it. The rows to 1,000 are solved here (half a minute
// of CPU in all; long runs), the others only read.
func TestThreeDocShorterGames(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "THREE.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([a-z-]+)`, ([0-9,]+) \\|(.*)\\|$")
	type docRow struct {
		preset, target string
		cells          []string
	}
	var rows []docRow
	for _, line := range strings.Split(string(data), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			var cells []string
			for _, c := range strings.Split(m[3], "|") {
				cells = append(cells, strings.TrimSpace(c))
			}
			rows = append(rows, docRow{m[1], strings.ReplaceAll(m[2], ",", ""), cells})
		}
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows of shorter games in docs/THREE.md, want classic and farkle-dice to 1,000, 2,000 and 3,000", len(rows))
	}
	testflags.SkipUnlessLong(t, "solves two three-player tables with a penalty (half a minute of CPU)")
	for _, r := range rows {
		if r.target != "1000" {
			continue
		}
		got := solveThreeJSON(t, "solve", "--players", "3", "--rules", r.preset, "--target", r.target, "--json", "--no-cache")
		pct := func(p float64) string { return fmt.Sprintf("%.2f %%", 100*p) }
		for i := range 3 {
			if r.cells[i] != pct(got.PWins[i]) {
				t.Errorf("%s to %s, seat %d: the docs say %s, the solver %s", r.preset, r.target, i+1, r.cells[i], pct(got.PWins[i]))
			}
		}
		if want := fmt.Sprintf("seat 2 +%d, seat 3 +%d", got.Fair[1], got.Fair[2]); got.Fair[0] != 0 || r.cells[4] != want {
			t.Errorf("%s to %s: the docs' compensation %q, the solver's %v", r.preset, r.target, r.cells[4], got.Fair)
		}
		if want := pct(got.FairWins[0]) + " / " + pct(got.FairWins[1]) + " / " + pct(got.FairWins[2]); r.cells[5] != want {
			t.Errorf("%s to %s: the docs' chances with it %q, the solver's %q", r.preset, r.target, r.cells[5], want)
		}
	}
}
