package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// testCeremonies: a challenge is spent once (of racing spenders, one
// wins), an expired record is dropped so its room is free again, max
// bounds one owner's unexpired records and not another's, and the
// server's secret is made once and kept.
func testCeremonies(t *testing.T, s store.Store) {
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	must(t, s.SpendChallenge(ctx, "c1", "p1", later, 3))
	wantCode(t, s.SpendChallenge(ctx, "c1", "p1", later, 3), store.ECONFLICT, "a challenge spent twice")
	wantCode(t, s.SpendChallenge(ctx, "", "p1", later, 3), store.EINVALID, "no key")

	must(t, s.SpendChallenge(ctx, "c2", "p1", later, 3))
	must(t, s.SpendChallenge(ctx, "old", "p1", time.Now().Add(-time.Second), 3)) // expired at once: dropped by the next spend
	must(t, s.SpendChallenge(ctx, "c3", "p1", later, 3))
	err := s.SpendChallenge(ctx, "c4", "p1", later, 3)
	if !errors.Is(err, store.ErrOverLimit) {
		t.Fatalf("a fourth challenge of one owner under a max of 3: %v, want ErrOverLimit", err)
	}
	wantCode(t, s.SpendChallenge(ctx, "c1", "p1", later, 3), store.ECONFLICT, "a spent challenge again, at the owner's max")
	must(t, s.SpendChallenge(ctx, "c4", "p2", later, 3))  // another owner's room is its own
	must(t, s.SpendChallenge(ctx, "old", "p3", later, 3)) // the expired record is gone: its key is free

	var wg sync.WaitGroup
	wins := make([]bool, 8)
	for i := range wins {
		wg.Go(func() { wins[i] = s.SpendChallenge(ctx, "race", fmt.Sprint("o", i), later, 0) == nil })
	}
	wg.Wait()
	n := 0
	for _, w := range wins {
		if w {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d racing spenders spent one challenge, want exactly 1", n)
	}

	a, err := s.Secret(ctx, "ceremony")
	must(t, err)
	b, err := s.Secret(ctx, "ceremony")
	must(t, err)
	c, err := s.Secret(ctx, "other")
	must(t, err)
	if len(a) != 32 || string(a) != string(b) || string(a) == string(c) {
		t.Fatalf("secrets %x, %x (same name), %x (another): want 32 bytes, kept, one per name", a, b, c)
	}
}
