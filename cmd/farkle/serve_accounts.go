package main

import (
	"flag"

	"github.com/farkle/farkle/server"
)

// accountFlags registers the flags of accounts and sessions on the serve
// command's flags. The function it returns checks the parsed values and
// sets them in opt. For each, 0 turns the limit off.
func accountFlags(fs *flag.FlagSet) func(opt *server.Options) error {
	sessions := fs.Int("sessions-per-player", 20, "sessions (signed-in devices) one player keeps; a new one ends the least recently seen (0: no cap)")
	passkeys := fs.Int("passkeys-per-account", 20, "passkeys one account may have (0: no cap)")
	signins := fs.Int("signins-per-account", 30, "passkey sign-ins of one account within 5 minutes; more are refused with 429 (0: no cap)")
	reports := fs.Int("reports-per-hour", 10, "reports (of a player or a chat line, for the moderators) one player may make an hour; more are refused with 429 (0: no cap)")
	return func(opt *server.Options) error {
		for name, v := range map[string]int{"sessions-per-player": *sessions, "passkeys-per-account": *passkeys, "signins-per-account": *signins, "reports-per-hour": *reports} {
			if v < 0 {
				return usagef("--%s %d: must be 0 or more", name, v)
			}
		}
		off := func(v int) int { // Options: 0 is the default, negative is off
			if v == 0 {
				return -1
			}
			return v
		}
		opt.MaxSessions, opt.MaxPasskeys, opt.SignInsPerAccount = off(*sessions), off(*passkeys), off(*signins)
		opt.ReportsPerHour = off(*reports)
		return nil
	}
}
