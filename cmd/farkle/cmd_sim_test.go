package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/game"
)

type simOut struct {
	Games   int `json:"games"`
	Players []struct {
		Name      string     `json:"name"`
		Level     string     `json:"level"`
		Wins      int        `json:"wins"`
		WinRate   float64    `json:"win_rate"`
		CI95      [2]float64 `json:"ci95"`
		MeanTurns float64    `json:"mean_turns"`
	} `json:"players"`
	MeanTurns float64 `json:"mean_turns"`
	Seed      string  `json:"seed"`
	Workers   int     `json:"workers"`
}

func runSimJSON(t *testing.T, run func(testing.TB, string, ...string) (string, string, int), args ...string) simOut {
	t.Helper()
	out, errOut, code := run(t, "", append([]string{"sim", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s simOut
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return s
}

func TestSimJSONAndReproducible(t *testing.T) {
	var first simOut
	for i, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			s := runSimJSON(t, runner.run, "--players", "steady,bold,steady", "--games", "3000", "--seed", "42", "--workers", []string{"1", "3"}[i])
			if s.Games != 3000 || len(s.Players) != 3 {
				t.Fatalf("%+v", s)
			}
			names := []string{s.Players[0].Name, s.Players[1].Name, s.Players[2].Name}
			if !reflect.DeepEqual(names, []string{"steady#1", "bold", "steady#2"}) {
				t.Errorf("names %v", names)
			}
			wins := 0
			for _, p := range s.Players {
				wins += p.Wins
				if p.WinRate != float64(p.Wins)/3000 || p.CI95[0] >= p.WinRate || p.CI95[1] <= p.WinRate || p.MeanTurns < 5 {
					t.Errorf("%+v", p)
				}
			}
			if wins != 3000 {
				t.Errorf("%d wins in 3000 games", wins)
			}
			s.Workers = 0
			if i == 0 {
				first = s
			} else if !reflect.DeepEqual(s, first) {
				t.Errorf("seed 42 with 3 workers %+v, with 1 worker %+v", s, first)
			}
		})
	}
}

func TestSimText(t *testing.T) {
	out, errOut, code := runFarkle(t, "", "sim", "--players", "cautious,reckless", "--games", "200", "--seed", "x")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"200 games of classic", "cautious", "reckless", "95% interval", "mean turns per game"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr (no progress bar off a terminal): %q", errOut)
	}
	// within 80 columns, the 64-digit seed whole on a line of its own
	seed := false
	for i, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
		seed = seed || regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(line)
	}
	if !seed {
		t.Errorf("no line is the seed:\n%s", out)
	}
}

// TestSimRecordsVerify writes records of a perfect-against-expert match
// on short two-player rules and checks every file with farkle verify.
func TestSimRecordsVerify(t *testing.T) {
	rules := writeTestFile(t, "short.toml", "base = \"cardgames\"\n[game]\ntarget = 1500\n")
	dir := filepath.Join(t.TempDir(), "records")
	s := runSimJSON(t, runFarkle, "--rules", rules, "--players", "perfect,expert", "--games", "12", "--seed", "rec", "--record", dir, "--cache", t.TempDir())
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.json"))
	if len(files) != 12 {
		t.Fatalf("%d record files for 12 games", len(files))
	}
	wins := map[string]int{}
	for _, f := range files {
		out, errOut, code := runFarkle(t, "", "verify", f)
		if code != 0 || !strings.HasPrefix(out, "ok: ") || strings.Count(out, "\n") != 1 {
			t.Errorf("verify %s: exit %d, %q %q", f, code, out, errOut)
		}
		data, _ := os.ReadFile(f)
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"format": "`+game.Format+`"`) {
			t.Errorf("%s is not a %s record", f, game.Format)
		}
		g, _, err := game.Verify(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range g.Winners() {
			wins[rec.Players[w]]++
		}
	}
	for _, p := range s.Players {
		if wins[p.Name] != p.Wins {
			t.Errorf("%s: %d wins in the records, %d reported", p.Name, wins[p.Name], p.Wins)
		}
	}
}

func TestSimDragon(t *testing.T) {
	out, errOut, code := runFarkle(t, "", "sim", "--rules", "dragon", "--players", "smart,simple", "--games", "20", "--seed", "d")
	if code != 0 || !strings.Contains(out, "20 games of dragon") {
		t.Errorf("exit %d: %s %s", code, out, errOut)
	}
}

func TestSimBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		mention []string
	}{
		{"no players", []string{"--games", "10"}, []string{"--players"}},
		{"unknown level", []string{"--players", "steady,genius"}, []string{"genius", "perfect"}},
		// Dragon Farkle's levels are its own: named in the help and the refusal.
		{"no Dragon players", []string{"--rules", "dragon", "--games", "10"}, []string{"--players simple,smart", "random, simple, smart"}},
		{"an ordinary level at Dragon", []string{"--rules", "dragon", "--players", "smart,steady"}, []string{"steady", "random, simple, smart"}},
		{"no games", []string{"--players", "steady", "--games", "0"}, []string{"--games 0"}},
		{"too many for the rules", []string{"--rules", "cardgames", "--players", "steady,bold,steady"}, []string{"3 players", "2 to 2"}},
		{"nine players", []string{"--players", "steady,steady,steady,steady,steady,steady,steady,steady,steady"}, []string{"9 players"}},
		{"stray argument", []string{"--players", "steady", "more"}, []string{"more"}},
		{"no memory", []string{"--players", "steady", "--max-memory", "0"}, []string{"--max-memory 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runFarkle(t, "", append([]string{"sim"}, tc.args...)...)
			checkBadInput(t, errOut, code, tc.mention...)
		})
	}
}

// TestSimThreePerfectChecksTheTable: three perfect bots at rules whose
// three-player table farkle solve --players 3 left in the cache
// directory play by it, and sim prints each place's win rate beside the
// table's chance with how many standard errors they differ (JSON:
// three_table), the same numbers as solve's; without the table (another
// cache directory: they play as expert) there is no such line.
func TestSimThreePerfectChecksTheTable(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	file := filepath.Join(t.TempDir(), "cardgames-three-1000.toml")
	if err := os.WriteFile(file, []byte("base = \"cardgames\"\n[game]\nmax_players = 3\ntarget = 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFarkle(t, "", "solve", "--players", "3", "--rules", file, "--json", "--cache", dir)
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errOut)
	}
	var solved threeJSON
	if err := json.Unmarshal([]byte(out), &solved); err != nil {
		t.Fatal(err)
	}
	args := []string{"sim", "--rules", file, "--players", "perfect,perfect,perfect", "--games", "20000", "--seed", "three"}
	out, errOut, code = runFarkle(t, "", append(args, "--json", "--cache", dir)...)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	var res struct {
		Games   int
		ByPlace []struct {
			WinRate float64 `json:"win_rate"`
		} `json:"by_place"`
		Three *struct {
			Table, SE, Z [3]float64
			Within       bool `json:"within_3se"`
		} `json:"three_table"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Three == nil || len(res.ByPlace) != 3 {
		t.Fatalf("no check of the table: %s", out)
	}
	for i := range 3 {
		p := solved.PWins[i]
		se := math.Sqrt(p * (1 - p) / float64(res.Games))
		if math.Abs(res.Three.Table[i]-p) > 1e-9 || math.Abs(res.Three.SE[i]-se) > 1e-12 || math.Abs(res.Three.Z[i]-(res.ByPlace[i].WinRate-p)/se) > 1e-9 {
			t.Errorf("place %d: %+v, solve says %v", i+1, res.Three, p)
		}
	}
	if !res.Three.Within {
		t.Errorf("the games disagree with the table: %+v", res.Three)
	}
	out, _, _ = runFarkle(t, "", append(args, "--cache", dir)...)
	for _, want := range []string{"1st player", "3rd player", "the three-player table, by place: ", "standard errors"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	out, _, _ = runFarkle(t, "", append(args, "--games", "200", "--cache", other)...)
	if strings.Contains(out, "the three-player table, by place") || !strings.Contains(out, "1st player") ||
		!strings.Contains(out, "the perfect bots played as expert: no three-player table for these rules") {
		t.Errorf("without the table:\n%s", out)
	}
	// the notice, to the end, within 80 columns
	for i, line := range strings.Split(out[max(0, strings.Index(out, "the perfect bots")):], "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("without the table: the notice's line %d is %d columns: %q", i+1, n, line)
		}
	}
	// the table there but more than --max-memory: refused, and said why
	out, _, code = runFarkle(t, "", append(args, "--games", "200", "--cache", dir, "--max-memory", "1000", "--json")...)
	var none struct {
		Three *json.RawMessage `json:"three_table"`
		None  string           `json:"three_table_none"`
	}
	if err := json.Unmarshal([]byte(out), &none); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if none.Three != nil || !strings.Contains(none.None, "more than the solver memory of 1000 B") {
		t.Errorf("with --max-memory 1000: %+v", none)
	}
}
