package server

// TablesInMemory returns the number of tables the server holds: open or
// watched ones, and finished ones kept by recent use.
func (s *Server) TablesInMemory() (open, finished int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables), s.finished.len()
}
