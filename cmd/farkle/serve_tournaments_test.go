package main

import (
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// TestTournamentFlags: the defaults, 0 for off (a negative option), and a
// negative value refused naming the flag.
func TestTournamentFlags(t *testing.T) {
	parse := func(args ...string) (server.Options, error) { return optionsFrom(tournamentFlags, args...) }
	opt, err := parse()
	if err != nil || opt.MaxTournamentBots != 16 || opt.MaxOpenTournaments != 3 || opt.MaxTournamentsTotal != 50 || opt.MaxTournamentAhead != 28*24*time.Hour {
		t.Fatalf("defaults: %+v, %v", opt, err)
	}
	opt, err = parse("--max-tournament-bots", "0", "--max-open-tournaments", "0", "--max-tournaments-total", "0", "--max-tournament-ahead", "0")
	if err != nil || opt.MaxTournamentBots >= 0 || opt.MaxOpenTournaments >= 0 || opt.MaxTournamentsTotal >= 0 || opt.MaxTournamentAhead >= 0 {
		t.Fatalf("zeros: %+v, %v", opt, err)
	}
	opt, err = parse("--max-tournament-bots", "4", "--max-tournament-ahead", "48h")
	if err != nil || opt.MaxTournamentBots != 4 || opt.MaxTournamentAhead != 48*time.Hour {
		t.Fatalf("set: %+v, %v", opt, err)
	}
	for _, args := range [][]string{{"--max-tournament-bots", "-1"}, {"--max-open-tournaments", "-2"}, {"--max-tournaments-total", "-1"}, {"--max-tournament-ahead", "-1h"}} {
		if _, err := parse(args...); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v (want an error naming the flag)", args, err)
		}
	}
}
