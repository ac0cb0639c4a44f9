package sqlite

// ResetCheckpoints returns how many checkpoints that reset the WAL
// completed, and whether they were RESTART checkpoints (TRUNCATE if not).
func (db *DB) ResetCheckpoints() (int64, bool) { return db.resets.Load(), db.resetMode() == "RESTART" }

// Pragma returns the value of a PRAGMA on the writer connection.
func (db *DB) Pragma(name string) (string, error) {
	var v string
	err := db.W.QueryRow(`PRAGMA ` + name).Scan(&v)
	return v, err
}

// WALFill is walFill: the bytes of the frames the WAL holds.
func (db *DB) WALFill() int64 { return db.walFill() }
