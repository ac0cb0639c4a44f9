package sqlstore

// Queued returns the appends waiting in g's queue.
func Queued(g *Group) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}
