package store

import (
	"context"
	"encoding/json"
	"sync"
)

// Several server nodes may share one database (store/postgres). Each node
// keeps the tables it serves in memory, so it must hear of what the others
// commit, and the server's own moves at a table (its bots, turn clock and
// timeouts) must be made by one node at a time. A store shared that way
// implements Cluster; Solo is the Cluster of a store that one process owns.

// Change is a hint that a table changed: an action was stored, a seat
// was taken, or the table failed or expired; Actions and Status are the
// table's after the change. It carries no game data (the seed never leaves
// the database this way): a node that hears it reads the table again,
// unless it already has that many actions and that status.
//
// A Change with Follow set is not a change: another node has clients at
// Table and does not hold its lease, and asks for the hints of its actions
// (Quieter).
type Change struct {
	Table   string
	Actions int
	Status  Status
	Follow  bool
}

// Cluster is what the nodes sharing a store agree through.
type Cluster interface {
	// Changes returns the hints of the changes committed by any node (its
	// own included) until ctx ends. Hints may be lost: a Change with an
	// empty Table says some may have been (the connection carrying them
	// was lost), and every table held in memory should be read again.
	Changes(ctx context.Context) <-chan Change
	// Claim takes the lease of the table for this node if nobody holds
	// it (or its holder let it expire or yielded it: Yielder), or renews
	// it if this node holds it; it reports whether this node holds it now.
	Claim(ctx context.Context, table string) (bool, error)
	// Renew renews every lease this node holds and returns their tables.
	// On error the node must act as if it held none.
	Renew(ctx context.Context) ([]string, error)
	// Release gives the table's lease up (a table that ended).
	Release(ctx context.Context, table string) error
	// Orphans returns the open (waiting or playing) tables whose lease
	// nobody holds: those of a node that died, for another to take.
	Orphans(ctx context.Context) ([]string, error)
}

// ClusterOf returns the Cluster of s: s itself if it is one, else a Solo.
func ClusterOf(s Store) Cluster {
	if c, ok := s.(Cluster); ok {
		return c
	}
	return NewSolo()
}

// Solo is the Cluster of one node alone on its store: no other node
// commits anything, and every lease is its own at once.
type Solo struct {
	mu     sync.Mutex
	leases map[string]bool
}

// NewSolo returns a Solo holding no lease.
func NewSolo() *Solo { return &Solo{leases: map[string]bool{}} }

// Changes implements Cluster: no other node changes anything, so the
// channel delivers nothing; it closes when ctx ends.
func (s *Solo) Changes(ctx context.Context) <-chan Change {
	ch := make(chan Change)
	go func() {
		<-ctx.Done()
		close(ch)
	}()
	return ch
}

// Claim implements Cluster: the lease is always this node's.
func (s *Solo) Claim(_ context.Context, table string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leases[table] = true
	return true, nil
}

// Renew implements Cluster.
func (s *Solo) Renew(context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.leases))
	for id := range s.leases {
		out = append(out, id)
	}
	return out, nil
}

// Release implements Cluster.
func (s *Solo) Release(_ context.Context, table string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.leases, table)
	return nil
}

// Orphans implements Cluster: a node alone loads every open table at its
// start, so none is ever left without it.
func (s *Solo) Orphans(context.Context) ([]string, error) { return nil, nil }

// Yielder is a Cluster whose leases can move to the node a table's players
// are on (server/affinity.go): a node with no connection to a table that
// another node plays yields its lease, and a node with connections to it
// claims it.
type Yielder interface {
	// Yield gives the table's lease, if this node holds it, to whichever
	// node claims it next (Claim or ClaimEach) within the lease time;
	// nobody claiming it, it expires and the table is an orphan.
	Yield(ctx context.Context, table string) error
	// ClaimEach is Claim of each table, in one round trip: it returns
	// those this node holds now.
	ClaimEach(ctx context.Context, tables []string) ([]string, error)
}

// Quieter is a Cluster whose change hints can go only where they are
// needed. Every node hears every hint, so each node reads the hints of
// every action of the cluster, however many nodes share the load; but an
// action at a table whose lease its node holds, where no other node has
// clients, concerns nobody else (server/quiet.go). A node that follows a
// table from afar says so (WantHints) every lease round; the holder then
// hints its actions again.
type Quieter interface {
	// AppendQuiet is AppendAction of an action that does not end its
	// game, without its change hint.
	AppendQuiet(ctx context.Context, tableID string, n int, entry json.RawMessage) error
	// WantHints tells the other nodes that this node has clients at the
	// tables and does not hold their leases: they hear it as a Change
	// with Follow set (this node does not).
	WantHints(ctx context.Context, tables []string) error
	// Hint sends the change hint c, as a write's own hint would be: a
	// holder's, when it hears a request it did not have.
	Hint(ctx context.Context, c Change) error
}
