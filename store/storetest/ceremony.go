package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// testCeremonies: a ceremony put by one caller is taken once by any (two
// racing takers: one wins), an expired one is gone, and max bounds those
// under way while a key may still be replaced.
func testCeremonies(t *testing.T, s store.Store) {
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	must(t, s.PutCeremony(ctx, "signin:a", []byte(`{"challenge":"x"}`), later, 3))
	got, err := s.TakeCeremony(ctx, "signin:a")
	if err != nil || string(got) != `{"challenge":"x"}` {
		t.Fatalf("TakeCeremony = %q, %v", got, err)
	}
	_, err = s.TakeCeremony(ctx, "signin:a")
	wantCode(t, err, store.ENOTFOUND, "a ceremony taken twice")
	_, err = s.TakeCeremony(ctx, "signin:none")
	wantCode(t, err, store.ENOTFOUND, "no such ceremony")

	must(t, s.PutCeremony(ctx, "old", []byte("x"), time.Now().Add(-time.Minute), 0))
	_, err = s.TakeCeremony(ctx, "old")
	wantCode(t, err, store.ENOTFOUND, "an expired ceremony")

	for i := range 3 {
		must(t, s.PutCeremony(ctx, fmt.Sprintf("k%d", i), []byte{byte(i)}, later, 3))
	}
	wantCode(t, s.PutCeremony(ctx, "k3", []byte("x"), later, 3), store.ECONFLICT, "a fourth ceremony over max 3")
	must(t, s.PutCeremony(ctx, "k1", []byte("again"), later, 3)) // replacing one is no more
	if got, err := s.TakeCeremony(ctx, "k1"); err != nil || string(got) != "again" {
		t.Fatalf("the replaced ceremony = %q, %v", got, err)
	}

	must(t, s.PutCeremony(ctx, "race", []byte("r"), later, 0))
	var wg sync.WaitGroup
	wins := make([]bool, 8)
	for i := range wins {
		wg.Go(func() {
			_, err := s.TakeCeremony(ctx, "race")
			wins[i] = err == nil
		})
	}
	wg.Wait()
	n := 0
	for _, w := range wins {
		if w {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d racing takers got the ceremony, want exactly 1", n)
	}
}
