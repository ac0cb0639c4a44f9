package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// keepJSON and scoreJSON mirror the documented JSON shape of score.
type keepJSON struct {
	Dice   []int    `json:"dice"`
	Points int      `json:"points"`
	Melds  []string `json:"melds"`
}

type scoreJSON struct {
	Roll           []int      `json:"roll"`
	Farkle         bool       `json:"farkle"`
	Keeps          []keepJSON `json:"keeps"`
	SixDiceNothing int        `json:"six_dice_nothing"`
	Line           int        `json:"line"`
	Input          string     `json:"input"`
	Error          string     `json:"error"`
}

func decodeScore(t testing.TB, line string) scoreJSON {
	t.Helper()
	var s scoreJSON
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("not a score JSON line: %v\n%s", err, line)
	}
	return s
}

// TestScoreJSON checks a throw worked out by hand: under classic, 1-1-3-5-5-6
// scores only with single 1s (100) and 5s (50), so the keeps are a 1s and
// b 5s for a, b in 0..2, not both 0.
func TestScoreJSON(t *testing.T) {
	var want []keepJSON
	for n := 1; n <= 4; n++ { // by dice count, then dice
		for a := 2; a >= 0; a-- {
			b := n - a
			if b < 0 || b > 2 {
				continue
			}
			var d, melds []string
			for range a {
				d, melds = append(d, "1"), append(melds, "single 1")
			}
			for range b {
				d, melds = append(d, "5"), append(melds, "single 5")
			}
			var faces []int
			for _, s := range d {
				faces = append(faces, int(s[0]-'0'))
			}
			want = append(want, keepJSON{Dice: faces, Points: 100*a + 50*b, Melds: melds})
		}
	}
	if len(want) != 8 {
		t.Fatalf("test derivation: %d keeps", len(want))
	}
	for _, args := range [][]string{
		{"113556"}, {"1", "1", "3", "5", "5", "6"}, {"1,1,3,5,5,6"}, {"6 5 5 3 1 1"}, {"1-1-3", "556"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			stdout, stderr, code := runFarkle(t, "", append([]string{"score", "--json"}, args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if strings.Count(stdout, "\n") != 1 {
				t.Fatalf("want one JSON line, got %q", stdout)
			}
			got := decodeScore(t, stdout)
			if !reflect.DeepEqual(got.Roll, []int{1, 1, 3, 5, 5, 6}) || got.Farkle || !reflect.DeepEqual(got.Keeps, want) {
				t.Fatalf("got %+v\nwant keeps %+v", got, want)
			}
		})
	}
}

func TestScoreFlagsAnywhere(t *testing.T) {
	want, _, _ := runFarkle(t, "", "score", "--rules", "pocket-farkel", "--json", "123456")
	for _, args := range [][]string{
		{"score", "123456", "--json", "--rules", "pocket-farkel"},
		{"score", "--json", "1", "2", "3", "--rules=pocket-farkel", "4", "5", "6"},
	} {
		got, stderr, code := runFarkle(t, "", args...)
		if code != 0 || got != want {
			t.Errorf("%q: exit %d, stderr %q\n got %s\nwant %s", args, code, stderr, got, want)
		}
	}
	if !strings.Contains(want, `{"dice":[1,2,3,4,5,6],"points":1500,"melds":["a straight"]}`) {
		t.Errorf("pocket-farkel straight missing: %s", want)
	}
}

func TestScoreFarkle(t *testing.T) {
	stdout, _, code := runFarkle(t, "", "score", "--json", "223466")
	if code != 0 || stdout != `{"roll":[2,2,3,4,6,6],"farkle":true,"keeps":[]}`+"\n" {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	stdout, _, code = runFarkle(t, "", "score", "2 2 3 4 6 6")
	if code != 0 || !strings.Contains(stdout, "farkle") || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("exit %d: %q", code, stdout)
	}
	// With six_dice_nothing, six dice that score nothing are a bonus, not a farkle.
	bonus := writeTestFile(t, "bonus.toml", "[scoring]\nsix_dice_nothing = 500\n")
	stdout, _, code = runFarkle(t, "", "score", "--json", "--rules", bonus, "223466")
	if code != 0 || stdout != `{"roll":[2,2,3,4,6,6],"farkle":false,"keeps":[],"six_dice_nothing":500}`+"\n" {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	stdout, _, code = runFarkle(t, "", "score", "--json", "--rules", bonus, "22346")
	if code != 0 || !strings.Contains(stdout, `"farkle":true`) {
		t.Fatalf("five dice that score nothing are a farkle: exit %d: %s", code, stdout)
	}
}

// TestScoreTable checks the human table: a header, then one row per keep
// with the columns aligned.
func TestScoreTable(t *testing.T) {
	stdout, stderr, code := runFarkle(t, "", "score", "--rules", "pocket-farkel", "1", "1", "1", "1", "5", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	tab := dice.NewTable(rules.MustPreset("pocket-farkel"))
	keeps := tab.Keeps(dice.Of(1, 1, 1, 1, 5, 5))
	if len(lines) != 2+len(keeps) {
		t.Fatalf("%d lines for %d keeps:\n%s", len(lines), len(keeps), stdout)
	}
	if !strings.Contains(lines[0], "1 1 1 1 5 5") || !strings.Contains(lines[0], "pocket-farkel") {
		t.Errorf("header %q", lines[0])
	}
	col := strings.Index(lines[1], "points")
	meldCol := strings.Index(lines[1], "melds")
	if col < 0 || meldCol < 0 {
		t.Fatalf("column heads missing: %q", lines[1])
	}
	for i, line := range lines[2:] {
		k := keeps[i]
		if !strings.HasPrefix(line, k.Hand.String()+" ") {
			t.Errorf("row %q does not start with the keep %v", line, k.Hand)
		}
		if !strings.HasPrefix(line[col:], fmt.Sprint(k.Points)+" ") || line[col-1] != ' ' {
			t.Errorf("row %q: points %d not in the points column", line, k.Points)
		}
		if line[meldCol-1] != ' ' || line[meldCol] == ' ' {
			t.Errorf("row %q: melds not in the melds column", line)
		}
	}
	// The last row is the whole throw: 1-1-1-1-5-5 as three pairs.
	if last := strings.Join(strings.Fields(lines[len(lines)-1]), " "); last != "1 1 1 1 5 5 1500 three pairs" {
		t.Errorf("last row %q, want 1500 as three pairs", last)
	}
}

// TestScoreStdinAllThrows feeds all 923 throws through stdin, written in the
// three notations in turn, and checks every JSON line against the Table.
func TestScoreStdinAllThrows(t *testing.T) {
	for _, preset := range rules.Presets() {
		t.Run(preset, func(t *testing.T) {
			tab := dice.NewTable(rules.MustPreset(preset))
			var in strings.Builder
			for i, h := range dice.AllThrows() {
				sep := []string{"", " ", ","}[i%3]
				in.WriteString(h.Join(sep) + "\n")
			}
			stdout, stderr, code := runFarkle(t, in.String(), "score", "--rules", preset)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(lines) != 923 {
				t.Fatalf("%d JSON lines for 923 throws", len(lines))
			}
			for i, h := range dice.AllThrows() {
				got := decodeScore(t, lines[i])
				if !reflect.DeepEqual(got.Roll, h.Faces()) {
					t.Fatalf("line %d: roll %v, want %v", i+1, got.Roll, h.Faces())
				}
				keeps := tab.Keeps(h)
				if got.Farkle != tab.Farkle(h) || len(got.Keeps) != len(keeps) {
					t.Fatalf("%v: farkle %v with %d keeps; table: %v, %d", h, got.Farkle, len(got.Keeps), tab.Farkle(h), len(keeps))
				}
				for j, k := range keeps {
					gk := got.Keeps[j]
					if !reflect.DeepEqual(gk.Dice, k.Hand.Faces()) || gk.Points != int(k.Points) {
						t.Fatalf("%v keep %d: %+v, table %v = %d", h, j, gk, k.Hand, k.Points)
					}
					if len(gk.Melds) == 0 {
						t.Fatalf("%v keep %d: no melds", h, j)
					}
				}
			}
		})
	}
}

// TestScoreStdinBadLines: a bad line gets an error line, the rest are
// scored, and the exit status is 2 with one line on stderr.
func TestScoreStdinBadLines(t *testing.T) {
	in := "115\n7\n\n  2 2 2  \n1111111\n1,5\n"
	for _, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			stdout, stderr, code := runner.run(t, in, "score")
			checkBadInput(t, stderr, code, "2 lines", "line 2", "7 is not a die face")
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(lines) != 5 {
				t.Fatalf("want 5 JSON lines (the blank line is skipped), got %d:\n%s", len(lines), stdout)
			}
			for i, want := range []struct {
				roll  []int
				line  int
				error string
			}{
				{roll: []int{1, 1, 5}},
				{line: 2, error: "7 is not a die face"},
				{roll: []int{2, 2, 2}},
				{line: 5, error: "more than 6 dice"},
				{roll: []int{1, 5}},
			} {
				got := decodeScore(t, lines[i])
				if want.error != "" {
					if got.Line != want.line || !strings.Contains(got.Error, want.error) || got.Input == "" || got.Keeps != nil {
						t.Errorf("line %d: %+v, want an error naming %q", i+1, got, want.error)
					}
					continue
				}
				if !reflect.DeepEqual(got.Roll, want.roll) || got.Error != "" || len(got.Keeps) == 0 {
					t.Errorf("line %d: %+v, want roll %v", i+1, got, want.roll)
				}
			}
		})
	}
	// All lines good: exit 0, nothing on stderr.
	stdout, stderr, code := runFarkle(t, "1\n5\n", "score")
	if code != 0 || stderr != "" || strings.Count(stdout, "\n") != 2 {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	// Empty stdin: no lines, exit 0.
	if stdout, _, code := runFarkle(t, "", "score"); code != 0 || stdout != "" {
		t.Fatalf("empty stdin: exit %d, %q", code, stdout)
	}
}

func TestScoreRuleFile(t *testing.T) {
	kitchen, err := filepath.Abs("../../examples/kitchen.toml")
	if err != nil {
		t.Fatal(err)
	}
	// Kitchen rules: kind_mode multiply, so four 2s are 200 × 2.
	stdout, stderr, code := runFarkle(t, "", "score", "--json", "--rules", kitchen, "2222")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeScore(t, stdout)
	if last := got.Keeps[len(got.Keeps)-1]; !reflect.DeepEqual(last, keepJSON{Dice: []int{2, 2, 2, 2}, Points: 400, Melds: []string{"four 2s"}}) {
		t.Fatalf("four 2s: %+v", last)
	}
}

// TestBadInput runs the bad inputs of the issue through Main and through the
// binary: exit status 2, nothing on stdout, one line on stderr that says
// what was wrong and what is allowed.
func TestBadInput(t *testing.T) {
	badTOML := writeTestFile(t, "broken.toml", "[game\ntarget = 5000\n")
	invalid := writeTestFile(t, "zero.toml", "[game]\ntarget = 0\n")
	unknown := writeTestFile(t, "typo.json", `{"scoring":{"straigth":1500}}`)
	fiveDice := writeTestFile(t, "five.toml", "dice = 5\n")
	missing := filepath.Join(t.TempDir(), "missing.toml")
	tests := []struct {
		name    string
		args    []string
		mention []string
	}{
		{"score 7 1", []string{"score", "7", "1"}, []string{"farkle score:", "7 is not a die face", "1 to 6"}},
		{"score seven dice", []string{"score", "1111111"}, []string{"more than 6 dice", "1 to 6 dice"}},
		{"score seven dice apart", []string{"score", "1", "1", "1", "1", "1", "1", "1"}, []string{"more than 6 dice"}},
		{"score letters", []string{"score", "abc"}, []string{"'a'", "113556"}},
		{"score six dice under five-dice rules", []string{"score", "--rules", fiveDice, "123456"}, []string{"6 dice", "1 to 5 dice"}},
		{"score unknown preset", []string{"score", "--rules", "yahtzee", "115"}, []string{"yahtzee", "unknown preset", "classic", "pocket-farkel"}},
		{"score broken rule file", []string{"score", "--rules", badTOML, "115"}, []string{"broken.toml", "toml", "preset"}},
		{"score invalid rule file", []string{"score", "--rules", invalid, "115"}, []string{"zero.toml", "game.target", "positive"}},
		{"score unknown field", []string{"score", "--rules", unknown, "115"}, []string{"scoring.straigth", "straight"}},
		{"score missing rule file", []string{"score", "--rules", missing, "115"}, []string{"missing.toml", "preset", ".toml"}},
		{"score bad flag", []string{"score", "--bogus", "115"}, []string{"-bogus", "farkle score -h"}},
		{"odds unknown preset", []string{"odds", "--rules", "yahtzee"}, []string{"unknown preset", "classic"}},
		{"odds broken rule file", []string{"odds", "--rules", badTOML}, []string{"broken.toml"}},
		{"odds argument", []string{"odds", "6"}, []string{"no arguments"}},
		{"rules unknown preset", []string{"rules", "--rules", "yahtzee"}, []string{"unknown preset", "farkle-dice"}},
		{"rules invalid file", []string{"rules", "--rules", invalid, "--json"}, []string{"game.target"}},
		{"rules argument", []string{"rules", "classic"}, []string{"no arguments", "--rules"}},
	}
	for _, runner := range farkleRunners {
		for _, tt := range tests {
			t.Run(runner.name+"/"+tt.name, func(t *testing.T) {
				stdout, stderr, code := runner.run(t, "", tt.args...)
				checkBadInput(t, stderr, code, tt.mention...)
				if stdout != "" {
					t.Errorf("stdout %q, want nothing", stdout)
				}
			})
		}
	}
}
