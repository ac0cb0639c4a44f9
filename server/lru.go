package server

import "github.com/farkle/farkle/internal/lru"

// finishedTables keeps the finished tables nobody watches, most recently
// read first, up to a cap: reading a finished table (GET /api/tables/{id},
// its record or replay) loads it from the store, and without a bound every
// table ever read would stay in memory. A table pushed out is simply
// loaded again when asked for. The Server's mu guards it.
type finishedTables struct {
	max    int
	tables *lru.Cache[string, *table] // each of size 1: the bound is in tables
}

func newFinishedTables(max int) *finishedTables {
	return &finishedTables{max: max, tables: lru.New[string, *table](int64(max))}
}

// get returns the table with id and marks it most recently used.
func (f *finishedTables) get(id string) (*table, bool) { return f.tables.Get(id) }

// add keeps t as the most recently used, dropping the least recently
// used tables past the cap (a cap of 0 or less keeps none).
func (f *finishedTables) add(t *table) {
	if f.max > 0 {
		f.tables.Add(t.id, t, 1)
	}
}

// remove forgets the table with id, if kept.
func (f *finishedTables) remove(id string) { f.tables.Remove(id) }

// len returns the number of tables kept.
func (f *finishedTables) len() int { return f.tables.Len() }
