package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// checkHeld fails unless table id is in memory holding at most most events
// lists and record entries.
func checkHeld(t *testing.T, ts *testServer, id string, most int) (events, entries int) {
	t.Helper()
	events, entries, ok := ts.Srv.TableHistory(id)
	if !ok {
		t.Fatalf("table %s is not in memory", id)
	}
	if events > most || entries > most {
		t.Fatalf("table %s holds %d events lists and %d record entries in memory, more than %d", id, events, entries, most)
	}
	return events, entries
}

// checkWholeRecord fails unless the table's record (downloaded, its
// entries partly from the store) has every action and, with the seed the
// store keeps, replays to the version and scores the player saw.
func checkWholeRecord(t *testing.T, ctx context.Context, ts *testServer, c *wsclient.Client, id string, last *wsclient.State) *game.Record {
	t.Helper()
	rec, err := game.ParseRecord(recordData(t, c, id))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Actions) != last.Version {
		t.Fatalf("the record has %d actions; the game is at version %d", len(rec.Actions), last.Version)
	}
	tb, err := ts.DB.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := game.Replay(rec, tb.Seed)
	if err != nil {
		t.Fatalf("the record does not replay with the table's seed: %v", err)
	}
	for i, s := range g.Scores() {
		if s != last.Players[i].Score {
			t.Fatalf("the record replays to scores %v; the player saw %+v", g.Scores(), last.Players)
		}
	}
	return rec
}

// TestLongGameKeepsABoundedHistory: a game that does not end (no cap on
// rounds, a target of a million) keeps only the tail of its history in
// memory however long it runs, before a restart and after; the record
// and the replay still have every action (from the store), and a watcher
// joining late gets the log of the last actions, numbered as played.
func TestLongGameKeepsABoundedHistory(t *testing.T) {
	t.Parallel()
	const tail = 8
	opt := server.Options{MaxTurns: -1, HistoryTail: tail}
	path := filepath.Join(t.TempDir(), "farkle.db")
	ts := start(t, path, opt)
	ctx := ctxT(t, 3*time.Minute)
	p, tb := soloTable(t, ctx, ts, longSolo)
	const actions = 40 * tail
	for range actions {
		if _, err := step(p, ctx); err != nil {
			t.Fatal(err)
		}
		checkHeld(t, ts, tb.ID, 2*tail)
	}
	p.Close()
	if p.Last.Version != actions || p.Last.Phase == "over" {
		t.Fatalf("the game is at version %d (%s), want %d and going on", p.Last.Version, p.Last.Phase, actions)
	}
	checkWholeRecord(t, ctx, ts, p.Client, tb.ID, p.Last)
	var replay struct {
		Steps []json.RawMessage `json:"steps"`
	}
	if err := p.Do(ctx, http.MethodGet, "/api/tables/"+tb.ID+"/replay", nil, &replay); err != nil {
		t.Fatal(err)
	}
	if len(replay.Steps) != actions {
		t.Fatalf("the replay has %d steps, want %d", len(replay.Steps), actions)
	}
	// A watcher joining now: the log of the last actions held, each line
	// with the version its action brought, up to the game's.
	checkLateLog(t, ctx, ts.URL, tb.ID, actions, 2*tail)

	// After a restart the table is loaded from the store, and holds the
	// tail only.
	ts.Stop()
	ts2 := start(t, path, opt)
	q := &player{Client: client2(p, ts2.URL), Seat: -1}
	if err := q.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, err := q.Read(ctx); err != nil {
		t.Fatal(err)
	}
	checkHeld(t, ts2, tb.ID, 2*tail)
	for range 3 * tail {
		if _, err := step(q, ctx); err != nil {
			t.Fatal(err)
		}
		checkHeld(t, ts2, tb.ID, 2*tail)
	}
	checkWholeRecord(t, ctx, ts2, q.Client, tb.ID, q.Last)
	checkLateLog(t, ctx, ts2.URL, tb.ID, actions+3*tail, 2*tail)
}

// checkLateLog connects a watcher to the table at version and fails unless
// its welcome's log has lines of at most the last most actions, in order,
// ending with the action that brought the game to version.
func checkLateLog(t *testing.T, ctx context.Context, base, id string, version, most int) {
	t.Helper()
	w := wsclient.New(base)
	if err := w.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	m, err := w.Next(ctx)
	if err != nil || m.Type != "welcome" {
		t.Fatalf("welcome: %v %+v", err, m)
	}
	var welcome struct {
		Log []struct {
			Version int `json:"version"`
		} `json:"log"`
	}
	if err := json.Unmarshal(m.Raw, &welcome); err != nil {
		t.Fatal(err)
	}
	var versions []int
	for _, l := range welcome.Log {
		versions = append(versions, l.Version)
	}
	if len(versions) == 0 || !slices.IsSorted(versions) || versions[len(versions)-1] != version || versions[0] <= version-most {
		t.Fatalf("a late watcher's log has lines of versions %v; want the last actions' up to %d (more than %d)", versions, version, version-most)
	}
}

// TestGameEndingAfterItsTailKeepsTheWholeRecord: a game whose first
// actions memory no longer holds ends with its whole record stored (the
// results read the rest from the store), and its record and replay are
// whole when asked for after.
func TestGameEndingAfterItsTailKeepsTheWholeRecord(t *testing.T) {
	t.Parallel()
	const tail = 2
	ts := start(t, "", server.Options{HistoryTail: tail})
	ctx := ctxT(t, 2*time.Minute)
	p, tb := soloTable(t, ctx, ts, shortRules)
	if err := p.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	if p.Last.Version <= 2*tail {
		t.Fatalf("the game ended at version %d, before its tail was forgotten", p.Last.Version)
	}
	stored, err := ts.DB.FinalRecord(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.Actions) != p.Last.Version {
		t.Fatalf("the stored final record has %d actions; the game ended at version %d", len(stored.Actions), p.Last.Version)
	}
	rec := checkWholeRecord(t, ctx, ts, p.Client, tb.ID, p.Last)
	if g, _, err := game.Verify(rec); err != nil || !g.Over() {
		t.Fatalf("the downloaded record of the finished game: over %v, %v", g != nil && g.Over(), err)
	}
	for i := range rec.Actions {
		if string(rec.Actions[i]) != string(stored.Actions[i]) {
			t.Fatalf("action %d: downloaded %s, stored %s", i+1, rec.Actions[i], stored.Actions[i])
		}
	}
}
