package main

import (
	"flag"

	"github.com/farkle/farkle/server"
)

// exploreFlags registers the flags of the strategy explorer's bounds and
// of the leaderboard by rating on the serve command's flags. The function
// it returns checks the parsed values and sets them in m; run it after
// the edge's (the explorer's deadline must end before the write timeout).
func exploreFlags(fs *flag.FlagSet) func(m *serveMain) error {
	timeout := fs.Duration("explore-timeout", server.DefaultExploreTimeout, "the deadline of a strategy explorer request, waiting for a slot included: its work is stopped when it passes or the client goes (less than --write-timeout)")
	rate := fs.Float64("explore-rate", server.DefaultExploreAddressRate, "strategy explorer requests a second from one client address (0: no limit)")
	burst := fs.Int("explore-burst", server.DefaultExploreAddressBurst, "the burst of --explore-rate: explorer requests one client address may send at once")
	soloMem := sizeFlag(fs, "explore-solo-memory", server.DefaultExploreSoloMemory, "the most memory the solo solve of a rule set asked of the strategy explorer may need, a `size`: more is refused before any work (0: no bound)")
	simTurns := fs.Int("explore-sim-turns", server.DefaultExploreSimTurns, "turns of simulated games a comparison plays of one rule set: fewer games, or none, when its games are longer (0: no bound)")
	boardGames := fs.Int("rating-board-games", 5, "rated games a player needs in a family to be listed on its leaderboard by rating (at least 1)")
	return func(m *serveMain) error {
		write := m.Edge.WriteTimeout
		if write == 0 {
			write = defWriteTimeout
		}
		switch {
		case *timeout <= 0:
			return usagef("--explore-timeout %s: must be more than 0", *timeout)
		case *timeout >= write:
			return usagef("--explore-timeout %s: must be less than --write-timeout %s, or its answers could not be written", *timeout, write)
		case *rate < 0 || *rate != *rate:
			return usagef("--explore-rate %g: must be 0 or more", *rate)
		case *burst < 1:
			return usagef("--explore-burst %d: must be 1 or more", *burst)
		case *simTurns < 0:
			return usagef("--explore-sim-turns %d: must be 0 or more", *simTurns)
		case *soloMem < 0:
			return usagef("--explore-solo-memory %d: must be 0 or more", *soloMem)
		case *boardGames < 1:
			return usagef("--rating-board-games %d: must be 1 or more", *boardGames)
		}
		off := func(v float64) float64 { // ExploreLimits: 0 is the default, negative is off
			if v == 0 {
				return -1
			}
			return v
		}
		m.Explore = server.ExploreLimits{Timeout: *timeout, AddressRate: off(*rate), AddressBurst: *burst, SimTurns: int(off(float64(*simTurns))),
			SoloMemory: int64(off(float64(*soloMem)))}
		m.Options.RatingBoardGames = *boardGames
		return nil
	}
}
