package server

import "container/list"

// finishedTables keeps the finished tables nobody watches, most recently
// read first, up to a cap: reading a finished table (GET /api/tables/{id},
// its record or replay) loads it from the store, and without a bound every
// table ever read would stay in memory. A table pushed out is simply
// loaded again when asked for. The Server's mu guards it.
type finishedTables struct {
	max   int
	order *list.List               // of *table, most recent at the front
	byID  map[string]*list.Element // into order
}

func newFinishedTables(max int) *finishedTables {
	return &finishedTables{max: max, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns the table with id and marks it most recently used.
func (f *finishedTables) get(id string) (*table, bool) {
	e, ok := f.byID[id]
	if !ok {
		return nil, false
	}
	f.order.MoveToFront(e)
	return e.Value.(*table), true
}

// add keeps t as the most recently used, dropping the least recently
// used tables past the cap.
func (f *finishedTables) add(t *table) {
	if e, ok := f.byID[t.id]; ok {
		e.Value = t
		f.order.MoveToFront(e)
		return
	}
	if f.max <= 0 {
		return
	}
	f.byID[t.id] = f.order.PushFront(t)
	for f.order.Len() > f.max {
		last := f.order.Back()
		f.order.Remove(last)
		delete(f.byID, last.Value.(*table).id)
	}
}

// remove forgets the table with id, if kept.
func (f *finishedTables) remove(id string) {
	if e, ok := f.byID[id]; ok {
		f.order.Remove(e)
		delete(f.byID, id)
	}
}

// len returns the number of tables kept.
func (f *finishedTables) len() int { return f.order.Len() }
