package main

import (
	"flag"

	"github.com/farkle/farkle/server"
)

// localFlags registers the bounds of the local games players keep (POST
// /api/local-games) on the serve command's flags; the function it returns
// checks them and sets them in opt.
func localFlags(fs *flag.FlagSet) func(opt *server.Options) error {
	maxGames := fs.Int("max-local-games", 500, "local games (played in the browser, offline or not) one player may keep in their history (0: no cap)")
	maxBytes := sizeFlag(fs, "max-local-game-bytes", 256<<10, "the largest upload of a local game (its record), a `size` from 1KiB to 64MiB")
	return func(opt *server.Options) error {
		if *maxGames < 0 {
			return usagef("--max-local-games %d: must be 0 or more", *maxGames)
		}
		if n := *maxBytes; n < 1<<10 || n > 64<<20 {
			return usagef("--max-local-game-bytes %d: a size from 1KiB to 64MiB, e.g. 256KiB", n)
		}
		opt.MaxLocalGames, opt.MaxLocalGameBytes = *maxGames, int(*maxBytes)
		if *maxGames == 0 {
			opt.MaxLocalGames = -1
		}
		return nil
	}
}
