package solve

import (
	"errors"
	"testing"

	"github.com/farkle/farkle/rules"
)

// TestWorkerPanicIsAnError: a panic in one of the duel solver's worker
// goroutines is returned as an error wrapping ErrInternal; it does not end
// the process (a server solving for a table would lose every table).
func TestWorkerPanicIsAnError(t *testing.T) {
	r := rules.MustPreset("cardgames")
	r.Game.Target = 1000
	panicking := func(a, b int32) {
		if a == 3 && b == 7 {
			panic("boom")
		}
	}
	_, err := SolveDuel(r, DuelOptions{Workers: 2, test: duelTest{job: panicking}})
	if !errors.Is(err, ErrInternal) {
		t.Fatalf("SolveDuel with a panicking worker: %v, want ErrInternal", err)
	}
	if _, err := SolveDuel(r, DuelOptions{Workers: 2}); err != nil {
		t.Fatalf("the same rules without the panic: %v", err)
	}
}

// TestWorkerPanicIsAnErrorInLaterSweeps: the same in a sweep after the
// first with a farkle penalty, where the sums overlap (overlapped).
func TestWorkerPanicIsAnErrorInLaterSweeps(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Game.Target = 3000 // the pair is below the sums the first sweep solves twice
	seen := 0
	panicking := func(a, b int32) {
		if a == 3 && b == 7 {
			if seen++; seen == 2 { // the second sweep
				panic("boom")
			}
		}
	}
	_, err := SolveDuel(r, DuelOptions{Workers: 2, test: duelTest{job: panicking}})
	if !errors.Is(err, ErrInternal) || seen != 2 {
		t.Fatalf("SolveDuel with a worker panicking in sweep 2 (hook seen %d times): %v, want ErrInternal", seen, err)
	}
}
