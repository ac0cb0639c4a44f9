package abuse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The comparison: four house rule sets to 1,000,000, one of them
// scoring a tenth of classic (a game of two experts takes about 50,000
// turns there): it ran 50 s, past the write timeout, and two of them held
// both explorer slots 84 s while other users' positions timed out.
var hugeCompare = map[string]any{"rules": []any{
	map[string]any{"base": "classic", "scoring": map[string]any{"single": map[string]any{"1": 10, "5": 5}, "triple": []int{100, 20, 30, 40, 50, 60}},
		"game": map[string]any{"target": 1000000}},
	map[string]any{"base": "cardgames", "game": map[string]any{"target": 1000000}},
	map[string]any{"base": "farkle-dice", "game": map[string]any{"target": 999950}},
	map[string]any{"base": "pocket-farkel", "game": map[string]any{"target": 999900}},
}}

// cpuSeconds is the CPU time the process has used (user and system).
func (s *server) cpuSeconds() float64 {
	s.t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		s.t.Skipf("no /proc here: %v", err)
	}
	// The fields after the command's name (which may hold spaces): state
	// is field 3, utime 14, stime 15, in clock ticks (100 a second).
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100
}

// idle fails unless the server uses under a fifth of a core in the second
// right after the requests were answered (their work stops within a game
// of a simulation or a row of a map; a comparison that went on would keep
// both cores busy for seconds), and its goroutines are back to at most
// goroutines.
func (s *server) idle(goroutines float64) {
	s.t.Helper()
	cpu0, at := s.cpuSeconds(), time.Now()
	<-time.After(time.Second)
	used, wall := s.cpuSeconds()-cpu0, time.Since(at).Seconds()
	deadline := time.Now().Add(15 * time.Second)
	for s.metric("go_goroutines") > goroutines {
		if time.Now().After(deadline) {
			s.t.Fatalf("%v goroutines 15 s after the requests ended, want at most %v", s.metric("go_goroutines"), goroutines)
		}
		<-time.After(50 * time.Millisecond) // polling the metrics
	}
	s.t.Logf("after the requests: %.2f s of CPU in %.2f s; %v goroutines", used, wall, s.metric("go_goroutines"))
	if used > 0.2*wall {
		s.t.Fatalf("the server used %.2f s of CPU in the %.2f s after the requests were answered: their work goes on", used, wall)
	}
}

// user is a client at an address of its own (the server believes the
// loopback proxy's X-Forwarded-For: --trusted-proxies 127.0.0.1).
type user struct {
	c  *client
	ip string
}

func (s *server) user(ip string) user { return user{s.client(), ip} }

func (u user) do(method, path string, body any) answer {
	return u.c.do(method, path, body, "X-Forwarded-For", u.ip)
}

// otherRules are the rules of the other user's positions: classic to
// 500,000, whose duel table is too large to solve (so that no solve the
// positions start keeps the server busy after the requests).
var otherRules = map[string]any{"base": "classic", "game": map[string]any{"target": 500000}}

// positionWhile asks for a position every 200 ms until stop is closed,
// as another user at the explorer, and returns every answer.
func positionWhile(u user, stop <-chan struct{}) []answer {
	var out []answer
	for {
		out = append(out, u.do("POST", "/api/explore/position", map[string]any{"rules": otherRules, "me": 500, "them": 1500}))
		select {
		case <-stop:
			return out
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// hugeComparesWhilePositions sends two of the comparisons at once,
// each from an address of its own, while another user asks for positions
// from a third; it returns the goroutines of the server before, the
// comparisons' answers and how long each took, and the positions'
// answers.
func hugeComparesWhilePositions(s *server) (base float64, answers []answer, took []time.Duration, positions []answer) {
	other := s.user("10.0.0.1")
	other.do("POST", "/api/explore/position", map[string]any{"rules": otherRules}) // the solo policy in memory
	base = s.metric("go_goroutines")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	answers, took = make([]answer, 2), make([]time.Duration, 2)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			answers[i] = s.user(fmt.Sprintf("10.0.1.%d", i)).do("POST", "/api/explore/compare", hugeCompare)
			took[i] = time.Since(start)
		}()
	}
	pos := make(chan []answer, 1)
	go func() { pos <- positionWhile(other, stop) }()
	wg.Wait()
	close(stop)
	return base, answers, took, <-pos
}

// TestExploreHugeCompares: two of the comparisons at once, on a
// server with its default flags. They are answered within the deadline,
// the games too long to simulate left out with a note; meanwhile another
// user's positions are answered; afterwards the server is idle, its RSS
// under 400 MiB.
func TestExploreHugeCompares(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2") // the server's explorer slots: two, one of them for comparisons
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--metrics-addr", "127.0.0.1:0", "--cache", t.TempDir(), "--trusted-proxies", "127.0.0.1")
	base, answers, took, pos := hugeComparesWhilePositions(s)
	for i, a := range answers {
		if a.Status != http.StatusOK {
			t.Fatalf("huge comparison %d: %s", i, a)
		}
		var st []struct {
			Name    string
			Games   int
			SimNote string `json:"sim_note"`
		}
		a.json(t, &st)
		if len(st) != 4 || st[0].Games != 0 || !strings.Contains(st[0].SimNote, "no games simulated") {
			t.Fatalf("huge comparison %d: %+v", i, st)
		}
		for _, r := range st[1:] {
			if r.Games >= 1000 || r.SimNote == "" {
				t.Errorf("huge comparison %d: %+v played in full", i, r)
			}
		}
	}
	okN := 0
	for _, a := range pos {
		if a.Status == http.StatusOK {
			okN++
		} else {
			t.Errorf("another user's position during the comparisons: %s", a)
		}
	}
	t.Logf("two huge comparisons answered in %v and %v; %d positions of another user answered meanwhile", took[0], took[1], okN)
	s.idle(base + 5)
	if rss, peak := s.memory(); peak > 400*mib {
		t.Errorf("peak RSS %d MiB (now %d MiB), over 400 MiB", peak/mib, rss/mib)
	}
	s.alive()
}

// TestExploreDeadlineStopsWork: with the simulation unbounded
// (--explore-sim-turns 0) and a deadline of 2 s, the comparisons
// run into the deadline: one is cut there (503 "timeout"), the other finds
// the comparisons' slot taken until its own deadline (503 "busy"), both
// with Retry-After; another user's positions are answered meanwhile, and
// once the comparisons are answered their work has stopped: the server is
// idle.
func TestExploreDeadlineStopsWork(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2")
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--metrics-addr", "127.0.0.1:0", "--cache", t.TempDir(),
		"--explore-sim-turns", "0", "--explore-timeout", "2s", "--trusted-proxies", "127.0.0.1")
	base, answers, took, pos := hugeComparesWhilePositions(s)
	codes := map[string]int{}
	for i, a := range answers {
		var e struct{ Code string }
		a.json(t, &e)
		codes[e.Code]++
		if a.Status != http.StatusServiceUnavailable || a.Header.Get("Retry-After") == "" {
			t.Fatalf("comparison %d past the deadline: %s (Retry-After %q)", i, a, a.Header.Get("Retry-After"))
		}
	}
	t.Logf("the comparisons with a deadline of 2 s: answered %v in %v and %v", codes, took[0], took[1])
	if codes["timeout"] < 1 || codes["timeout"]+codes["busy"] != 2 {
		t.Errorf("the comparisons were answered %v, want one cut at the deadline and the other timeout or busy", codes)
	}
	for _, a := range pos {
		if a.Status != http.StatusOK {
			t.Errorf("another user's position during the comparisons: %s", a)
		}
	}
	s.idle(base + 5)
	if _, peak := s.memory(); peak > 400*mib {
		t.Errorf("peak RSS %d MiB, over 400 MiB", peak/mib)
	}
	s.alive()
}

// TestExploreClientGone: a comparison whose games would run for minutes
// (the simulation unbounded, --explore-sim-turns 0, to the deadline of
// 25 s) is stopped when its client closes its connection: once the
// server is seen simulating (a second of CPU spent after the rule sets'
// policies were in memory, its slot busy: farkle_explore_slots_busy), the
// client goes, and the slot is free again, the server idle and back to its
// goroutines within seconds, long before the deadline, which is all that
// would stop it otherwise. Then a comparison that needs the comparisons'
// one slot is answered.
func TestExploreClientGone(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2") // one slot for comparisons
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--metrics-addr", "127.0.0.1:0", "--cache", t.TempDir(),
		"--explore-sim-turns", "0", "--explore-timeout", "25s")
	long := hugeCompare["rules"].([]any)[:2] // duel tables too large to solve: nothing but the simulation works
	c := s.client()
	for _, r := range long { // the solo policies in memory
		if a := c.do("POST", "/api/explore/position", map[string]any{"rules": r}); a.Status != http.StatusOK {
			t.Fatalf("a position: %s", a)
		}
	}
	base, cpu0 := s.metric("go_goroutines"), s.cpuSeconds()
	body, _ := json.Marshal(map[string]any{"rules": long})
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/api/explore/compare", bytes.NewReader(body))
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
	end := time.Now().Add(20 * time.Second)
	for s.cpuSeconds()-cpu0 < 1 || s.metric("farkle_explore_slots_busy") != 1 {
		if time.Now().After(end) {
			t.Fatalf("the comparison used %.2f s of CPU in 20 s, %v slots busy", s.cpuSeconds()-cpu0, s.metric("farkle_explore_slots_busy"))
		}
		select {
		case err := <-answered:
			t.Fatalf("the comparison was answered (%v) before its client went", err)
		case <-time.After(50 * time.Millisecond): // polling the CPU time
		}
	}
	leave()
	if err := <-answered; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's request: %v", err)
	}
	gone := time.Now()
	for s.metric("farkle_explore_slots_busy") != 0 {
		if time.Since(gone) > 10*time.Second {
			t.Fatalf("the comparison's slot still busy 10 s after its client went (the deadline is 25 s)")
		}
		<-time.After(50 * time.Millisecond) // polling the metrics
	}
	t.Logf("the slot came free %v after the client went", time.Since(gone).Round(time.Millisecond))
	s.idle(base + 5)
	if a := c.do("POST", "/api/explore/compare", map[string]any{"rules": []any{"classic", "cardgames"}}); a.Status != http.StatusOK {
		t.Fatalf("a comparison after the client went: %s", a)
	}
	s.alive()
}

// TestExploreAddressRate: a burst of explorer requests from one address is
// answered 429 with Retry-After past --explore-burst, on every route, and
// the answers name the limit.
func TestExploreAddressRate(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--explore-rate", "1", "--explore-burst", "5")
	c := s.client()
	okN, limited := 0, 0
	var first answer
	for i := range 40 {
		var a answer
		if i%2 == 0 {
			a = c.do("POST", "/api/explore/position", map[string]any{"rules": "classic"})
		} else {
			a = c.do("GET", "/api/explore/published", nil)
		}
		switch a.Status {
		case http.StatusOK:
			okN++
		case http.StatusTooManyRequests:
			limited++
			if first.Status == 0 {
				first = a
			}
		default:
			t.Fatalf("explorer request %d: %s", i, a)
		}
	}
	t.Logf("40 explorer requests in a burst: %d answered, %d refused 429", okN, limited)
	if okN < 5 || okN > 10 || limited == 0 {
		t.Fatalf("40 requests at once with a burst of 5: %d answered, %d refused", okN, limited)
	}
	refused(t, "an explorer request past the rate", first, http.StatusTooManyRequests, "")
	if first.Header.Get("Retry-After") == "" || !strings.Contains(string(first.Body), "burst 5") {
		t.Errorf("the 429 neither says when nor names the limit: %s (Retry-After %q)", first, first.Header.Get("Retry-After"))
	}
	s.alive()
}
