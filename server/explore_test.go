package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solved"
)

// exploreCall posts body (or GETs with a nil body) to the explorer API and
// decodes the answer into out; it returns the status.
func exploreCall(t *testing.T, url string, body, out any) int {
	t.Helper()
	a := explorePost(t, url, body)
	if err := json.Unmarshal(a.Body, out); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return a.Status
}

type mapAnswer struct {
	Rules string `json:"rules"`
	Duel  struct {
		State  string `json:"state"`
		Reason string `json:"reason"`
	} `json:"duel"`
	Solo   *explore.SoloThresholds `json:"solo"`
	WinMap *explore.WinMap         `json:"win_map"`
	Cell   *struct {
		Win  float64 `json:"win"`
		Comp int     `json:"comp"`
	} `json:"cell"`
	TurnMap *explore.TurnMap `json:"turn_map"`
	Error   string           `json:"error"`
}

func TestExploreAPIPreparesThenAnswers(t *testing.T) {
	t.Parallel()
	lim := solved.Limits{Solves: 1, Queue: 8, NoWait: true}
	ts := solved.NewLimitedTables("", lim)
	t.Cleanup(ts.Close)
	srv := start(t, "", server.Options{Explorer: server.NewExplorer(ts)})
	r := exploreRules()
	req := map[string]any{"rules": r, "me": 500, "them": 1000, "cells": 10}
	var first mapAnswer
	if code := exploreCall(t, srv.URL+"/api/explore/map", req, &first); code != http.StatusOK {
		t.Fatalf("status %d: %s", code, first.Error)
	}
	if first.Duel.State != "preparing" || first.WinMap != nil || first.Solo == nil || first.Solo.Rules != "small" {
		t.Fatalf("first answer: %+v", first)
	}
	// Wait for the table the first request started (through the same
	// scheduler), then ask again.
	want, err := ts.Duel(r)
	if err != nil {
		t.Fatal(err)
	}
	var m mapAnswer
	if code := exploreCall(t, srv.URL+"/api/explore/map", req, &m); code != http.StatusOK || m.Duel.State != "ready" || m.WinMap == nil {
		t.Fatalf("status %d: %+v", code, m)
	}
	if st := ts.Stats(); st.DuelSolves != 1 {
		t.Errorf("%d duel solves: the explorer must share the scheduler's one", st.DuelSolves)
	}
	for i, me := range m.WinMap.Scores {
		for j, them := range m.WinMap.Scores {
			p, _ := want.WinProbability(me, them, 0, 0)
			if p != m.WinMap.Win[i][j] {
				t.Fatalf("%d-%d: %v, table %v", me, them, m.WinMap.Win[i][j], p)
			}
		}
	}
	p, _ := want.WinProbability(500, 1000, 0, 0)
	comp, _, _ := explore.Compensation(want, 500, 1000)
	if m.Cell == nil || m.Cell.Win != p || m.Cell.Comp != comp {
		t.Errorf("cell %+v, want %v and %d", m.Cell, p, comp)
	}
	if m.TurnMap == nil || m.TurnMap.Me != 500 || len(m.TurnMap.Dice) != 6 {
		t.Errorf("turn map %+v", m.TurnMap)
	}

	// Positions: every choice, the bots, and bad input refused.
	var pos struct {
		Measure string           `json:"measure"`
		Options []explore.Option `json:"options"`
		Bots    []explore.Pick   `json:"bots"`
		Error   string           `json:"error"`
	}
	if code := exploreCall(t, srv.URL+"/api/explore/position", map[string]any{"rules": r, "me": 500, "them": 1000, "turn": 0, "throw": []int{1, 1, 5, 2, 3, 4}}, &pos); code != http.StatusOK {
		t.Fatalf("position: %d %s", code, pos.Error)
	}
	if pos.Measure != "win probability" || len(pos.Options) < 2 || !pos.Options[0].Best || len(pos.Bots) != len(bot.LevelNames()) {
		t.Errorf("position: %+v", pos)
	}
	for _, bad := range []map[string]any{
		{"rules": r, "me": 510, "them": 0},
		{"rules": r, "throw": []int{7}},
		{"rules": r, "throw": []int{1, 2, 3, 4, 5, 6, 1}},
		{"rules": "no-such-preset"},
		{"rules": r, "dice": 9},
	} {
		var e struct{ Error string }
		if code := exploreCall(t, srv.URL+"/api/explore/position", bad, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("%v: status %d %q, want 400 with the reason", bad, code, e.Error)
		}
	}
	for _, bad := range []map[string]any{{"rules": r, "me": 510}, {"rules": r, "cells": 1000}, {"rules": r, "turn_step": 1}} {
		var e struct{ Error string }
		if code := exploreCall(t, srv.URL+"/api/explore/map", bad, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("map %v: status %d %q, want 400 with the reason", bad, code, e.Error)
		}
	}

	// Two rule sets side by side, once both tables are in memory.
	r2 := exploreRules()
	r2.Name, r2.Game.Ending = "small-immediate", rules.EndImmediate
	t2, err := ts.Duel(r2)
	if err != nil {
		t.Fatal(err)
	}
	var stats []explore.RuleStats
	if code := exploreCall(t, srv.URL+"/api/explore/compare", map[string]any{"rules": []any{r, r2}}, &stats); code != http.StatusOK || len(stats) != 2 {
		t.Fatalf("compare: %d %+v", code, stats)
	}
	for i, tb := range []interface{ FairCompensation() (int, float64) }{want, t2} {
		fair, _ := tb.FairCompensation()
		if !stats[i].Duel || stats[i].Fair != fair || stats[i].Games == 0 || stats[i].MeanTurns <= 0 {
			t.Errorf("compare %s: %+v, fair %d", stats[i].Name, stats[i], fair)
		}
	}
	var e struct{ Error string }
	if code := exploreCall(t, srv.URL+"/api/explore/compare", map[string]any{"rules": []any{r}}, &e); code != http.StatusBadRequest {
		t.Errorf("one rule set compared: %d", code)
	}
}

func TestExploreAPITooLarge(t *testing.T) {
	// Duel tables may keep 1 KiB: every one is too large, and the page says so.
	srv := startExplorer(t, solved.Limits{Solves: 1, Queue: 8, DuelCache: 1 << 10})
	var m mapAnswer
	if code := exploreCall(t, srv.URL+"/api/explore/map", map[string]any{"rules": exploreRules()}, &m); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if m.Duel.State != "unavailable" || !strings.Contains(m.Duel.Reason, "table") || m.WinMap != nil || m.Solo == nil {
		t.Errorf("%+v", m)
	}
	var pub struct {
		Results []explore.Result `json:"results"`
	}
	if code := exploreCall(t, srv.URL+"/api/explore/published", nil, &pub); code != http.StatusOK || len(pub.Results) != 3 {
		t.Fatalf("published: %d %+v", code, pub)
	}
	if r := pub.Results[0]; r.Agrees != "" || r.Published != "200 points" || r.Ours == "" {
		t.Errorf("published without a table: %+v", r)
	}
}

func TestExploreAPIWithoutExplorer(t *testing.T) {
	srv := start(t, "", server.Options{})
	var e struct{ Error string }
	if code := exploreCall(t, srv.URL+"/api/explore/map", map[string]any{}, &e); code != http.StatusServiceUnavailable || e.Error == "" {
		t.Errorf("status %d %q", code, e.Error)
	}
	resp, err := http.Get(srv.URL + "/explore")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("/explore: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
