package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

func testTournaments(t *testing.T, s store.Store) {
	ctx := context.Background()
	v := farkle(t)
	tr := store.Tournament{ID: "t1", Name: "Spring <cup>", Format: "swiss", Kind: v.Kind(), Rules: v.Rules(), Pace: "1d", Clock: 24 * time.Hour, Rated: true,
		Size: 8, Start: time.Unix(500, 0), Creator: "p1", Entrants: []store.Entrant{{PlayerID: "p1", Name: "Ann"}, {Bot: "steady", Name: "Steady bot"}}, Created: time.Unix(100, 0)}
	must(t, s.CreateTournament(ctx, tr))
	wantCode(t, s.CreateTournament(ctx, tr), store.ECONFLICT, "the same tournament twice")
	wantCode(t, s.CreateTournament(ctx, store.Tournament{ID: "t2", Rules: v.Rules()}), store.EINVALID, "no format")
	got, err := s.Tournament(ctx, "t1")
	must(t, err)
	if got.Name != tr.Name || got.Format != "swiss" || got.Kind != v.Kind() || !sameJSON(got.Rules, tr.Rules) || got.Pace != "1d" || got.Clock != 24*time.Hour ||
		!got.Rated || got.Size != 8 || !got.Start.Equal(tr.Start) || got.Creator != "p1" || got.Status != store.TournamentOpen || got.Version != 1 ||
		len(got.Entrants) != 2 || got.Entrants[1].Bot != "steady" || !got.Created.Equal(tr.Created) || string(got.State) != "{}" {
		t.Fatalf("tournament %+v", got)
	}
	_, err = s.Tournament(ctx, "nope")
	wantCode(t, err, store.ENOTFOUND, "an unknown tournament")

	got.Status, got.State = store.TournamentPlaying, json.RawMessage(`{"rounds":[[{"a":0,"b":1}]]}`)
	got.Entrants = append(got.Entrants, store.Entrant{PlayerID: "p2", Name: "Bea"})
	ver, err := s.UpdateTournament(ctx, got)
	must(t, err)
	if ver != 2 {
		t.Fatalf("version after one update: %d", ver)
	}
	_, err = s.UpdateTournament(ctx, got) // still at version 1: stale
	wantCode(t, err, store.ECONFLICT, "a stale update")
	_, err = s.UpdateTournament(ctx, store.Tournament{ID: "nope", Version: 1, State: json.RawMessage(`{}`)})
	wantCode(t, err, store.ENOTFOUND, "updating no tournament")
	again, _ := s.Tournament(ctx, "t1")
	if again.Status != store.TournamentPlaying || !sameJSON(again.State, got.State) || len(again.Entrants) != 3 || again.Version != 2 {
		t.Fatalf("after the update: %+v", again)
	}
	must(t, s.CreateTournament(ctx, store.Tournament{ID: "t3", Format: "knockout", Kind: v.Kind(), Rules: v.Rules(), Size: 4, Creator: "p2", Created: time.Unix(200, 0)}))
	list, err := s.Tournaments(ctx, []store.TournamentStatus{store.TournamentOpen}, 10)
	must(t, err)
	if len(list) != 1 || list[0].ID != "t3" {
		t.Fatalf("open tournaments: %+v", list)
	}
	if all, _ := s.Tournaments(ctx, nil, 10); len(all) != 2 {
		t.Fatalf("all tournaments: %d", len(all))
	}
}
