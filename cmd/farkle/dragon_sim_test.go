package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// dragonSimOut is the part of `farkle sim --json` every rule set shares.
type dragonSimOut struct {
	Games   int `json:"games"`
	Players []struct {
		Name    string     `json:"name"`
		Wins    float64    `json:"wins"`
		WinRate float64    `json:"win_rate"`
		CI95    [2]float64 `json:"ci95"`
	} `json:"players"`
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
	sum := 0.0
	for _, p := range res.Players {
		sum += p.Wins
		if math.Abs(p.WinRate-p.Wins/60) > 1e-9 {
			t.Errorf("%s: win rate %v for %v wins of 60", p.Name, p.WinRate, p.Wins)
		}
		if !(p.CI95[0] <= p.WinRate && p.WinRate <= p.CI95[1]) || p.CI95[0] < 0 || p.CI95[1] > 1 || p.CI95[0] == p.CI95[1] {
			t.Errorf("%s: interval %v does not hold the win rate %v", p.Name, p.CI95, p.WinRate)
		}
	}
	// Every game has a winner (shared wins count 1/k each).
	if math.Abs(sum-60) > 1e-9 {
		t.Errorf("wins add up to %v, want 60", sum)
	}
	// The seed fixes the result.
	again, _, _ := runFarkle(t, "", args...)
	if again != out {
		t.Error("the same seed gave another result")
	}
}

func TestSimDragonTable(t *testing.T) {
	for _, r := range farkleRunners {
		t.Run(r.name, func(t *testing.T) {
			out, stderr, code := r.run(t, "", "sim", "--rules", "dragon", "--players", "smart,simple", "--games", "20", "--seed", "t")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range []string{"20 games of dragon", "player", "wins", "win rate", "95% interval", "smart", "simple"} {
				if !strings.Contains(out, want) {
					t.Errorf("the table lacks %q:\n%s", want, out)
				}
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
