package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solved"
)

// slowRules are the rules of the slow comparison: singles of 10
// and 5, triples a tenth of classic's, to 1,000,000. A game of two experts
// takes about 50,000 turns: a thousand of them took 86 s.
var slowRules = map[string]any{"base": "classic", "scoring": map[string]any{"single": map[string]any{"1": 10, "5": 5},
	"triple": []int{100, 20, 30, 40, 50, 60}}, "game": map[string]any{"target": 1000000}}

// bigSolo are rules whose solo solve needs 23 MiB and a second or more
// (scores of a point, a bank minimum of 20,000 points).
var bigSolo = map[string]any{"base": "classic", "scoring": map[string]any{"single": map[string]any{"1": 1, "5": 1},
	"triple": []int{3, 2, 3, 4, 5, 6}}, "turn": map[string]any{"bank_minimum": 20000}, "game": map[string]any{"target": 1000000}}

// exploreAnswer is an explorer answer: the status, Retry-After and the
// error's code and field when refused.
type exploreAnswer struct {
	Status     int
	RetryAfter string
	Error      string `json:"error"`
	Code       string `json:"code"`
	Field      string `json:"field"`
	Body       []byte
}

func explorePost(t *testing.T, url string, body any) exploreAnswer {
	t.Helper()
	var resp *http.Response
	var err error
	if body == nil {
		resp, err = http.Get(url)
	} else {
		b, _ := json.Marshal(body)
		resp, err = http.Post(url, "application/json", bytes.NewReader(b))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	a := exploreAnswer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Body: buf.Bytes()}
	if resp.StatusCode != http.StatusOK {
		if err := json.Unmarshal(a.Body, &a); err != nil || a.Error == "" {
			t.Fatalf("%s: a refusal that is not a JSON error: %d %s", url, a.Status, a.Body)
		}
	}
	return a
}

func startExplorerWith(t *testing.T, lim server.ExploreLimits) *testServer {
	t.Helper()
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 8, NoWait: true, Memory: 512 << 20, DuelCache: 256 << 20, SoloCache: 64 << 20})
	t.Cleanup(ts.Close)
	return start(t, "", server.Options{Explorer: server.NewExplorerWith(ts, lim)})
}

// workLeft lists the goroutines still in a comparison's simulation or an
// explorer map: after a request's end there must be none.
func workLeft() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "farkle/sim.") || strings.Contains(g, "farkle/explore.") {
			out = append(out, g)
		}
	}
	return out
}

// waitNoWork fails unless the explorer's work goroutines are gone within
// a generous bound (they stop at their next check of the deadline, a game
// or a row of a map later).
func waitNoWork(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for left := workLeft(); len(left) > 0; left = workLeft() {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still at work 10 s after the request ended:\n%s", len(left), strings.Join(left, "\n\n"))
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond) // polling the goroutines
	}
}

// TestExploreCompareCutAtDeadline: with no bound on the simulation, the
// issue's comparison runs into the deadline: it is answered 503 with
// Retry-After and code "timeout", and its simulation stops.
func TestExploreCompareCutAtDeadline(t *testing.T) {
	srv := startExplorerWith(t, server.ExploreLimits{Timeout: 500 * time.Millisecond, SimTurns: -1})
	a := explorePost(t, srv.URL+"/api/explore/compare", map[string]any{"rules": []any{slowRules, "classic"}})
	if a.Status != http.StatusServiceUnavailable || a.Code != "timeout" || a.RetryAfter == "" || !strings.Contains(a.Error, "500ms") {
		t.Fatalf("the slow comparison: %d %q %q (Retry-After %q)", a.Status, a.Code, a.Error, a.RetryAfter)
	}
	waitNoWork(t)
}

// TestExploreCompareBounded: with the default bound, the issue's
// comparison is answered: the rule set whose games are too long to
// simulate says so and plays none, classic at 1,000,000 plays fewer games
// than asked and says why, classic at its target plays all of them.
func TestExploreCompareBounded(t *testing.T) {
	srv := startExplorerWith(t, server.ExploreLimits{})
	big := map[string]any{"base": "classic", "game": map[string]any{"target": 1000000}}
	a := explorePost(t, srv.URL+"/api/explore/compare", map[string]any{"rules": []any{slowRules, big, "classic"}})
	if a.Status != http.StatusOK {
		t.Fatalf("the bounded comparison: %d %s", a.Status, a.Body)
	}
	var st []explore.RuleStats
	if err := json.Unmarshal(a.Body, &st); err != nil || len(st) != 3 {
		t.Fatalf("%v: %s", err, a.Body)
	}
	if st[0].Games != 0 || !strings.Contains(st[0].SimNote, "no games simulated") {
		t.Errorf("the slow rules: %d games, note %q", st[0].Games, st[0].SimNote)
	}
	if st[1].Games < explore.MinGames || st[1].Games >= 1000 || !strings.Contains(st[1].SimNote, "games simulated, not 1000") || st[1].MeanTurns < 1000 {
		t.Errorf("classic to 1,000,000: %d games, %.0f turns, note %q", st[1].Games, st[1].MeanTurns, st[1].SimNote)
	}
	// The games played stay within the bound (the estimate is close).
	if played := float64(st[1].Games) * 2 * st[1].MeanTurns; played > 1.3*server.DefaultExploreSimTurns {
		t.Errorf("classic to 1,000,000: %d games of %.0f turns, %.0f turns in all, bound %d", st[1].Games, 2*st[1].MeanTurns, played, server.DefaultExploreSimTurns)
	}
	if st[2].Games != 1000 || st[2].SimNote != "" {
		t.Errorf("classic: %d games, note %q", st[2].Games, st[2].SimNote)
	}
	waitNoWork(t)
}

// TestExploreRateLimit: past the burst of one client address, every
// explorer route is answered 429 with Retry-After and the limit in words.
func TestExploreRateLimit(t *testing.T) {
	srv := startExplorerWith(t, server.ExploreLimits{AddressRate: 0.01, AddressBurst: 3})
	for i := range 3 {
		if a := explorePost(t, srv.URL+"/api/explore/position", map[string]any{"rules": "classic"}); a.Status != http.StatusOK {
			t.Fatalf("request %d within the burst: %d %s", i, a.Status, a.Body)
		}
	}
	for _, route := range []struct {
		path string
		body any
	}{
		{"/api/explore/position", map[string]any{"rules": "classic"}},
		{"/api/explore/map", map[string]any{"rules": "classic"}},
		{"/api/explore/compare", map[string]any{"rules": []any{"classic", "cardgames"}}},
		{"/api/explore/published", nil},
	} {
		a := explorePost(t, srv.URL+route.path, route.body)
		if a.Status != http.StatusTooManyRequests || a.RetryAfter == "" || a.Code != "rate_limited" || !strings.Contains(a.Error, "burst 3") {
			t.Errorf("%s past the burst: %d %q %q (Retry-After %q)", route.path, a.Status, a.Code, a.Error, a.RetryAfter)
		}
	}
}

// TestExploreFieldBounds: requests beyond a bound are refused before any
// work, 400 naming the field and the bound.
func TestExploreFieldBounds(t *testing.T) {
	srv := startExplorerWith(t, server.ExploreLimits{})
	for _, c := range []struct {
		path  string
		body  any
		field string
		bound string
	}{
		{"/api/explore/map", map[string]any{"cells": 61}, "cells", "60"},
		{"/api/explore/map", map[string]any{"turn_max": 6001}, "turn_max", "6000"},
		{"/api/explore/map", map[string]any{"turn_max": 6000, "turn_step": 10}, "turn_step", "200"},
		{"/api/explore/position", map[string]any{"throw": []int{1, 2, 3, 4, 5, 6, 1}}, "throw", "6"},
		{"/api/explore/position", map[string]any{"throw": []int{7}}, "throw", "1 to 6"},
		{"/api/explore/compare", map[string]any{"rules": []any{"classic", "classic", "classic", "classic", "classic"}}, "rules", "four"},
		{"/api/explore/compare", map[string]any{"rules": []any{"classic", map[string]any{"base": "classic", "game": map[string]any{"target": 2000000}}}}, "game.target", "1000000"},
		{"/api/explore/map", map[string]any{"rules": bigSolo}, "rules", "16.0 MiB"},
		{"/api/explore/position", map[string]any{"rules": bigSolo}, "rules", "16.0 MiB"},
		{"/api/explore/compare", map[string]any{"rules": []any{"classic", bigSolo}}, "rules[1]", "16.0 MiB"},
	} {
		a := explorePost(t, srv.URL+c.path, c.body)
		if a.Status != http.StatusBadRequest || a.Field != c.field || !strings.Contains(a.Error, c.bound) {
			t.Errorf("%s %v: %d field %q %q; want 400 naming %s and %s", c.path, c.body, a.Status, a.Field, a.Error, c.field, c.bound)
		}
	}
}
