package postgres

// Channel returns the LISTEN/NOTIFY channel of db's schema, for tests that
// listen to the hints themselves.
func (db *DB) Channel() string { return db.channel }

// Batched returns how many actions were committed in batches of more than
// one (the group commit at work).
func (db *DB) Batched() int64 { return db.batched.Load() }

// JoinHints is joinHints, for its test.
var JoinHints = joinHints
