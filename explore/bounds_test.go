package explore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// TestEstimateTurns: the estimate of a game's length that bounds a
// comparison's simulation is within 15% of the mean of simulated games of
// two experts, for every preset at its own target.
func TestEstimateTurns(t *testing.T) {
	var rs []rules.Rules
	for _, n := range rules.Presets() {
		if n != "dragon" {
			rs = append(rs, rules.MustPreset(n))
		}
	}
	got, err := Compare(context.Background(), rs, failing{tables}, tables, 400, solved.Reason)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		est, mean := EstimateTurns(s.Target, s.PointsPerTurn), 2*s.MeanTurns
		t.Logf("%s: estimated %.1f turns a game, simulated %.1f", s.Name, est, mean)
		if math.Abs(est-mean) > 0.15*mean {
			t.Errorf("%s: estimated %.1f turns a game, simulated %.1f", s.Name, est, mean)
		}
	}
	if !math.IsInf(EstimateTurns(1000, 0), 1) {
		t.Error("a turn of no points: a finite estimate")
	}
}

// TestCompareBounded: a bound on the simulated turns plays all the games
// that fit it, fewer (saying why) when they do not, and none (saying why)
// when fewer than MinGames would fit; the figures of the solver are there
// in every case.
func TestCompareBounded(t *testing.T) {
	r := small("classic", 2000, false)
	all, err := CompareWith(context.Background(), []rules.Rules{r}, failing{tables}, tables, CompareOptions{Games: 400})
	if err != nil {
		t.Fatal(err)
	}
	perGame := EstimateTurns(r.Game.Target, all[0].PointsPerTurn)
	for _, c := range []struct {
		maxTurns int
		games    int
		note     string
	}{
		{0, 400, ""},
		{int(400*perGame) + 1, 400, ""},
		{int(math.Ceil(100 * perGame)), 100, "100 games simulated, not 400"},
		{int((MinGames - 1) * perGame), 0, "no games simulated"},
	} {
		got, err := CompareWith(context.Background(), []rules.Rules{r}, failing{tables}, tables, CompareOptions{Games: 400, MaxTurns: c.maxTurns, DuelNote: solved.Reason})
		if err != nil {
			t.Fatal(err)
		}
		s := got[0]
		if s.Games != c.games {
			t.Errorf("bound %d: %d games, want %d", c.maxTurns, s.Games, c.games)
		}
		if (c.note == "") != (s.SimNote == "") || !strings.Contains(s.SimNote, c.note) {
			t.Errorf("bound %d: note %q, want %q", c.maxTurns, s.SimNote, c.note)
		}
		if s.PointsPerTurn != all[0].PointsPerTurn || len(s.BankAt) == 0 || !strings.Contains(s.DuelNote, "busy") {
			t.Errorf("bound %d: the solver's figures %+v", c.maxTurns, s)
		}
	}
}

// working counts the goroutines in a simulation.
func working() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "farkle/sim.Run.func")
}

// TestCompareStopsWithContext: a comparison of games far too long to
// finish stops with the context's error once it is cancelled, and its
// simulation's goroutines end.
func TestCompareStopsWithContext(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Game.Target = rules.MaxTarget // about 4,500 turns a game: a thousand take seconds
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := CompareWith(ctx, []rules.Rules{r}, failing{tables}, tables, CompareOptions{Games: 100000})
		done <- err
	}()
	deadline := time.Now().Add(time.Minute)
	for working() == 0 { // wait for the simulation to run
		if time.Now().After(deadline) {
			t.Fatal("the simulation never started")
		}
		time.Sleep(time.Millisecond) // polling the goroutines
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled comparison: %v", err)
	}
	if n := working(); n != 0 {
		t.Fatalf("%d simulation goroutines left after the comparison returned", n)
	}
	if _, err := CompareWith(ctx, []rules.Rules{r}, failing{tables}, tables, CompareOptions{Games: 10}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a comparison with a done context: %v", err)
	}
}

// TestMapsStopWithContext: the maps of a duel table stop with the
// context's error when it is done, and give the same map as without a
// context otherwise.
func TestMapsStopWithContext(t *testing.T) {
	r := small("classic", 2000, true)
	tb, p := duel(t, r), solo(t, r)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewWinMapContext(done, tb, 20); !errors.Is(err, context.Canceled) {
		t.Errorf("win map: %v", err)
	}
	if _, err := NewTurnMapContext(done, tb, 500, 500, 3000, 50); !errors.Is(err, context.Canceled) {
		t.Errorf("turn map: %v", err)
	}
	if _, err := NewDuelThresholdsContext(done, tb, p, 500, []int{0, 500}); !errors.Is(err, context.Canceled) {
		t.Errorf("duel thresholds: %v", err)
	}
	a, err := NewWinMapContext(context.Background(), tb, 20)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewWinMap(tb, 20)
	if a.Win[3][7] != b.Win[3][7] || a.Comp[5][2] != b.Comp[5][2] {
		t.Error("the map with a context differs")
	}
}

// preparing is a Source whose duel tables are being prepared.
type preparing struct{ Source }

func (preparing) Duel(rules.Rules) (*solve.Table, error) {
	return nil, fmt.Errorf("duel table: %w", solved.ErrNotReady)
}

// TestCompareSaysPreparing: a comparison marks a rule set whose duel table
// is being prepared (asked again, it will have it), and no other: not one
// whose table the source refuses (busy), not one it has.
func TestCompareSaysPreparing(t *testing.T) {
	r := small("classic", 2000, false)
	for _, c := range []struct {
		name       string
		src        Source
		want, duel bool
	}{{"preparing", preparing{tables}, true, false}, {"busy", failing{tables}, false, false}, {"ready", tables, false, true}} {
		got, err := CompareWith(context.Background(), []rules.Rules{r}, c.src, tables, CompareOptions{DuelNote: solved.Reason})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].DuelPreparing != c.want || got[0].Duel != c.duel {
			t.Errorf("%s: duel %v, preparing %v; want preparing %v", c.name, got[0].Duel, got[0].DuelPreparing, c.want)
		}
	}
}
