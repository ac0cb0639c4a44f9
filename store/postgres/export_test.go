package postgres

// Channel returns the LISTEN/NOTIFY channel of db's schema, for tests that
// listen to the hints themselves.
func (db *DB) Channel() string { return db.channel }
