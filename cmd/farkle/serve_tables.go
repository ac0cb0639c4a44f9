package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

// tableFlags registers the flags of the life of tables on the serve
// command's flags: quotas, the length of a game, expiry, finished tables
// kept in memory, the turn clock, invitations and blocks, and the expiry
// of guests nothing keeps. The
// function it returns checks the parsed values and sets them in opt. For
// each, 0 turns the limit off.
func tableFlags(fs *flag.FlagSet) func(opt *server.Options) error {
	maxOpen := fs.Int("max-open-tables", 10, "open (waiting or playing) tables one player may have created (0: no cap)")
	maxBots := fs.Int("max-bot-tables", 2, "open bots-only tables one player may have created (0: no cap)")
	maxTotal := fs.Int("max-tables-total", 5000, "open (waiting or playing) tables in all, over every player (0: no cap)")
	maxBotsTotal := fs.Int("max-bot-tables-total", 100, "open bots-only tables in all, over every player (0: no cap)")
	maxTurns := fs.Int("max-turns", 200, "the most rounds of a game: a longer game ends on points by its tie rule (0: no cap)")
	expiry := fs.Duration("waiting-expiry", 24*time.Hour, "a table still waiting for players this long expires (0: never)")
	guests := fs.Duration("guest-expiry", 30*24*time.Hour, "a guest nothing keeps (never at a table, no account, no SSH key) and not seen this long is deleted (0: never)")
	finished := fs.Int("finished-tables", 64, "finished tables nobody watches kept in memory (0: none, read from the database each time)")
	clock := fs.Duration("turn-clock", 90*time.Second, "the time to act at a table with people, unless the table asks for another (0: no clock)")
	forfeits := fs.Int("clock-forfeits", 3, "timeouts in a row after which a seat resigns (0: never)")
	invSent := fs.Int("max-invites-sent", 10, "open invitations one player may have sent (0: no cap)")
	invKept := fs.Int("max-invites-received", 20, "open invitations kept for one player, from players it does not block (0: no cap)")
	blocks := fs.Int("max-blocks", 500, "players one player may block (0: no cap)")
	follows := fs.Int("max-follows", 200, "players one player may follow (0: no cap)")
	idle := fs.Duration("table-idle", 10*time.Minute, "an open table nobody has a connection to, where no bot or clock acts soon, leaves memory after this long unused and is loaded again when asked for (0: never; else at least 1s)")
	tail := fs.Int("history-tail", 64, fmt.Sprintf("a table's last actions kept in memory for the log of a connection (at most twice as many; the rest is read from the database when asked for): 1 to %d", maxHistoryTail))
	adjourn := fs.Duration("adjourn-after", 7*24*time.Hour, "a game against bots whose player has been away this long is adjourned until they resume it (0: never)")
	return func(opt *server.Options) error {
		for name, v := range map[string]int{"max-open-tables": *maxOpen, "max-bot-tables": *maxBots, "max-turns": *maxTurns,
			"max-tables-total": *maxTotal, "max-bot-tables-total": *maxBotsTotal,
			"finished-tables": *finished, "clock-forfeits": *forfeits,
			"max-invites-sent": *invSent, "max-invites-received": *invKept, "max-blocks": *blocks, "max-follows": *follows} {
			if v < 0 {
				return usagef("--%s %d: must be 0 or more", name, v)
			}
		}
		for name, v := range map[string]time.Duration{"waiting-expiry": *expiry, "guest-expiry": *guests, "turn-clock": *clock, "adjourn-after": *adjourn, "table-idle": *idle} {
			if v < 0 {
				return usagef("--%s %s: must be 0 or more", name, v)
			}
		}
		if *maxTurns > rules.MaxTurnsLimit {
			return usagef("--max-turns %d: at most %d", *maxTurns, rules.MaxTurnsLimit)
		}
		if *idle > 0 && *idle < time.Second {
			return usagef("--table-idle %s: at least 1s (or 0: never)", *idle)
		}
		if *tail < 1 || *tail > maxHistoryTail {
			return usagef("--history-tail %d: from 1 to %d", *tail, maxHistoryTail)
		}
		if *clock > time.Hour {
			return usagef("--turn-clock %s: at most 1h", *clock)
		}
		opt.MaxOpenTables, opt.MaxBotTables, opt.MaxTurns = off(*maxOpen), off(*maxBots), off(*maxTurns)
		opt.MaxTablesTotal, opt.MaxBotTablesTotal = off(*maxTotal), off(*maxBotsTotal)
		opt.FinishedTables, opt.ClockForfeits = off(*finished), off(*forfeits)
		opt.WaitingExpiry, opt.TurnClock = off(*expiry), off(*clock)
		opt.GuestExpiry, opt.AdjournAfter, opt.MaxFollows = off(*guests), off(*adjourn), off(*follows)
		opt.TableIdle, opt.HistoryTail = off(*idle), *tail
		opt.MaxInvitesSent, opt.MaxInvitesReceived, opt.MaxBlocks = off(*invSent), off(*invKept), off(*blocks)
		return nil
	}
}

// maxHistoryTail bounds --history-tail: a table holds at most twice as
// many actions' events and record entries (a few hundred bytes each), and
// --max-tables-total tables are open.
const maxHistoryTail = 1024

// off turns a flag's 0 (no limit) into the server's negative value for
// off (0 is the default in server.Options).
func off[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}
