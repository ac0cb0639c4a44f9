package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules/rulestest"
	"github.com/farkle/farkle/solved"
)

// TestFastPlaysTheEngineGameOnRandomRules: on hundreds of random valid
// rule sets (package rulestest), not only the presets, Fast plays the
// engine's game: the same actions from the same seeds and the same
// outcome. A rule set without a cap on turns gets one of 100 turns, since
// some valid rule sets never let a turn be banked (a bank minimum no keep
// of one die reaches, without hot dice); and where a full throw cannot
// farkle, hot dice are turned off, since a bot that always throws hot dice
// again then plays one turn for millions of throws (see
// TestFastEndlessTurnIsARunaway).
func TestFastPlaysTheEngineGameOnRandomRules(t *testing.T) {
	sets := 300
	if testing.Short() {
		sets = 60
	}
	levels := []string{"steady", "reckless", "cautious", "bold", "expert"}
	rng := rand.New(rand.NewPCG(11, 1))
	ts := solved.NewTables("")
	for i := range sets {
		r := rulestest.Random(rng, 1500)
		if r.Game.MaxTurns == 0 {
			r.Game.MaxTurns = 100
		}
		if engine.TableFor(r).Odds(r.Dice).FarkleWays == 0 {
			r.Turn.HotDice = false
		}
		players := r.Game.MinPlayers + rng.IntN(min(r.Game.MaxPlayers, 4)-r.Game.MinPlayers+1)
		seats := make([]string, players)
		for s := range seats {
			seats[s] = levels[rng.IntN(len(levels))]
		}
		for g := range 3 {
			var seed dice.Seed
			for b := range seed {
				seed[b] = byte(rng.Uint32())
			}
			if !t.Run("", func(t *testing.T) { sameGame(t, r, seats, ts, seed) }) {
				t.Fatalf("rule set %d game %d differs: %+v", i, g, r)
			}
		}
	}
}
