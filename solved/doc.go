// Package solved is the process's service of solver results: it solves,
// loads and shares the results of package solve per rule set (Tables):
// solo policies, duel tables and three-player tables, for the bots, the
// hints, the explorer and the commands that need a solve, not a bot.
//
// Tables shares them per rule set (by rules hash): the one the caller
// makes, else DefaultTables(), which keeps them in memory only, bounded in
// bytes. A Tables with a cache directory reads duel and three-player
// tables from it and writes those it solves there, the only files this
// package touches; the package reads no environment (CacheDir takes the
// caller's). A Tables made by NewLimitedTables runs every solve through
// one scheduler bounded by Limits (solves at once, a queue, a memory
// budget checked before anything is allocated, byte-bounded caches in
// memory and on disk), as the web server does. Reason says why a result cannot be had, in words for
// players.
package solved
