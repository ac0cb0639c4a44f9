package sqlite

// TruncateCheckpoints returns how many TRUNCATE checkpoints completed.
func (db *DB) TruncateCheckpoints() int64 { return db.truncated.Load() }

// Pragma returns the value of a PRAGMA on the writer connection.
func (db *DB) Pragma(name string) (string, error) {
	var v string
	err := db.W.QueryRow(`PRAGMA ` + name).Scan(&v)
	return v, err
}
