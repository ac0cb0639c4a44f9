package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/farkle/farkle/dragon"
)

func TestDragonRulesListAndPrint(t *testing.T) {
	out, _, code := runFarkle(t, "", "rules", "--list")
	if code != 0 || !strings.Contains(out, "dragon ") || !strings.Contains(out, "5000 soldiers") {
		t.Fatalf("--list must name dragon (exit %d):\n%s", code, out)
	}
	out, _, code = runFarkle(t, "", "rules", "--rules", "dragon", "--json")
	var d dragon.Rules
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || d.BattleMinimum != 5000 {
		t.Fatalf("rules --rules dragon --json: exit %d\n%s", code, out)
	}
	// The TOML printed reads back as the same rule file.
	out, _, _ = runFarkle(t, "", "rules", "--rules", "dragon")
	back, err := dragon.ParseRules([]byte(out))
	if err != nil || back.Soldiers.Hash() != dragon.DefaultRules().Soldiers.Hash() {
		t.Fatalf("printed TOML does not read back: %v\n%s", err, out)
	}
}

func TestDragonRuleFile(t *testing.T) {
	path := writeTestFile(t, "quick.toml", "base = \"dragon\"\nbattle_minimum = 3000\nround_limit = 12\n")
	out, stderr, code := runFarkle(t, "", "rules", "--rules", path, "--json")
	var d dragon.Rules
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if d.BattleMinimum != 3000 || d.RoundLimit != 12 || d.Name != "quick" {
		t.Fatalf("file not applied: %+v", d)
	}
	bad := writeTestFile(t, "bad.toml", "base = \"dragon\"\nbattle_minimum = -1\n")
	_, stderr, code = runFarkle(t, "", "rules", "--rules", bad)
	checkBadInput(t, stderr, code, "battle_minimum")
}

func TestDragonOddsAndScore(t *testing.T) {
	out, _, code := runFarkle(t, "", "odds", "--rules", "dragon", "--json")
	var res struct {
		oddsResult
		Battle []dragon.OddsRow `json:"battle"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if len(res.Battle) == 0 || len(res.Dice) != 6 {
		t.Fatalf("dragon odds must hold the battle table and the soldier odds: %+v", res)
	}
	for i := 1; i < len(res.Battle); i++ {
		// The army battle: every step of the table adds to the odds (no
		// two rows alike).
		if res.Battle[i].PWin <= res.Battle[i-1].PWin {
			t.Fatalf("P(win) does not rise from %v to %v", res.Battle[i-1], res.Battle[i])
		}
	}
	for _, row := range res.Battle {
		if row.Soldiers == 5000 && (row.PWin < 0.2 || row.PWin > 0.3) {
			t.Errorf("P(win) with 5000 soldiers %.4f, want about a quarter", row.PWin)
		}
		if row.Soldiers == 12000 && row.PWin <= 2.0/3 {
			t.Errorf("P(win) with 12000 soldiers %.4f, want more than 2/3", row.PWin)
		}
	}
	human, _, _ := runFarkle(t, "", "odds", "--rules", "dragon")
	if !strings.Contains(human, "Final Battle") || !strings.Contains(human, "█") || !strings.Contains(human, "wave of 1,200") {
		t.Fatalf("human odds must draw the battle table:\n%s", human)
	}
	// The soldier table: four of a kind is 1500 soldiers in Dragon Farkle.
	out, _, code = runFarkle(t, "", "score", "--rules", "dragon", "--json", "111123")
	if code != 0 || !strings.Contains(out, `"dice":[1,1,1,1],"points":1500`) {
		t.Fatalf("score with the soldier table: exit %d\n%s", code, out)
	}
}

// TestDragonRefusedWhereNotPlayed: a command that does not play Dragon
// Farkle says so, and which commands do, in two lines that fit 80
// columns (issue 27).
func TestDragonRefusedWhereNotPlayed(t *testing.T) {
	for _, args := range [][]string{{"solve", "--solo", "--rules", "dragon"}, {"explore", "--rules", "dragon"}, {"advise", "--rules", "dragon"}} {
		_, stderr, code := execFarkle(t, "", args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != 2 || len(lines) != 2 || !strings.Contains(lines[0], "does not play Dragon Farkle") || !strings.HasPrefix(lines[1], "Dragon Farkle works with: ") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("%v: a line of %d columns: %s", args, n, l)
			}
		}
	}
}
