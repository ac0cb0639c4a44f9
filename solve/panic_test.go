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
	jobHook = func(a, b int32) {
		if a == 3 && b == 7 {
			panic("boom")
		}
	}
	defer func() { jobHook = nil }()
	_, err := SolveDuel(r, DuelOptions{Workers: 2})
	if !errors.Is(err, ErrInternal) {
		t.Fatalf("SolveDuel with a panicking worker: %v, want ErrInternal", err)
	}
	jobHook = nil
	if _, err := SolveDuel(r, DuelOptions{Workers: 2}); err != nil {
		t.Fatalf("the same rules without the panic: %v", err)
	}
}
