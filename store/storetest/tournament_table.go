package storetest

import (
	"context"
	"testing"

	"github.com/farkle/farkle/store"
)

// testTableTournament: a table created for a tournament reads back the
// tournament's ID, from Table and from a listing; a table of no
// tournament reads back none.
func testTableTournament(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "h1"}))
	tour := newTable(t, "tg", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Steady bot", Bot: "steady"})
	tour.Status, tour.Tournament = store.Playing, "tour-42"
	must(t, s.CreateTable(ctx, tour))
	plain := newTable(t, "pg", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Steady bot", Bot: "steady"})
	must(t, s.CreateTable(ctx, plain))
	for id, want := range map[string]string{"tg": "tour-42", "pg": ""} {
		got, err := s.Table(ctx, id)
		must(t, err)
		if got.Tournament != want {
			t.Errorf("Table(%s).Tournament = %q, want %q", id, got.Tournament, want)
		}
	}
	list, err := s.Tables(ctx, store.TableFilter{PlayerID: "p1"})
	must(t, err)
	seen := 0
	for _, tb := range list {
		if want := map[string]string{"tg": "tour-42", "pg": ""}[tb.ID]; tb.Tournament != want {
			t.Errorf("listed %s: Tournament %q, want %q", tb.ID, tb.Tournament, want)
		}
		seen++
	}
	if seen != 2 {
		t.Errorf("listed %d tables, want 2: %+v", seen, list)
	}
}
