package server

// TablesInMemory returns the number of tables the server holds: open or
// watched ones, and finished ones kept by recent use.
func (s *Server) TablesInMemory() (open, finished int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables), s.finished.len()
}

// TableHistory returns the events lists and record entries table id
// holds in memory, and whether it is in memory at all.
func (s *Server) TableHistory(id string) (events, entries int, ok bool) {
	s.mu.Lock()
	t, ok := s.tables[id]
	if !ok {
		t, ok = s.finished.get(id)
	}
	s.mu.Unlock()
	if !ok {
		return 0, 0, false
	}
	events, entries = t.historyHeld()
	return events, entries, true
}

// SleepIdle puts the idle tables to sleep now, as the loop of
// Options.TableIdle does, and returns how many tables are asleep.
func (s *Server) SleepIdle() int {
	s.sleepIdle()
	n, _ := s.asleepCounts()
	return n
}
