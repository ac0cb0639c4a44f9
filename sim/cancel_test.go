package sim

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/farkle/farkle/game"
)

// TestRunStopsBetweenGames: once its context is cancelled a tournament
// plays no further game: each worker finishes the game it is in, then
// stops, although its chunk of games (here a hundred) is not done.
func TestRunStopsBetweenGames(t *testing.T) {
	const workers, games = 2, 3200 // chunks of 3200/(2*16) = 100 games
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var played atomic.Int64
	_, err := Run(ctx, Config{Rules: short("classic", 1000), Players: []string{"steady", "bold"}, Games: games, Workers: workers,
		Record: func(int, *game.Record) error {
			if played.Add(1) == 1 {
				cancel()
			}
			return nil
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled tournament: %v", err)
	}
	if n := played.Load(); n > workers {
		t.Fatalf("%d games played after the context was cancelled at the first: want at most one more a worker", n-1)
	}
}
