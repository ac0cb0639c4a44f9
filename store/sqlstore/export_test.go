package sqlstore

// Queued returns the appends waiting in g's queue.
func Queued(g *Group) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}

// Leaders returns the batches under way (goroutines committing or handed
// the queue to commit next).
func Leaders(g *Group) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.leaders
}
