package server

import (
	"context"
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/farkle/farkle/store"
)

// orphansToTake: a table seen without a lease for the first time is left
// to its creator (who claims it a round trip after storing it), unless this
// node has a connection to it; one still an orphan at the next look is
// taken; one no longer an orphan is forgotten, and seen afresh when it is
// one again.
func TestOrphansToTake(t *testing.T) {
	here := &table{id: "here", clients: map[*client]struct{}{{}: {}}}
	s := &Server{tables: map[string]*table{"here": here, "idle": {id: "idle", clients: map[*client]struct{}{}}}}
	for _, step := range []struct {
		orphans, want []string
	}{
		{[]string{"new", "here", "idle"}, []string{"here"}},
		{[]string{"new", "idle", "other"}, []string{"new", "idle"}},
		{[]string{"other"}, []string{"other"}},
		{[]string{"new"}, nil},
		{[]string{"new"}, []string{"new"}},
		{nil, nil},
	} {
		if got := s.orphansToTake(step.orphans); !slices.Equal(got, step.want) {
			t.Fatalf("orphans %v: took %v, want %v", step.orphans, got, step.want)
		}
	}
}

// TestLetGoAfterCatchingUp: a node with no connection to a table in play
// lets it go at the hint of an action it did not store itself, even where,
// following an earlier hint, it has read the table with that action in it
// already (the hints of a game's first actions then fell at or below what
// it had read, and the table stayed on the node that created it, followed
// there for nobody); the hint of its own last action keeps it.
func TestLetGoAfterCatchingUp(t *testing.T) {
	for _, c := range []struct {
		name                  string
		actedHere, read, hint int
		want                  bool
	}{
		{"another node's action, read already", 0, 3, 3, true},
		{"another node's action, not read yet", 0, 2, 3, true},
		{"its own last action", 3, 3, 3, false},
		{"another node's action after its own", 3, 3, 4, true},
		{"loaded with the action in it", 5, 5, 5, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := &table{id: "x", clients: map[*client]struct{}{}, actedHere: c.actedHere,
				meta: store.Table{ID: "x", Status: store.Playing, Actions: c.read}}
			s := &Server{tables: map[string]*table{"x": tb}, cluster: yieldOnly{},
				mLetGo: prometheus.NewCounter(prometheus.CounterOpts{Name: "let_go"})}
			tb.srv = s
			got := s.letGo(context.Background(), tb, store.Change{Table: "x", Actions: c.hint, Status: store.Playing})
			if got != c.want {
				t.Fatalf("let go: %v, want %v", got, c.want)
			}
			if _, kept := s.tables["x"]; kept == got {
				t.Fatalf("let go %v, and the table in memory %v", got, kept)
			}
		})
	}
}

// yieldOnly is a cluster whose leases can only be yielded.
type yieldOnly struct{ store.Cluster }

func (yieldOnly) Yield(context.Context, string) error { return nil }

func (yieldOnly) ClaimEach(context.Context, []string) ([]string, error) { return nil, nil }
