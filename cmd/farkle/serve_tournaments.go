package main

import (
	"flag"
	"time"

	"github.com/farkle/farkle/server"
)

// tournamentFlags registers the flags of the bounds of tournaments on the
// serve command's flags. The function it returns checks the parsed values
// and sets them in opt. For each, 0 turns the limit off.
func tournamentFlags(fs *flag.FlagSet) func(opt *server.Options) error {
	bots := fs.Int("max-tournament-bots", 16, "bot entrants of one tournament (0: no cap beyond its size)")
	mine := fs.Int("max-open-tournaments", 3, "tournaments under way (open or playing) one player may have created (0: no cap)")
	total := fs.Int("max-tournaments-total", 50, "tournaments under way in all, over every player (0: no cap)")
	ahead := fs.Duration("max-tournament-ahead", 4*7*24*time.Hour, "how far ahead of now a tournament may start (0: no bound)")
	return func(opt *server.Options) error {
		for name, v := range map[string]int{"max-tournament-bots": *bots, "max-open-tournaments": *mine, "max-tournaments-total": *total} {
			if v < 0 {
				return usagef("--%s %d: must be 0 or more", name, v)
			}
		}
		if *ahead < 0 {
			return usagef("--max-tournament-ahead %s: must be 0 or more", *ahead)
		}
		opt.MaxTournamentBots, opt.MaxOpenTournaments, opt.MaxTournamentsTotal = off(*bots), off(*mine), off(*total)
		opt.MaxTournamentAhead = off(*ahead)
		return nil
	}
}
