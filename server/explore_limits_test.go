package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/solved"
	"github.com/farkle/farkle/store/sqlite"
)

// TestLanes: of n slots, comparisons (heavy) take at most n-1, so that a
// map or a position always finds one while comparisons wait; a request
// whose deadline passes while waiting gets its error and holds nothing.
func TestLanes(t *testing.T) {
	for n := 1; n <= 4; n++ {
		l := newLanes(n)
		// fill takes slots of the kind until none frees within 20 ms.
		fill := func(heavy bool) []func() {
			var frees []func()
			for {
				c, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				free, err := l.enter(c, heavy)
				cancel()
				if err != nil {
					if !errors.Is(err, context.DeadlineExceeded) {
						t.Fatalf("n=%d: %v", n, err)
					}
					return frees
				}
				frees = append(frees, free)
			}
		}
		heavy := fill(true)
		if want := max(n-1, 1); len(heavy) != want {
			t.Fatalf("n=%d: %d comparisons at once, want %d", n, len(heavy), want)
		}
		light := fill(false)
		if len(heavy)+len(light) != n || (n > 1 && len(light) < 1) {
			t.Fatalf("n=%d: %d comparisons and %d others at once", n, len(heavy), len(light))
		}
		for _, f := range append(heavy, light...) {
			f()
		}
		if len(l.all) != 0 || len(l.heavy) != 0 {
			t.Fatalf("n=%d: %d slots and %d heavy ones still held after every free", n, len(l.all), len(l.heavy))
		}
	}
}

// TestExploreBusy: with every slot taken until its deadline, a request
// is answered 503 with Retry-After and code "busy", and holds no slot.
func TestExploreBusy(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "farkle.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 8, NoWait: true})
	defer ts.Close()
	x := NewExplorerWith(ts, ExploreLimits{Timeout: 100 * time.Millisecond})
	s, err := New(ctx, db, Options{Explorer: x, AddressRate: -1, PlayerRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for range cap(x.lanes.all) {
		x.lanes.all <- struct{}{}
	}
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/explore/position", `{"rules":"classic"}`},
		{"POST", "/api/explore/compare", `{"rules":["classic","cardgames"]}`},
		{"GET", "/api/explore/published", ""},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || e.Code != codeExploreBusy || resp.Header.Get("Retry-After") == "" || !strings.Contains(e.Error, "busy") {
			t.Errorf("%s with every slot taken: %d %+v (Retry-After %q)", c.path, resp.StatusCode, e, resp.Header.Get("Retry-After"))
		}
	}
	if len(x.lanes.all) != cap(x.lanes.all) || len(x.lanes.heavy) != 0 {
		t.Fatalf("refused requests hold slots: %d of %d, %d heavy", len(x.lanes.all), cap(x.lanes.all), len(x.lanes.heavy))
	}
}
