package abuse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestThreeSolveFlood: many three-seat tables of distinct rule sets with a
// perfect bot each, against the real binary with --three-solve-triples
// 8000 (pocket-farkel to 1,000). The small ones' three-player tables are
// solved in the background, one at a time within the solver's memory,
// each once; the large ones (target 10,000: 8 million triples, an hour of
// CPU) are never solved, and their perfect seats' notes say why; the
// server stays far under 1 GiB.
func TestThreeSolveFlood(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--bot-delay", "1h", "--max-open-tables", "20",
		"--rate-address", "0", "--cache", t.TempDir(), "--metrics-addr", "127.0.0.1:0", "--three-solve-triples", "8000")
	ctx := deadline(t, 5*time.Minute)
	type seated struct {
		c  *client
		id string
	}
	var small, large []seated
	for i := range 8 {
		c := s.client()
		c.player(fmt.Sprintf("P%d", i))
		target := 600 + 100*(i%4) // four small rule sets, each at two tables
		if i >= 6 {
			target = 10000 + 50*(i-6) // two tables too large for the server to solve
		}
		rules := map[string]any{"base": "pocket-farkel", "game": map[string]any{"target": target}}
		tb := seated{c, tableID(t, c.table(rules, me, bot("perfect"), bot("steady")))}
		if i >= 6 {
			large = append(large, tb)
		} else {
			small = append(small, tb)
		}
	}
	note := func(tb seated) string {
		var v struct{ Seats []struct{ Bot, Note string } }
		tb.c.do("GET", "/api/tables/"+tb.id, nil).json(t, &v)
		if len(v.Seats) != 3 {
			t.Fatalf("table %s: seats %+v", tb.id, v.Seats)
		}
		return v.Seats[1].Note
	}
	for _, tb := range small {
		for n := note(tb); n != ""; n = note(tb) {
			if !strings.HasPrefix(n, "plays as expert: its table is being prepared") {
				t.Fatalf("table %s: the perfect seat's note %q while its table is made", tb.id, n)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("table %s: the note stays: %q", tb.id, n)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	for _, tb := range large {
		if n := note(tb); !strings.Contains(n, "plays as expert: its table is too large for this server's budget") {
			t.Errorf("table %s: the perfect seat's note %q", tb.id, n)
		}
	}
	// The duel tables (for when a seat resigns) follow: let them finish.
	s.solvesDone(ctx, t)
	_, peak := s.memory()
	solves := s.metric("farkle_three_solves_total")
	t.Logf("8 three-seat tables of 6 rule sets: %v three-player solves, peak RSS %d MiB, solves held at most %.0f MiB",
		solves, peak/mib, s.metric("farkle_solve_memory_peak_bytes")/mib)
	if solves != 4 {
		t.Errorf("%v three-player solves, want 4 (each small rule set once, the large none)", solves)
	}
	if peak > 1<<30 {
		t.Errorf("peak RSS %d MiB, over 1 GiB", peak/mib)
	}
	s.alive()
}

// solvesDone waits (polling the metrics) until the server's solver has no
// solve running or waiting.
func (s *server) solvesDone(ctx context.Context, t *testing.T) {
	t.Helper()
	for s.metric("farkle_solves_running") > 0 || s.metric("farkle_solves_queued") > 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("the solves did not finish: %v running, %v queued", s.metric("farkle_solves_running"), s.metric("farkle_solves_queued"))
		case <-time.After(200 * time.Millisecond):
		}
	}
}
