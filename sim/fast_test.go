package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// variants are rule sets that exercise every branch of the game: the
// presets, and changes to each turn and game rule.
func variants(t testing.TB) map[string]rules.Rules {
	t.Helper()
	out := map[string]rules.Rules{}
	for _, name := range rules.Presets() {
		r, err := rules.Preset(name)
		if err != nil || r.Validate() != nil {
			continue // not a plain Farkle preset (dragon)
		}
		r.Game.Target = 3000 // short games, same paths
		if r.Turn.EntryMinimum > r.Game.Target {
			r.Turn.EntryMinimum = 500
		}
		out[name] = r
	}
	edit := func(name, base string, f func(r *rules.Rules)) {
		r := rules.MustPreset(base)
		r.Game.Target = 3000
		f(&r)
		if err := r.Validate(); err != nil {
			t.Fatalf("variant %s: %v", name, err)
		}
		out[name] = r
	}
	edit("six-dice-nothing", "classic", func(r *rules.Rules) { r.Scoring.SixDiceNothing = 500 })
	edit("no-hot-dice", "classic", func(r *rules.Rules) { r.Turn.HotDice = false })
	edit("entry-and-bank-min", "classic", func(r *rules.Rules) {
		r.Turn.EntryMinimum, r.Turn.BankMinimum = 1000, 350
	})
	edit("penalty-2", "classic", func(r *rules.Rules) { r.Turn.FarklePenalty = rules.Penalty{Count: 2, Points: 500} })
	edit("immediate-share", "classic", func(r *rules.Rules) {
		r.Game.Ending, r.Game.Tie = rules.EndImmediate, rules.Share
	})
	edit("share-seat-order", "classic", func(r *rules.Rules) {
		r.Game.Tie, r.Game.FirstPlayer = rules.Share, rules.SeatOrder
	})
	edit("at-bounds", "classic", func(r *rules.Rules) {
		// every number at (or scaled towards) its bound: a keep of six 1s
		// scores rules.MaxKeepPoints, the target is rules.MaxTarget
		s := &r.Scoring
		s.Single = map[string]int{"1": 100_000, "5": 50_000}
		s.Triple = [6]int{rules.MaxPoints, 200_000, 300_000, 400_000, 500_000, 600_000}
		s.KindMode = rules.KindDouble
		s.Straight, s.ThreePairs, s.SixDiceNothing = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
		r.Game.Target = rules.MaxTarget
		r.Turn.EntryMinimum, r.Turn.BankMinimum = 50_000, 50_000
		r.Turn.FarklePenalty = rules.Penalty{Count: rules.MaxPenaltyCount, Points: rules.MaxPoints}
	})
	edit("tiny-ties", "classic", func(r *rules.Rules) {
		r.Game.Target = 300 // tied final rounds (banks forced without hot dice): the tie roll-off
		r.Turn.HotDice = false
	})
	edit("capped", "classic", func(r *rules.Rules) { r.Game.MaxTurns = 5 })
	edit("capped-share-seat-order", "classic", func(r *rules.Rules) {
		r.Game.MaxTurns, r.Game.Tie, r.Game.FirstPlayer = 2, rules.Share, rules.SeatOrder
	})
	edit("capped-tiny-ties", "classic", func(r *rules.Rules) {
		r.Game.Target, r.Game.MaxTurns = 300, 1 // final rounds run past the cap; ties at the cap
		r.Turn.HotDice = false
	})
	edit("capped-immediate", "cardgames", func(r *rules.Rules) { r.Game.MaxTurns = 3 })
	return out
}

// tieRollOffs counts the engine states in a tie roll-off seen by engineGame;
// capEnds counts the games it saw end at game.max_turns.
var tieRollOffs, capEnds int

// engineGame plays a game through engine.Apply with the bots' Choose and
// returns the actions and the final state.
func engineGame(t *testing.T, r rules.Rules, bots []bot.Strategy, seed dice.Seed) ([]engine.Action, engine.State) {
	t.Helper()
	names := make([]string, len(bots))
	for i := range names {
		names[i] = fmt.Sprint("p", i)
	}
	st, err := engine.New(r, names)
	if err != nil {
		t.Fatal(err)
	}
	src := dice.NewSource(seed)
	var acts []engine.Action
	for !st.Over() {
		a := bots[st.Actor()].Choose(st)
		if !slices.Contains(st.Legal(), a) {
			t.Fatalf("bot chose %v, not one of %v", a, st.Legal())
		}
		next, ev, err := engine.Apply(st, a, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			if e.Kind == engine.EvTurnLimit {
				capEnds++
			}
		}
		if next.Phase == engine.PhaseTieRollOff {
			tieRollOffs++
		}
		acts = append(acts, a)
		st = next
		if len(acts) > 200000 {
			t.Fatal("runaway game")
		}
	}
	return acts, st
}

func TestFastPlaysTheEngineGame(t *testing.T) {
	seatings := [][]string{
		{"steady", "reckless"},
		{"cautious", "bold", "steady"},
		{"expert", "reckless", "cautious", "bold"},
		{"steady"},
	}
	for name, r := range variants(t) {
		t.Run(name, func(t *testing.T) {
			tieRollOffs, capEnds = 0, 0
			defer func() {
				if strings.HasSuffix(name, "tiny-ties") && tieRollOffs == 0 {
					t.Error("no tie roll-off played")
				}
				if strings.HasPrefix(name, "capped") && capEnds == 0 {
					t.Error("no game ended at the cap")
				}
			}()
			ts := solved.NewTables("")
			for _, levels := range seatings {
				if len(levels) < r.Game.MinPlayers || len(levels) > r.Game.MaxPlayers {
					continue
				}
				for i := range 30 {
					sameGame(t, r, levels, ts, dice.SeedFrom(fmt.Sprint(name, levels, i)))
				}
			}
		})
	}
}

// sameGame plays one game of bots of the levels under r from seed, through
// the engine and through Fast, and fails t unless both take the same
// actions and end with the same scores, turns and winners.
func sameGame(t *testing.T, r rules.Rules, levels []string, ts *solved.Tables, seed dice.Seed) {
	t.Helper()
	var strategies []bot.Strategy
	var deciders []bot.Decider
	for _, l := range levels {
		b, err := bot.New(l, r, bot.WithTables(ts))
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, b)
		deciders = append(deciders, b.(bot.Decider))
	}
	want, st := engineGame(t, r, strategies, seed)
	var got []engine.Action
	f := NewFast(r)
	f.Trace(func(a engine.Action) { got = append(got, a) })
	out, err := f.Play(seed, deciders)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		k := 0
		for k < min(len(got), len(want)) && got[k] == want[k] {
			k++
		}
		at := func(as []engine.Action) string {
			if k < len(as) {
				return as[k].String()
			}
			return "(game over)"
		}
		t.Fatalf("%v seed %s: action %d: fast %s, engine %s", levels, seed.Hex(), k, at(got), at(want))
	}
	if out.Actions != len(want) {
		t.Errorf("%v seed %s: %d actions counted, %d taken", levels, seed.Hex(), out.Actions, len(want))
	}
	var winners []int
	for s := range levels {
		if out.Won(s) {
			winners = append(winners, s)
		}
		if out.Scores[s] != st.Players[s].Score || out.Turns[s] != st.Players[s].Turns {
			t.Errorf("%v seed %s seat %d: score %d turns %d, engine %d and %d", levels, seed.Hex(), s, out.Scores[s], out.Turns[s], st.Players[s].Score, st.Players[s].Turns)
		}
	}
	if !slices.Equal(winners, st.Winners) {
		t.Errorf("%v seed %s: winners %v, engine %v", levels, seed.Hex(), winners, st.Winners)
	}
}

func TestFastDiceAreTheEngineDice(t *testing.T) {
	for _, text := range []string{"1", "dice", "another seed"} {
		seed := dice.SeedFrom(text)
		f := NewFast(rules.MustPreset("classic"))
		f.rng.Seed(seed)
		src := dice.NewSource(seed)
		counts := [7]int{}
		for i := range 60000 {
			got, want := f.face(), dice.Face(src)
			if got != want {
				t.Fatalf("seed %q draw %d: fast %d, engine %d", text, i, got, want)
			}
			counts[got]++
		}
		for face := 1; face <= 6; face++ {
			if c := counts[face]; c < 9500 || c > 10500 {
				t.Errorf("seed %q: face %d came %d times in 60000", text, face, c)
			}
		}
	}
}

func TestFastRefusesPlayerCounts(t *testing.T) {
	r := rules.MustPreset("cardgames") // exactly two players
	s, _ := bot.New("steady", r)
	d := s.(bot.Decider)
	for _, n := range []int{1, 3} {
		if _, err := NewFast(r).Play(dice.SeedFrom("x"), slices.Repeat([]bot.Decider{d}, n)); err == nil {
			t.Errorf("%d players under cardgames: no error", n)
		}
	}
}

// TestFastEndlessTurnIsARunaway: where every die scores and hot dice give
// all six back, a steady bot (which banks with hot dice only at bot.Never
// points) throws millions of times in one turn. Play reports ErrRunaway
// after MaxActions, as the engine path of Run does, not a win with a
// billion points.
func TestFastEndlessTurnIsARunaway(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Scoring.Single = map[string]int{"1": 100, "2": 50, "3": 50, "4": 50, "5": 50, "6": 50}
	r.Game.MinPlayers, r.Game.FirstPlayer = 1, rules.SeatOrder
	s, _ := bot.New("steady", r)
	out, err := NewFast(r).Play(dice.SeedFrom("endless"), []bot.Decider{s.(bot.Decider)})
	if !errors.Is(err, ErrRunaway) {
		t.Fatalf("Play: %v, want ErrRunaway; %+v", err, out)
	}
	if out.Actions <= MaxActions || out.Turns[0] != 1 {
		t.Errorf("stopped after %d actions in %d turns, want more than %d in one", out.Actions, out.Turns[0], MaxActions)
	}
}
