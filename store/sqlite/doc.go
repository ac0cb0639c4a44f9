// Package sqlite is the embedded store.Store: one SQLite file through
// modernc.org/sqlite (pure Go), in WAL mode. Its statements are the one
// SQL store's (store/sqlstore) in SQLite's dialect (dialect.go); this
// package adds what SQLite alone needs: the file's checks, the group
// commit and the WAL's care.
//
// Durability: by default synchronous=FULL, so an action is on disk (it
// survives a power loss) when AppendAction returns and the server may
// broadcast it. Actions are written one batch at a time, those arriving
// together in one transaction (group commit), which spreads the fsync over
// them; the batch is committed by the goroutine of one of its appends
// (sqlstore.Group), so that an action alone wakes no other goroutine.
// OpenWith's Options.Synchronous="NORMAL" trades that guarantee for speed
// (see BenchmarkAppendAction).
//
// The WAL is checkpointed in the background (PASSIVE, never blocking) and,
// past Options.WALLimit, restarted between two commits (its file written
// over from its start, not emptied), so its file stays bounded under any
// load (see wal.go).
//
// Open checks the file first (quick_check by default, Options.Check) and
// refuses a damaged file, or one that is not a database, with a
// *DamagedError naming the file and what to do. Health rewrites one row and
// reads it back, so it fails when writes fail.
//
// Migrations are embedded SQL files run in order, each in its own
// transaction with foreign keys off and checked before commit, and
// recorded in schema_migrations. Writes go through one connection (SQLite
// has one writer); reads use a pool.
package sqlite
