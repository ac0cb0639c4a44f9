package sqlite

// TruncateCheckpoints returns how many TRUNCATE checkpoints completed.
func (db *DB) TruncateCheckpoints() int64 { return db.truncated.Load() }
