package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// testLocalGames: a store that imports (store.Importer) keeps a local
// game whole and over in one write, marked local: read back as it was, its
// record final, counted by Local, in no stats, and not stored twice.
func testLocalGames(t *testing.T, s store.Store) {
	imp, ok := s.(store.Importer)
	if !ok {
		t.Skip("the store does not import tables")
	}
	ctx := context.Background()
	r := rules.MustPreset("classic")
	r.Game.MaxTurns = 2
	v, err := game.NewFarkle(r)
	must(t, err)
	var seed dice.Seed
	seed[0] = 9
	p, _, err := game.Start(v, []string{"Ann", "Steady bot"}, seed)
	must(t, err)
	for !p.Game().Over() {
		seat := p.Game().ToAct()
		_, err := p.Do(seat, p.Game().Legal(seat)[0])
		must(t, err)
	}
	rec := p.Record()
	rj, err := json.Marshal(rec)
	must(t, err)
	tb := tableOf(v, "local1", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Steady bot", Bot: "steady"})
	tb.Seed, tb.Status, tb.Creator, tb.Local = seed, store.Over, "p1", true
	tb.Actions, tb.Winners, tb.Scores = len(rec.Actions), p.Game().Winners(), p.Game().Scores()
	tb.Created, tb.Updated = time.Unix(100, 0), time.Unix(200, 0)
	must(t, imp.ImportTable(ctx, store.TableData{Table: tb, Actions: rec.Actions, Record: rj}))
	wantCode(t, imp.ImportTable(ctx, store.TableData{Table: tb, Actions: rec.Actions, Record: rj}), store.ECONFLICT, "the same local game again")

	ordinary := newTable(t, "ord1", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
	ordinary.Creator = "p1"
	must(t, s.CreateTable(ctx, ordinary))

	got, err := s.Table(ctx, "local1")
	must(t, err)
	if !got.Local || got.Status != store.Over || !got.Updated.Equal(tb.Updated) || got.Actions != len(rec.Actions) || got.Seed != seed || got.Creator != "p1" || got.Rated {
		t.Fatalf("local game read back as %+v", got)
	}
	if o, err := s.Table(ctx, "ord1"); err != nil || o.Local {
		t.Fatalf("an ordinary table reads as local: %+v %v", o, err)
	}
	acts, err := s.Actions(ctx, "local1")
	must(t, err)
	if len(acts) != len(rec.Actions) || string(acts[0]) != string(rec.Actions[0]) {
		t.Fatalf("actions %s", acts)
	}
	fr, err := s.FinalRecord(ctx, "local1")
	must(t, err)
	if _, _, err := game.Verify(fr); err != nil {
		t.Fatalf("the stored record: %v", err)
	}
	for _, c := range []struct {
		f    store.TableFilter
		want int
	}{
		{store.TableFilter{Creator: "p1", Local: true}, 1},
		{store.TableFilter{Creator: "p1"}, 2},
		{store.TableFilter{PlayerID: "p1", Status: []store.Status{store.Over}, Local: true}, 1},
		{store.TableFilter{Creator: "p2", Local: true}, 0},
	} {
		n, err := s.CountTables(ctx, c.f)
		must(t, err)
		if n != c.want {
			t.Errorf("CountTables(%+v) = %d, want %d", c.f, n, c.want)
		}
	}
	st, err := s.Stats(ctx, "p1")
	must(t, err)
	if st.Games != 0 {
		t.Fatalf("a local game counts in the stats: %+v", st)
	}
}

// testImportLong: a store that imports keeps a long table's actions all
// and in order (a store may write them many to a statement: more than one
// such statement's worth here, and not a whole number of them).
func testImportLong(t *testing.T, s store.Store) {
	imp, ok := s.(store.Importer)
	if !ok {
		t.Skip("the store does not import tables")
	}
	ctx := context.Background()
	tb := newTable(t, "long", store.Seat{Name: "Ann", Bot: "steady"})
	tb.Status = store.Playing
	tb.Created, tb.Updated = time.Unix(100, 0), time.Unix(200, 0)
	const n = 1234
	actions := make([]json.RawMessage, n)
	for i := range actions {
		actions[i] = json.RawMessage(fmt.Sprintf(`{"n":%d}`, i+1))
	}
	tb.Actions = n
	must(t, imp.ImportTable(ctx, store.TableData{Table: tb, Actions: actions}))
	got, err := s.Actions(ctx, "long")
	must(t, err)
	if len(got) != n {
		t.Fatalf("%d actions read back, want %d", len(got), n)
	}
	for i, a := range got {
		if string(a) != string(actions[i]) {
			t.Fatalf("action %d read back as %s, want %s", i+1, a, actions[i])
		}
	}
	// The next action follows them.
	must(t, s.AppendAction(ctx, "long", n+1, json.RawMessage(`{"n":1235}`), nil))
}
