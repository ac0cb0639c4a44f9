package server

import "github.com/farkle/farkle/dice"

// SetSeeds makes the server's new tables take their seeds from f until
// the returned function restores the random seeds.
func SetSeeds(f func() dice.Seed) (restore func()) {
	newSeed = f
	return func() { newSeed = dice.NewSeed }
}

// TablesInMemory returns the number of tables the server holds: open or
// watched ones, and finished ones kept by recent use.
func (s *Server) TablesInMemory() (open, finished int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables), s.finished.len()
}
