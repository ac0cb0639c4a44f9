package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
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

// explorerServer serves a server with an explorer of the limits over a
// new SQLite file (the rate limits off) until the test ends.
func explorerServer(t *testing.T, lim ExploreLimits) (*Explorer, *httptest.Server) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "farkle.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 8, NoWait: true, Memory: 512 << 20, DuelCache: 256 << 20, SoloCache: 64 << 20})
	t.Cleanup(ts.Close)
	x := NewExplorerWith(ts, lim)
	s, err := New(ctx, db, Options{Explorer: x, AddressRate: -1, PlayerRate: -1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return x, srv
}

// TestExploreBusy: with every slot taken until its deadline, a request
// is answered 503 with Retry-After and code "busy", and holds no slot.
func TestExploreBusy(t *testing.T) {
	x, srv := explorerServer(t, ExploreLimits{Timeout: 100 * time.Millisecond})
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

// simulating reports whether a goroutine of the process is in a
// comparison's simulation or an explorer map.
func simulating() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "farkle/sim.") || strings.Contains(g, "farkle/explore.") {
			return true
		}
	}
	return false
}

// TestExploreClientGoneFreesSlot: a comparison whose games would run for
// minutes (singles of 10 and 5 to 1,000,000, the simulation unbounded,
// the deadline 10 minutes away) stops when its client goes: once the
// client closes its connection in the middle of the simulation, the
// comparisons' slot is free again and no goroutine simulates, long
// before the deadline, which is all that would end it otherwise.
func TestExploreClientGoneFreesSlot(t *testing.T) {
	const timeout = 10 * time.Minute
	x, srv := explorerServer(t, ExploreLimits{Timeout: timeout, SimTurns: -1})

	body := `{"rules":[{"base":"classic","scoring":{"single":{"1":10,"5":5},"triple":[100,20,30,40,50,60]},"game":{"target":1000000}},"classic"]}`
	client, leave := context.WithCancel(context.Background())
	defer leave()
	req, _ := http.NewRequestWithContext(client, "POST", srv.URL+"/api/explore/compare", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			err = errors.New(resp.Status)
		}
		answered <- err
	}()
	// waitFor polls until ok, failing after within.
	waitFor := func(what string, within time.Duration, ok func() bool) {
		t.Helper()
		end := time.Now().Add(within)
		for !ok() {
			if time.Now().After(end) {
				t.Fatalf("%s: not within %s (slots %d, heavy %d, simulating %v)", what, within, len(x.lanes.all), len(x.lanes.heavy), simulating())
			}
			time.Sleep(10 * time.Millisecond) // polling the slots and goroutines
		}
	}
	waitFor("the comparison simulating in its slot", time.Minute, func() bool { return len(x.lanes.heavy) == 1 && simulating() })
	select {
	case err := <-answered:
		t.Fatalf("the comparison was answered (%v) before its client went", err)
	default:
	}
	leave() // the client closes its connection
	if err := <-answered; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's request: %v", err)
	}
	start := time.Now()
	waitFor("the slot free and the simulation stopped after the client went", 30*time.Second, func() bool {
		return len(x.lanes.all) == 0 && len(x.lanes.heavy) == 0 && !simulating()
	})
	t.Logf("the slot came free %v after the client went (deadline %v)", time.Since(start).Round(time.Millisecond), timeout)
}
