package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// TestExploreFlags: the explorer's bounds and the leaderboard's threshold
// from the flags: the defaults, 0 turning a limit off, and every bad value
// refused naming its flag (a deadline at or past the write timeout too:
// its answers could not be written).
func TestExploreFlags(t *testing.T) {
	parse := func(args ...string) (*serveMain, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		set := exploreFlags(fs)
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		m := &serveMain{Edge: serveEdge{WriteTimeout: 30 * time.Second}}
		return m, set(m)
	}
	m, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	want := server.ExploreLimits{Timeout: 10 * time.Second, AddressRate: 2, AddressBurst: 20, SimTurns: 200000, SoloMemory: 16 << 20}
	if m.Explore != want || m.Options.RatingBoardGames != 5 {
		t.Fatalf("defaults: %+v, board %d", m.Explore, m.Options.RatingBoardGames)
	}
	m, err = parse("--explore-rate", "0", "--explore-sim-turns", "0", "--explore-solo-memory", "0", "--rating-board-games", "1")
	if err != nil || m.Explore.AddressRate >= 0 || m.Explore.SimTurns >= 0 || m.Explore.SoloMemory >= 0 || m.Options.RatingBoardGames != 1 {
		t.Fatalf("zeros: %+v, board %d, %v", m.Explore, m.Options.RatingBoardGames, err)
	}
	for _, args := range [][]string{
		{"--explore-timeout", "0s"},
		{"--explore-timeout", "30s"},
		{"--explore-rate", "-1"},
		{"--explore-burst", "0"},
		{"--explore-sim-turns", "-5"},
		{"--rating-board-games", "-1"},
		{"--rating-board-games", "0"},
	} {
		_, err := parse(args...)
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v (want an error naming the flag)", args, err)
		}
	}
}
