package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

func TestSolveSoloJSON(t *testing.T) {
	for _, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runFarkle(t, "", "solve", "--solo", "--json", "--rules", name)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var got soloJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			r := rules.MustPreset(name)
			p, err := solve.SolveSolo(r)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.ExpectedTurn-p.ExpectedTurn()) > 1e-6 {
				t.Errorf("expected_turn %v, solver %v", got.ExpectedTurn, p.ExpectedTurn())
			}
			if len(got.BankAt) != 6 {
				t.Errorf("bank_at has %d entries, want 6: %s", len(got.BankAt), out)
			}
			for n := 1; n <= 6; n++ {
				v := got.BankAt[string(rune('0'+n))]
				want, ok, _ := p.BankAt(n)
				if v == nil || !ok || *v != want {
					t.Errorf("bank_at[%d] = %v, want %d", n, v, want)
				}
			}
			if pen := r.Turn.FarklePenalty.Count; pen > 0 {
				if len(got.BankAtStreak) != pen {
					t.Errorf("bank_at_streak has %d streaks, want %d", len(got.BankAtStreak), pen)
				}
				if *got.BankAtStreak["0"]["6"] != *got.BankAt["6"] {
					t.Errorf("bank_at is not bank_at_streak[0]")
				}
			} else if strings.Contains(out, "bank_at_streak") {
				t.Errorf("bank_at_streak without a penalty: %s", out)
			}
			if (r.Turn.EntryMinimum > 0) != (got.Entry != nil) {
				t.Errorf("entry strategy present %v with entry minimum %d", got.Entry != nil, r.Turn.EntryMinimum)
			}
		})
	}
}

// TestSolveSoloNull: with six_dice_nothing six dice never farkle, so banking
// is never at least as good as throwing them: null.
func TestSolveSoloNull(t *testing.T) {
	file := writeTestFile(t, "sdn.toml", "base = \"cardgames\"\n[scoring]\nsix_dice_nothing = 500\n")
	out, errOut, code := runFarkle(t, "", "solve", "--solo", "--json", "--rules", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"6":null`) {
		t.Errorf("bank_at[6] is not null: %s", out)
	}
}

// TestSolveSoloText: every row of the bank-at table is labelled with what
// it is (the farkles in a row brought to the turn, to enter or on the
// board) and holds the JSON's thresholds for it; the table is aligned.
func TestSolveSoloText(t *testing.T) {
	entry := writeTestFile(t, "entry.toml", "base = \"cardgames\"\n[turn]\nentry_minimum = 500\n")
	for _, name := range append(rules.Presets(), entry) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			out, errOut, code := runFarkle(t, "", "solve", "--solo", "--rules", name)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			js, _, _ := runFarkle(t, "", "solve", "--solo", "--json", "--rules", name)
			var sol soloJSON
			if err := json.Unmarshal([]byte(js), &sol); err != nil {
				t.Fatal(err)
			}
			// The rows the JSON says there are, by label.
			want := map[string]map[string]*int{}
			if sol.BankAtStreak == nil && sol.Entry == nil {
				want["every turn"] = sol.BankAt
			} else if sol.BankAtStreak == nil {
				want["on the board"], want["to enter"] = sol.BankAt, sol.Entry.BankAt
			}
			for k, th := range sol.BankAtStreak {
				label := k + " farkles in a row"
				if k == "1" {
					label = "1 farkle in a row"
				}
				want[label] = th
				if sol.Entry != nil {
					want["to enter, "+label] = sol.Entry.BankAtStreak[k]
				}
			}
			r := rules.MustPreset("cardgames") // the base of the entry file
			if name != entry {
				r = rules.MustPreset(name)
			}
			if pen := r.Turn.FarklePenalty; pen.Count > 0 && !strings.Contains(out, fmt.Sprintf("\nrows: the farkles in a row the player brings to the turn (%d in a row cost %s)\n", pen.Count, lang.Get(lang.Default).Num(int64(pen.Points)))) {
				t.Errorf("no line says what the rows are:\n%s", out)
			}
			var width int
			rows := 0
			at := strings.Index(out, "dice to throw")
			if at < 0 {
				t.Fatalf("no table:\n%s", out)
			}
			table, _, _ := strings.Cut(out[strings.LastIndex(out[:at], "\n")+1:], "\n\n")
			for _, line := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
				f := strings.Fields(line)
				if width == 0 {
					width = len(line)
				} else if len(line) != width {
					t.Errorf("row %q is %d wide, others %d", line, len(line), width)
				}
				if len(f) < 7 {
					t.Errorf("row %q has not 6 cells", line)
					continue
				}
				label := strings.Join(f[:len(f)-6], " ")
				if label == "dice to throw" {
					continue
				}
				th, ok := want[label]
				if !ok {
					t.Errorf("row %q is none of the JSON's: %v", line, want)
					continue
				}
				rows++
				for n := 1; n <= 6; n++ {
					cell := "-"
					if v := th[strconv.Itoa(n)]; v != nil {
						cell = lang.Get(lang.Default).Num(int64(*v)) // 18,600: English groups thousands
					}
					if f[len(f)-7+n] != cell {
						t.Errorf("row %q, %d dice: %s, the JSON says %s", label, n, f[len(f)-7+n], cell)
					}
				}
			}
			if rows != len(want) || strings.Contains(out, "behind") {
				t.Errorf("%d rows, want %d:\n%s", rows, len(want), out)
			}
		})
	}
}

const tinyDuel = `name = "tiny"
dice = 1
[scoring]
single = { "1" = 100 }
[turn]
farkle_penalty = { count = 0, points = 0 }
[game]
target = 100
ending = "immediate"
`

func TestSolveDuelCache(t *testing.T) {
	file := writeTestFile(t, "tiny.toml", tinyDuel)
	dir := t.TempDir()
	run := func() (duelJSON, string) {
		t.Helper()
		out, errOut, code := runFarkle(t, "", "solve", "--duel", "--json", "--rules", file, "--cache", dir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got duelJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return got, errOut
	}
	first, _ := run()
	// the first to throw a 1 wins: 1/6 + 5/6 (1 - w) = w = 6/11
	if math.Abs(first.PFirstWins-6.0/11) > 1e-12 || first.Cached || first.States != 1 {
		t.Errorf("first run %+v, want p 6/11, not cached, 1 state", first)
	}
	second, _ := run()
	if !second.Cached || second.PFirstWins != first.PFirstWins {
		t.Errorf("second run %+v, want the cached table", second)
	}
	if filepath.Dir(second.CacheFile) != dir {
		t.Errorf("cache file %q not in %q", second.CacheFile, dir)
	}
	data, err := os.ReadFile(second.CacheFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second.CacheFile, data[:len(data)-5], 0o644); err != nil {
		t.Fatal(err)
	}
	third, errOut := run()
	if third.Cached || !strings.Contains(errOut, "cache file rebuilt") || third.PFirstWins != first.PFirstWins {
		t.Errorf("truncated cache: %+v, stderr %q", third, errOut)
	}
}

func TestSolveDuelCacheDirFromEnv(t *testing.T) {
	file := writeTestFile(t, "tiny.toml", tinyDuel)
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"FARKLE_CACHE_DIR": "/a", "XDG_CACHE_HOME": "/b", "HOME": "/c"}, "/a"},
		{map[string]string{"XDG_CACHE_HOME": "/b", "HOME": "/c"}, "/b/farkle"},
		{map[string]string{"HOME": "/c"}, "/c/.cache/farkle"},
	} {
		e := &env{getenv: func(k string) string { return tc.env[k] }}
		if got := cacheDirectory(e, ""); got != tc.want {
			t.Errorf("env %v: %q, want %q", tc.env, got, tc.want)
		}
		if got := cacheDirectory(e, "/flag"); got != "/flag" {
			t.Errorf("--cache must win: %q", got)
		}
	}
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "XDG_CACHE_HOME" {
			return dir
		}
		return ""
	}}
	if code := Main(context.Background(), e, []string{"solve", "--duel", "--rules", file}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "farkle", "duel-*.bin"))
	if len(matches) != 1 {
		t.Errorf("cache files under $XDG_CACHE_HOME/farkle: %v", matches)
	}
	for _, want := range []string{"P(first player wins)  0.545455", "fair compensation", "states", "seconds"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSolveBadInput(t *testing.T) {
	three := writeTestFile(t, "three.toml", "base = \"classic\"\n[game]\nmin_players = 3\n")
	// a point unit of 1 and a bank minimum of a million points: the solo
	// turn arrays need about 1.2 GiB
	huge := writeTestFile(t, "huge.toml", "base = \"classic\"\n[scoring]\nsingle = { \"1\" = 100, \"5\" = 49 }\n[turn]\nbank_minimum = 1000000\n[game]\ntarget = 1000000\n")
	for _, tc := range []struct {
		args    []string
		mention []string
	}{
		{[]string{"solve"}, []string{"--solo", "--duel"}},
		{[]string{"solve", "--solo", "--duel"}, []string{"exactly one"}},
		{[]string{"solve", "--duel", "--rules", three}, []string{"min_players", "3"}},
		{[]string{"solve", "--duel", "--no-cache", "--max-memory", "1000"}, []string{"needs", "MiB"}},
		{[]string{"solve", "--solo", "--rules", huge, "--max-memory", "100000000"}, []string{"solo solve", "needs 1.", "GiB", "95.4 MiB allowed"}},
		{[]string{"solve", "--duel", "--rules", huge}, []string{"needs", "GiB", "2.0 GiB allowed"}},
		{[]string{"solve", "--solo", "--rules", "nope"}, []string{"nope"}},
		{[]string{"solve", "--solo", "extra"}, []string{"extra"}},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			for _, r := range farkleRunners {
				_, errOut, code := r.run(t, "", tc.args...)
				checkBadInput(t, errOut, code, tc.mention...)
			}
		})
	}
}
