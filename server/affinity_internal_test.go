package server

import (
	"slices"
	"testing"
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
