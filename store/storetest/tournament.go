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
	must(t, s.CreateTournament(ctx, store.Tournament{ID: "t4", Format: "swiss", Kind: v.Kind(), Rules: v.Rules(), Size: 4, Creator: "p1", Created: time.Unix(300, 0)}))
	under := []store.TournamentStatus{store.TournamentOpen, store.TournamentPlaying}
	for _, c := range []struct {
		status  []store.TournamentStatus
		creator string
		want    int
	}{{under, "", 3}, {under, "p1", 2}, {under, "p2", 1}, {under, "p3", 0}, {nil, "p1", 2}, {[]store.TournamentStatus{store.TournamentPlaying}, "", 1}, {[]store.TournamentStatus{store.TournamentOver}, "", 0}} {
		n, err := s.CountTournaments(ctx, c.status, c.creator)
		must(t, err)
		if n != c.want {
			t.Errorf("CountTournaments(%v, %q) = %d, want %d", c.status, c.creator, n, c.want)
		}
	}
}

// testExpireIdle: a playing (or waiting) table last changed before the
// time expires with its reason and keeps its actions; one changed since,
// an ended one and an expired one do not, and nothing of them changes.
func testExpireIdle(t *testing.T, s store.Store) {
	ctx := context.Background()
	g := play(t, "idle")
	acts := g.Record().Actions
	for _, id := range []string{"idle", "busy"} {
		tb := newTable(t, id, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
		tb.Status, tb.Created = store.Playing, time.Unix(10, 0)
		must(t, s.CreateTable(ctx, tb))
	}
	before := time.Now()
	must(t, s.AppendAction(ctx, "busy", 1, acts[0], nil)) // changed now: not idle at 20
	if got, err := s.Table(ctx, "busy"); err != nil || got.Updated.Before(before.Add(-time.Second)) {
		t.Fatalf("a table's time of last change after an action: %v %v, want about %v", got.Updated, err, before)
	}
	must(t, s.ExpireIdle(ctx, "idle", time.Unix(20, 0), "nobody acted within a day"))
	got, err := s.Table(ctx, "idle")
	must(t, err)
	if got.Status != store.Expired || got.Reason != "nobody acted within a day" {
		t.Fatalf("an idle table after ExpireIdle: status %q reason %q", got.Status, got.Reason)
	}
	wantCode(t, s.ExpireIdle(ctx, "busy", time.Unix(20, 0), "x"), store.ECONFLICT, "expiring a table changed since")
	wantCode(t, s.ExpireIdle(ctx, "idle", time.Now().Add(time.Hour), "again"), store.ECONFLICT, "expiring an expired table")
	wantCode(t, s.ExpireIdle(ctx, "zz", time.Now(), "x"), store.ENOTFOUND, "expiring no table")
	wantCode(t, s.AppendAction(ctx, "idle", 1, acts[0], nil), store.ECONFLICT, "append to an expired table")
	if got, _ := s.Table(ctx, "busy"); got.Status != store.Playing || got.Reason != "" || got.Actions != 1 {
		t.Fatalf("a table refused ExpireIdle changed: %+v", got)
	}
	if got, _ := s.Table(ctx, "idle"); got.Reason != "nobody acted within a day" {
		t.Fatalf("a second ExpireIdle changed the reason: %q", got.Reason)
	}

	// A finished table does not expire.
	h := play(t, "done")
	must(t, s.CreateTable(ctx, newTable(t, "done", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})))
	hs := h.Record().Actions
	for i, e := range hs[:len(hs)-1] {
		must(t, s.AppendAction(ctx, "done", i+1, e, nil))
	}
	must(t, s.AppendAction(ctx, "done", len(hs), hs[len(hs)-1], finish(h, []string{"p1", "bot:steady"})))
	wantCode(t, s.ExpireIdle(ctx, "done", time.Now().Add(time.Hour), "late"), store.ECONFLICT, "expiring a table that is over")
	if got, _ := s.Table(ctx, "done"); got.Status != store.Over {
		t.Fatalf("a finished table after a refused ExpireIdle: %+v", got)
	}
}
