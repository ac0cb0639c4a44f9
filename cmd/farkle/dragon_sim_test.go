package main

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dragonSimOut is the part of `farkle sim --json` every rule set shares.
type dragonSimOut struct {
	Games   int `json:"games"`
	Ties    int `json:"ties"`
	Players []struct {
		Name    string     `json:"name"`
		Wins    int        `json:"wins"`
		Shared  int        `json:"shared"`
		WinRate float64    `json:"win_rate"`
		CI95    [2]float64 `json:"ci95"`
	} `json:"players"`
	Seconds float64 `json:"seconds"`
}

func TestSimDragonJSON(t *testing.T) {
	args := []string{"sim", "--rules", "dragon", "--players", "smart,simple,random", "--games", "60", "--seed", "dragon-sim", "--json"}
	out, stderr, code := runFarkle(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res dragonSimOut
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if res.Games != 60 || len(res.Players) != 3 {
		t.Fatalf("games %d, %d players", res.Games, len(res.Players))
	}
	sum := res.Ties
	for _, p := range res.Players {
		sum += p.Wins - p.Shared
		if math.Abs(p.WinRate-float64(p.Wins)/60) > 1e-9 {
			t.Errorf("%s: win rate %v for %v wins of 60", p.Name, p.WinRate, p.Wins)
		}
		if !(p.CI95[0] <= p.WinRate && p.WinRate <= p.CI95[1]) || p.CI95[0] < 0 || p.CI95[1] > 1 || p.CI95[0] == p.CI95[1] {
			t.Errorf("%s: interval %v does not hold the win rate %v", p.Name, p.CI95, p.WinRate)
		}
	}
	// Every game has a winner (a shared win counts for each sharer).
	if sum != 60 {
		t.Errorf("wins add up to %v, want 60", sum)
	}
	if res.Seconds <= 0 {
		t.Errorf("seconds %v", res.Seconds)
	}
	// The seed fixes the result (all but the time taken).
	again, _, _ := runFarkle(t, "", args...)
	if timeless(t, again) != timeless(t, out) {
		t.Error("the same seed gave another result")
	}
}

// timeless returns the JSON of a sim without its timing fields.
func timeless(t *testing.T, out string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "seconds")
	delete(m, "games_per_second")
	b, _ := json.Marshal(m)
	return string(b)
}

func TestSimDragonTable(t *testing.T) {
	for _, r := range farkleRunners {
		t.Run(r.name, func(t *testing.T) {
			out, stderr, code := r.run(t, "", "sim", "--rules", "dragon", "--players", "smart,simple", "--games", "20", "--seed", "t")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range []string{"20 games of dragon", "player", "wins", "win rate", "95% interval", "turns/game", "mean soldiers", "1st player", "2nd player", "dragon slain in"} {
				if !strings.Contains(out, want) {
					t.Errorf("the table lacks %q:\n%s", want, out)
				}
			}
			// Players by their level names, as the ordinary sim names
			// them, and wins as whole numbers.
			for _, line := range strings.Split(out, "\n") {
				f := strings.Fields(line)
				if len(f) < 3 || (f[0] != "smart" && f[0] != "simple") {
					continue
				}
				if _, err := strconv.Atoi(f[1]); err != nil {
					t.Errorf("wins %q are not a whole number: %q", f[1], line)
				}
			}
			if strings.Contains(out, "smart-1") || !regexp.MustCompile(`(?m)^\s+smart\s+\d+\s`).MatchString(out) {
				t.Errorf("players not named by level:\n%s", out)
			}
			out, _, _ = r.run(t, "", "sim", "--rules", "dragon", "--players", "smart,smart", "--games", "4", "--seed", "t")
			if !strings.Contains(out, "smart#1") || !strings.Contains(out, "smart#2") {
				t.Errorf("a level twice is not smart#1, smart#2:\n%s", out)
			}
		})
	}
}

func TestSimDragonBadPlayers(t *testing.T) {
	_, stderr, code := runFarkle(t, "", "sim", "--rules", "dragon", "--players", "smart,steady", "--games", "2")
	checkBadInput(t, stderr, code, "steady")
	_, stderr, code = runFarkle(t, "", "sim", "--rules", "dragon", "--players", "smart", "--games", "2")
	checkBadInput(t, stderr, code, "players")
}
