package sim

import (
	"context"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// threeRules is cardgames with a third seat to target.
func threeRules(target int) rules.Rules {
	r := rules.MustPreset("cardgames")
	r.Game.Target, r.Game.MaxPlayers = target, 3
	return r
}

// TestThreePerfectBotsMatchTheTable plays whole games of three perfect
// bots by the exact three-player table of cardgames with a third seat to
// 1,000 and checks each place's win rate against the table's chance from
// the start, within 3 standard errors (about 0.2 percentage points at
// these games). A table that is wrong by as little as a percentage point
// fails it: the start chances of the same rules to 1,100 (a table of
// other rules), and the true ones with one point moved from the first
// place to the third, are both refused by the same games.
func TestThreePerfectBotsMatchTheTable(t *testing.T) {
	const games = 60000
	r := threeRules(1000)
	three, err := solve.SolveThree(r, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := solved.NewTables("")
	ts.AddThree(three)
	res, err := Run(context.Background(), Config{Rules: r, Players: []string{"perfect", "perfect", "perfect"}, Games: games, Seed: dice.SeedFrom("three check"), Tables: ts})
	if err != nil {
		t.Fatal(err)
	}
	start := three.Start()
	c, err := CheckThree(start, res)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Within {
		t.Errorf("the games disagree with the table: %+v (games by place %+v)", c, res.ByPlace)
	}
	t.Logf("table %.4f, games %.4f %.4f %.4f, z %+.2f", start, res.ByPlace[0].WinRate, res.ByPlace[1].WinRate, res.ByPlace[2].WinRate, c.Z)
	// the perfect bots played by the table: none fell back to expert
	if len(res.Notes) > 0 {
		t.Errorf("notes %q: a bot did not play by the table", res.Notes)
	}

	other, err := solve.SolveThree(threeRules(1100), solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	moved := start
	moved[0], moved[2] = start[0]-0.01, start[2]+0.01
	for name, wrong := range map[string][3]float64{"the table to 1,100": other.Start(), "one point moved": moved} {
		c, err := CheckThree(wrong, res)
		if err != nil {
			t.Fatal(err)
		}
		if c.Within {
			t.Errorf("%s (%.4f) passes the check against the games: z %+.2f", name, wrong, c.Z)
		}
		t.Logf("%s: %.4f, z %+.2f", name, wrong, c.Z)
	}
}
