package server_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
)

// TestDragonTableRecordReplayAndStats: a finished Dragon Farkle table has
// what a finished ordinary one has. Its record is a game.Record that
// verifies and ends as the table did; its replay has a step for every
// action of the record, each with the game after it (the last one the
// final soldiers and winners) and the server's descriptions of its events
// as the log; its seats count in the players' stats and the leaderboard;
// and the server's Advisor analyses its record.
func TestDragonTableRecordReplayAndStats(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{Cast: advising(pointsAdvisor{}), Analyzer: pointsAdvisor{}})
	ctx := ctxT(t, time.Minute)
	end := dragonBotGame(t, ctx, ts)
	c := host(t, ts)

	rec, err := game.ParseRecord(recordData(t, c, end.ID))
	if err != nil {
		t.Fatal(err)
	}
	final, steps, err := game.Verify(rec)
	if err != nil || rec.Kind != game.Dragon {
		t.Fatalf("record of kind %q does not verify: %v", rec.Kind, err)
	}
	if rec.Seed != end.Seed || len(rec.Actions) != end.Actions || !reflect.DeepEqual(final.Winners(), end.Winners) {
		t.Fatalf("record: seed %s, %d actions, winners %v; the table: %s, %d, %v", rec.Seed, len(rec.Actions), final.Winners(), end.Seed, end.Actions, end.Winners)
	}

	var rp struct {
		Table struct {
			Kind   string `json:"kind"`
			Scores []int  `json:"scores"`
		} `json:"table"`
		Start *struct {
			Version int `json:"version"`
		} `json:"start"`
		Steps []struct {
			Action json.RawMessage `json:"action"`
			Log    []struct {
				Version int    `json:"version"`
				Text    string `json:"text"`
			} `json:"log"`
			Dragon struct {
				Version int   `json:"version"`
				Winners []int `json:"winners"`
				Players []struct {
					Soldiers int `json:"soldiers"`
				} `json:"players"`
			} `json:"dragon"`
		} `json:"steps"`
	}
	if err := c.Do(ctx, "GET", "/api/tables/"+end.ID+"/replay", nil, &rp); err != nil {
		t.Fatal(err)
	}
	if rp.Table.Kind != "dragon" || rp.Start == nil || rp.Start.Version != 0 || len(rp.Steps) != len(rec.Actions) {
		t.Fatalf("replay of kind %q with %d steps (start %+v), want dragon with %d", rp.Table.Kind, len(rp.Steps), rp.Start, len(rec.Actions))
	}
	v, _ := rec.Variant()
	names := rec.Players
	for i, st := range rp.Steps {
		if !game.SameEntry(st.Action, rec.Actions[i]) || st.Dragon.Version != i+1 {
			t.Fatalf("step %d: action %s version %d; the record's action %s", i+1, st.Action, st.Dragon.Version, rec.Actions[i])
		}
		var want []string
		for _, e := range dragon.ViewEvents(dragonEvents(steps[i].Events), dragon.Spectator) {
			want = append(want, v.Describe(lang.Get(lang.Default), e, names))
		}
		var got []string
		for _, l := range st.Log {
			if l.Version != i+1 {
				t.Fatalf("step %d has a log line of version %d", i+1, l.Version)
			}
			got = append(got, l.Text)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("step %d log %q, want %q", i+1, got, want)
		}
	}
	last := rp.Steps[len(rp.Steps)-1].Dragon
	for i, p := range last.Players {
		if p.Soldiers != final.Scores()[i] || p.Soldiers != rp.Table.Scores[i] {
			t.Fatalf("the replay ends with seat %d at %d soldiers; the game at %d, the table at %v", i, p.Soldiers, final.Scores()[i], rp.Table.Scores)
		}
	}
	if !reflect.DeepEqual(last.Winners, final.Winners()) {
		t.Fatalf("the replay ends with winners %v, the game with %v", last.Winners, final.Winners())
	}

	var an server.Analysis
	if err := c.Do(ctx, "GET", "/api/tables/"+end.ID+"/analysis", nil, &an); err != nil {
		t.Fatal(err)
	}
	for i, p := range an.Players {
		n := 0
		for _, st := range steps {
			if st.Seat == i {
				n++
			}
		}
		if p.Decisions != n || p.Name != names[i] {
			t.Fatalf("analysis of seat %d: %+v; the record has %d actions of %s", i, p, n, names[i])
		}
	}
	if len(an.Players) != len(names) {
		t.Fatalf("analysis of %d players, want %d", len(an.Players), len(names))
	}

	var lb []struct {
		Player string `json:"player"`
		Games  int    `json:"games"`
		Wins   int    `json:"wins"`
	}
	if err := c.Do(ctx, "GET", "/api/leaderboard", nil, &lb); err != nil {
		t.Fatal(err)
	}
	games, wins := map[string]int{}, 0
	for _, r := range lb {
		games[r.Player] = r.Games
		wins += r.Wins
	}
	if games["bot:smart"] != 1 || games["bot:simple"] != 1 || wins != len(final.Winners()) {
		t.Fatalf("leaderboard %+v: want one game for each Dragon Farkle bot and %d wins", lb, len(final.Winners()))
	}
}

func dragonEvents(evs []game.Event) []dragon.Event {
	out := make([]dragon.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(dragon.Event)
	}
	return out
}
