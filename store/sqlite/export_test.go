package sqlite

import "os"

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

// HoldShm makes the store read the WAL's fill from the file at path, as
// if it were the -shm file it opened.
func (db *DB) HoldShm(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	if old := db.shm.Swap(f); old != nil {
		old.Close()
	}
	return nil
}

// HoldsShm reports whether the -shm file the store reads is the file at
// path.
func (db *DB) HoldsShm(path string) bool { return db.holdsShm(path) }

// RefreshShm is refreshShm, the checkpointer's every second.
func (db *DB) RefreshShm() { db.refreshShm() }
