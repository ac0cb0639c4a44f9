// Package sqlite is the embedded store.Store: one SQLite file through
// modernc.org/sqlite (pure Go), in WAL mode with synchronous=NORMAL (a
// committed transaction survives the process being killed; an operating
// system crash may lose the last ones). Actions are written by one
// goroutine that commits those arriving together in one transaction (group
// commit); the WAL is checkpointed in the background every second, so no
// commit waits for the file's fsync. Migrations are embedded SQL files
// run in order, each in its own transaction, and recorded in
// schema_migrations. Writes go through one connection (SQLite has one
// writer); reads use a pool.
package sqlite
