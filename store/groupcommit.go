package store

// GroupCommitter is a store that commits the actions of many tables
// together (group commit).
type GroupCommitter interface {
	// GroupCommits returns how many batches of actions were committed
	// and how many actions they wrote.
	GroupCommits() (batches, actions int64)
}
