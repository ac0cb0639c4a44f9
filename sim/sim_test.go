package sim

import (
	"context"
	"errors"
	"math"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

func short(base string, target int) rules.Rules {
	r := rules.MustPreset(base)
	r.Game.Target = target
	return r
}

func TestRunDoesNotDependOnWorkers(t *testing.T) {
	cfg := Config{Rules: short("classic", 3000), Players: []string{"steady", "bold", "steady"}, Games: 700, Seed: dice.SeedFrom("workers")}
	var first *Result
	for _, w := range []int{1, 2, 3, 8} {
		cfg.Workers = w
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if !reflect.DeepEqual(res, first) {
			t.Errorf("%d workers: %+v, 1 worker: %+v", w, res, first)
		}
	}
	// The engine plays the same games.
	cfg.Engine, cfg.Workers = true, 2
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, first) {
		t.Errorf("through the engine: %+v, fast: %+v", res, first)
	}
	// Another seed gives other games.
	cfg.Seed = dice.SeedFrom("other")
	other, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other.Players, first.Players) {
		t.Error("another seed gave the same results")
	}
}

func TestRunCounts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		r       rules.Rules
		players []string
	}{
		{"final round", short("classic", 2000), []string{"steady", "reckless"}},
		{"shared wins", func() rules.Rules {
			r := short("classic", 300)
			r.Game.Tie = rules.Share
			r.Turn.HotDice = false // all dice kept: bank, even to a tie
			return r
		}(), []string{"cautious", "cautious", "steady"}},
		{"solo", short("classic", 2000), []string{"bold"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const games = 400
			res, err := Run(context.Background(), Config{Rules: tc.r, Players: tc.players, Games: games, Seed: dice.SeedFrom(tc.name)})
			if err != nil {
				t.Fatal(err)
			}
			wins, shared, turns := 0, 0, 0.0
			for _, p := range res.Players {
				wins += p.Wins
				shared += p.Shared
				turns += p.MeanTurns
				if p.WinRate != float64(p.Wins)/games || p.CI95[0] > p.WinRate || p.CI95[1] < p.WinRate {
					t.Errorf("%s: win rate %v, interval %v for %d wins", p.Name, p.WinRate, p.CI95, p.Wins)
				}
				if p.MeanScore < float64(tc.r.Game.Target)/4 {
					t.Errorf("%s: mean score %v", p.Name, p.MeanScore)
				}
			}
			// Every game has one winner or a shared win of two or more:
			// wins-shared games have a sole winner, the others at least two
			// shared wins each.
			sole := wins - shared
			if sole > games || 2*(games-sole) > shared {
				t.Errorf("%d wins (%d shared) in %d games", wins, shared, games)
			}
			if tc.r.Game.Tie != rules.Share && shared != 0 {
				t.Errorf("%d shared wins under tie = %s", shared, tc.r.Game.Tie)
			}
			if tc.r.Game.Tie == rules.Share && shared == 0 {
				t.Errorf("no shared wins to target %d: the test does not reach ties", tc.r.Game.Target)
			}
			if math.Abs(turns-res.MeanTurns) > 1e-9 {
				t.Errorf("player turns add up to %v, mean turns %v", turns, res.MeanTurns)
			}
			if len(tc.players) == 1 && res.Players[0].Wins != games {
				t.Errorf("solo player won %d of %d", res.Players[0].Wins, games)
			}
		})
	}
}

func TestRecordedGamesVerify(t *testing.T) {
	r := short("farkle-dice", 2000)
	var mu sync.Mutex
	recs := map[int]*game.Record{}
	res, err := Run(context.Background(), Config{
		Rules: r, Players: []string{"expert", "bold", "expert"}, Games: 30, Seed: dice.SeedFrom("rec"), Workers: 3,
		Record: func(i int, rec *game.Record) error {
			mu.Lock()
			defer mu.Unlock()
			recs[i] = rec
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 30 {
		t.Fatalf("%d records for 30 games", len(recs))
	}
	wins := map[string]int{}
	var placeWins [3]int // by place in the turn order, read from the records
	for i, rec := range recs {
		data, err := rec.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := game.ParseRecord(data)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if back.Format != game.Format || back.Kind != game.Farkle {
			t.Errorf("game %d: a record of format %q, kind %q", i, back.Format, back.Kind)
		}
		g, _, err := game.Verify(back)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if back.Seed != GameSeed(dice.SeedFrom("rec"), i).Hex() {
			t.Errorf("game %d: seed %s is not GameSeed", i, back.Seed)
		}
		for _, w := range g.Winners() {
			wins[back.Players[w]]++
		}
		v, err := back.Variant()
		if err != nil {
			t.Fatal(err)
		}
		first := -1
		for _, raw := range back.Actions {
			a, err := v.ParseAction(raw)
			if err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
			if ea := a.(engine.Action); ea.Kind != engine.RollOff {
				first = ea.Player
				break
			}
		}
		for _, w := range g.Winners() {
			placeWins[(w-first+3)%3]++
		}
	}
	if len(res.ByPlace) != 3 {
		t.Fatalf("by place %+v, want 3 places", res.ByPlace)
	}
	for k, q := range res.ByPlace {
		if q.Place != k+1 || q.Wins != placeWins[k] {
			t.Errorf("place %d: %+v, the records say %d wins", k+1, q, placeWins[k])
		}
	}
	for _, p := range res.Players {
		if wins[p.Name] != p.Wins {
			t.Errorf("%s: %d wins in the records, %d in the result", p.Name, wins[p.Name], p.Wins)
		}
	}
	// The same games without recording, played fast.
	fast, err := Run(context.Background(), Config{Rules: r, Players: []string{"expert", "bold", "expert"}, Games: 30, Seed: dice.SeedFrom("rec")})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast, res) {
		t.Errorf("fast %+v, recorded %+v", fast, res)
	}
}

func TestRunStopsOnRecordError(t *testing.T) {
	boom := errors.New("disk full")
	_, err := Run(context.Background(), Config{Rules: short("classic", 1000), Players: []string{"steady", "bold"}, Games: 50,
		Record: func(int, *game.Record) error { return boom }})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want %v", err, boom)
	}
}

func TestRunRefuses(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		cfg  Config
		ctx  context.Context
		want error
	}{
		{"no games", Config{Rules: short("classic", 1000), Players: []string{"steady"}}, context.Background(), ErrConfig},
		{"too many players", Config{Rules: rules.MustPreset("cardgames"), Players: []string{"steady", "steady", "bold"}, Games: 5}, context.Background(), ErrConfig},
		{"unknown level", Config{Rules: short("classic", 1000), Players: []string{"steady", "genius"}, Games: 5}, context.Background(), bot.ErrUnknownLevel},
		{"cancelled", Config{Rules: short("classic", 1000), Players: []string{"steady"}, Games: 5}, ctx, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Run(tc.ctx, tc.cfg); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestWilson(t *testing.T) {
	// Published values of the 95% Wilson score interval.
	for _, tc := range []struct {
		wins, n int
		lo, hi  float64
	}{
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
		{8, 10, 0.4902, 0.9433},
		{1, 20, 0.0089, 0.2361},
	} {
		got := Wilson(tc.wins, tc.n)
		if math.Abs(got[0]-tc.lo) > 5e-5 || math.Abs(got[1]-tc.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = %.4f, want [%.4f %.4f]", tc.wins, tc.n, got, tc.lo, tc.hi)
		}
	}
}

func TestNamesAndSeating(t *testing.T) {
	got := Names([]string{"steady", "perfect", "steady", "bold", "steady"})
	want := []string{"steady#1", "perfect", "steady#2", "bold", "steady#3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	// Each player sits in each seat equally often over n games.
	const n = 4
	seen := [n][n]int{}
	for i := range 3 * n {
		seat := Seating(i, n)
		used := map[int]bool{}
		for j, s := range seat {
			used[s] = true
			seen[j][s]++
		}
		if len(used) != n {
			t.Fatalf("Seating(%d, %d) = %v is not a permutation", i, n, seat)
		}
	}
	for j := range n {
		for s := range n {
			if seen[j][s] != 3 {
				t.Errorf("player %d sat in seat %d %d times of 12", j, s, seen[j][s])
			}
		}
	}
	if GameSeed(dice.SeedFrom("a"), 1) == GameSeed(dice.SeedFrom("a"), 2) || GameSeed(dice.SeedFrom("a"), 1) == GameSeed(dice.SeedFrom("b"), 1) {
		t.Error("game seeds collide")
	}
}

// TestPerfectBeatsEveryLevel plays perfect against each other level, each
// starting half the games, under short two-player rules whose duel table
// solves in well under a second, and asserts that the 95% interval of
// perfect's win rate lies above 1/2. FARKLE_SIM_GAMES raises the number of
// games (the heavy version).
func TestPerfectBeatsEveryLevel(t *testing.T) {
	games := 8000
	if s := os.Getenv("FARKLE_SIM_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("FARKLE_SIM_GAMES=%q: %v", s, err)
		}
		games = n
	}
	r := short("pocket-farkel", 1500) // final round, no penalty: a fast table
	r.Game.MaxPlayers = 2
	ts := solved.NewTables("")
	for _, l := range bot.LevelNames() {
		if l == "perfect" {
			continue
		}
		t.Run(l, func(t *testing.T) {
			res, err := Run(context.Background(), Config{Rules: r, Players: []string{"perfect", l}, Games: games, Seed: dice.SeedFrom("perfect-" + l), Tables: ts})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Players[0]
			t.Logf("perfect vs %s: %d of %d, %.4f [%.4f, %.4f]", l, p.Wins, games, p.WinRate, p.CI95[0], p.CI95[1])
			if p.CI95[0] <= 0.5 {
				t.Errorf("perfect vs %s: win rate %.4f, 95%% interval [%.4f, %.4f] not above 1/2", l, p.WinRate, p.CI95[0], p.CI95[1])
			}
		})
	}
}
