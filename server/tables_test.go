package server_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// statusErr returns err's HTTP status and body, failing without one.
func statusErr(t testing.TB, err error) (int, string) {
	t.Helper()
	var se *wsclient.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("want an HTTP error, got %v", err)
	}
	return se.Status, se.Body
}

// panickyPreparer is a panicky bot that also panics when prepared.
type panickyPreparer struct{ panicky }

func (panickyPreparer) Prepare() error { panic("test: preparation breaks") }

func TestPanickingBotFailsOnlyItsTable(t *testing.T) {
	release := make(chan struct{})
	ts := start(t, "", server.Options{MaxBotTables: 5, Cast: botsCast(func(level string, r rules.Rules) (bot.Strategy, error) {
		switch level {
		case "expert":
			return panicky{Release: release}, nil
		case "perfect":
			return panickyPreparer{panicky{Release: release}}, nil
		}
		return bot.New(level, r)
	})})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	broken, err := c.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "expert"}, map[string]string{"type": "bot", "level": "expert"})
	if err != nil {
		t.Fatal(err)
	}
	w := wsclient.New(ts.URL)
	if err := w.Connect(ctx, broken.ID); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	waitFor(t, ctx, w, "welcome", func(m wsclient.Msg) bool { return m.Type == "welcome" })
	close(release) // the bot may now panic, with a watcher connected
	m := waitFor(t, ctx, w, "failed", func(m wsclient.Msg) bool { return m.Type == "failed" })
	if m.Table.Status != "failed" || !strings.Contains(string(m.Raw), "internal error in the bot") {
		t.Fatalf("failed message: %s", m.Raw)
	}

	prep, err := c.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "perfect"})
	if err != nil {
		t.Fatal(err)
	}
	good, err := c.CreateTable(ctx, shortRules, bots2...)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{broken.ID, prep.ID} {
		deadline := time.Now().Add(10 * time.Second)
		for {
			info := getInfo(t, ctx, c, id)
			if info.Status == "failed" {
				if info.Reason == "" || info.Seed == "" {
					t.Fatalf("failed table %s: %+v (want a reason and the seed)", id, info)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("table %s not failed: %+v", id, info)
			}
			time.Sleep(10 * time.Millisecond) // polling the API for a state change, with a deadline
		}
		st, err := ts.DB.Table(ctx, id)
		if err != nil || st.Status != store.Failed || st.Reason == "" {
			t.Fatalf("stored table %s: %+v, %v (want failed with a reason)", id, st, err)
		}
	}
	if info := getInfo(t, ctx, c, prep.ID); !strings.Contains(info.Reason, "bot preparation") {
		t.Fatalf("reason %q does not name the bot preparation", info.Reason)
	}
	recordData(t, c, broken.ID) // still downloadable
	var lobby []tableInfo
	if err := c.Do(ctx, "GET", "/api/tables?status=failed", nil, &lobby); err != nil || len(lobby) != 2 {
		t.Fatalf("failed tables in the lobby: %+v, %v", lobby, err)
	}
	// The server goes on: the bots-only table plays to the end.
	p := &player{Client: wsclient.New(ts.URL), Seat: -1}
	if err := p.Connect(ctx, good.ID); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := record.Verify(downloadRecord(t, c, good.ID)); err != nil {
		t.Fatal(err)
	}
}

// rawDB opens the SQLite file at path beside the store, for tests that
// write rows the store would refuse.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestTablesThatCannotLoadFailAtStart(t *testing.T) {
	path := t.TempDir() + "/farkle.db"
	ts := start(t, path, server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)
	p := newPlayer(t, ts, "Ann")
	waiting := []map[string]string{{"type": "me"}, {"type": "human"}}
	var ids []string
	for range 4 {
		tb, err := p.CreateTable(ctx, shortRules, waiting...)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tb.ID)
	}
	good, badRules, badBot, badActions := ids[0], ids[1], ids[2], ids[3]
	// badActions gets a second player and an action.
	q := newPlayer(t, ts, "Bob")
	if _, err := q.Join(ctx, badActions); err != nil {
		t.Fatal(err)
	}
	pp := &player{Client: p.Client, Seat: -1}
	if err := pp.Connect(ctx, badActions); err != nil {
		t.Fatal(err)
	}
	qq := &player{Client: q.Client, Seat: -1}
	if err := qq.Connect(ctx, badActions); err != nil {
		t.Fatal(err)
	}
	for pp.Last == nil {
		if _, err := pp.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	acting := pp
	if pp.Last.Actor != pp.Seat {
		acting = qq
		for qq.Last == nil {
			if _, err := qq.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	typ, d := choose(acting.Last)
	if err := acting.Act(ctx, acting.Last.Version, typ, d); err != nil {
		t.Fatal(err)
	}
	for acting.Last.Version == 0 {
		if _, err := acting.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	pp.Close()
	qq.Close()
	ts.Stop()

	db := rawDB(t, path)
	for _, stmt := range []struct {
		q  string
		id string
	}{
		{`UPDATE tables SET rules = json_set(rules, '$.game.target', 0) WHERE id = ?`, badRules}, // refused by any version of the rules
		{`UPDATE tables SET seats = '[{"name":"Ann","player_id":"x"},{"name":"Bot","bot":"no-such-level"}]', status = 'playing' WHERE id = ?`, badBot},
		{`UPDATE actions SET entry = '{"type":"bank","player":7}' WHERE table_id = ?`, badActions},
	} {
		if res, err := db.Exec(stmt.q, stmt.id); err != nil {
			t.Fatal(err)
		} else if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("%s: %d rows", stmt.q, n)
		}
	}
	db.Close()

	ts2 := start(t, path, server.Options{BotDelay: time.Hour}) // fails the test if New fails
	c := wsclient.New(ts2.URL)
	for _, id := range []string{badRules, badBot, badActions} {
		st, err := ts2.DB.Table(ctx, id)
		if err != nil || st.Status != store.Failed || !strings.Contains(st.Reason, "could not be resumed") {
			t.Fatalf("stored table %s: %q %q, %v (want failed with a reason)", id, st.Status, st.Reason, err)
		}
		if info := getInfo(t, ctx, c, id); info.Status != "failed" || info.Reason != st.Reason {
			t.Fatalf("table %s: %+v", id, info)
		}
	}
	for id, want := range map[string]string{badRules: "game.target", badBot: "no-such-level", badActions: "do not resume"} {
		if st, _ := ts2.DB.Table(ctx, id); !strings.Contains(st.Reason, want) {
			t.Errorf("reason %q does not say %q", st.Reason, want)
		}
	}
	if info := getInfo(t, ctx, c, good); info.Status != "waiting" {
		t.Fatalf("the good table: %+v", info)
	}
	rec, err := game.ParseRecord(recordData(t, c, badActions))
	if err != nil || len(rec.Actions) != 1 || rec.Seed == "" {
		t.Fatalf("record of the failed table: %+v, %v (want its stored action and the seed)", rec, err)
	}
	// The good table can still be joined.
	r := newPlayer(t, ts2, "Cy")
	if _, err := r.Join(ctx, good); err != nil {
		t.Fatal(err)
	}
}

func TestQuotasOnTables(t *testing.T) {
	ts := start(t, "", server.Options{MaxOpenTables: 3, MaxBotTables: 1, BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)

	_, err := wsclient.New(ts.URL).CreateTable(ctx, shortRules, bots2...)
	if status, body := statusErr(t, err); status != 401 || !strings.Contains(body, `"code":"no_player"`) {
		t.Fatalf("table without a player: %d %s", status, body)
	}

	c := host(t, ts)
	if _, err := c.CreateTable(ctx, shortRules, bots2...); err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(ctx, shortRules, bots2...)
	if status, body := statusErr(t, err); status != 429 || !strings.Contains(body, "max-bot-tables 1") || !strings.Contains(body, `"code":"quota"`) {
		t.Fatalf("second bots-only table: %d %s", status, body)
	}
	for range 2 {
		if _, err := c.CreateTable(ctx, shortRules, meBot...); err != nil {
			t.Fatal(err)
		}
	}
	_, err = c.CreateTable(ctx, shortRules, meBot...)
	if status, body := statusErr(t, err); status != 429 || !strings.Contains(body, "max-open-tables 3") {
		t.Fatalf("fourth open table: %d %s", status, body)
	}
	// Another player has quotas of their own.
	if _, err := host(t, ts).CreateTable(ctx, shortRules, meBot...); err != nil {
		t.Fatal(err)
	}
	// A clock out of bounds is refused, naming the field.
	err = host(t, ts).Do(ctx, "POST", "/api/tables", map[string]any{"rules": shortRules, "clock": -1}, nil)
	if status, body := statusErr(t, err); status != 400 || !strings.Contains(body, "clock") {
		t.Fatalf("clock -1: %d %s", status, body)
	}
}

// TestServerWideCaps: a guest costs one request, so the caps per player
// alone would not bound the server; the caps over all players do. Past
// them a new table is refused 503 capacity with Retry-After, whoever asks.
func TestServerWideCaps(t *testing.T) {
	ts := start(t, "", server.Options{MaxBotTablesTotal: 2, MaxTablesTotal: 3, BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)
	for range 2 { // two players, one bots-only table each
		if _, err := host(t, ts).CreateTable(ctx, shortRules, bots2...); err != nil {
			t.Fatal(err)
		}
	}
	_, err := host(t, ts).CreateTable(ctx, shortRules, bots2...)
	if status, body := statusErr(t, err); status != 503 || !strings.Contains(body, "max-bot-tables-total 2") || !strings.Contains(body, `"code":"capacity"`) {
		t.Fatalf("a third bots-only table from a new player: %d %s", status, body)
	}
	if _, err := host(t, ts).CreateTable(ctx, shortRules, meBot...); err != nil {
		t.Fatalf("a table with a person under the total cap: %v", err)
	}
	_, err = host(t, ts).CreateTable(ctx, shortRules, meBot...)
	if status, body := statusErr(t, err); status != 503 || !strings.Contains(body, "max-tables-total 3") {
		t.Fatalf("a fourth open table: %d %s", status, body)
	}
	_, token, err := wsclient.New(ts.URL).NewPlayer(ctx, "Late")
	if err != nil {
		t.Fatal(err)
	}
	var resp *http.Response
	req, _ := http.NewRequest("POST", ts.URL+"/api/tables", strings.NewReader(`{"seats":[{"type":"bot","level":"steady"},{"type":"bot","level":"steady"}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("refused for capacity: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

func TestGameLengthIsCapped(t *testing.T) {
	ts := start(t, "", server.Options{MaxTurns: 3})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	huge := map[string]any{"base": "classic", "game": map[string]any{"target": 1000000}}
	tb := joinNewTable(t, ctx, c, huge, bots2...)
	p := &player{Client: c, Seat: -1}
	defer p.Close()
	if err := p.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	rec := downloadRecord(t, c, tb.ID)
	if rec.Rules.Game.MaxTurns != 3 {
		t.Fatalf("stored rules: max_turns %d, want 3", rec.Rules.Game.MaxTurns)
	}
	st, err := record.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range st.Players {
		if pl.Turns > 3 {
			t.Fatalf("a player had %d turns with max_turns 3", pl.Turns)
		}
	}
	if len(st.Winners) == 0 {
		t.Fatal("no winner")
	}
}

func TestWaitingTablesExpire(t *testing.T) {
	ts := start(t, "", server.Options{WaitingExpiry: 300 * time.Millisecond})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	tb, err := c.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m := waitFor(t, ctx, c, "expired", func(m wsclient.Msg) bool { return m.Type == "expired" })
	if m.Table.Status != "expired" {
		t.Fatalf("expired message: %s", m.Raw)
	}
	if info := getInfo(t, ctx, c, tb.ID); info.Status != "expired" || info.Reason == "" {
		t.Fatalf("expired table: %+v", info)
	}
	var lobby []tableInfo
	if err := c.Do(ctx, "GET", "/api/tables?status=waiting,playing", nil, &lobby); err != nil || len(lobby) != 0 {
		t.Fatalf("lobby: %+v, %v", lobby, err)
	}
	_, err = newPlayer(t, ts, "Late").Join(ctx, tb.ID)
	if status, body := statusErr(t, err); status != 409 {
		t.Fatalf("joining an expired table: %d %s", status, body)
	}
	if open, _ := ts.Srv.TablesInMemory(); open != 0 { // not among the open tables, though still watched
		t.Fatalf("%d open tables in memory", open)
	}
}

func TestFinishedTablesLeaveMemory(t *testing.T) {
	path := t.TempDir() + "/farkle.db"
	const keep, n = 16, 500
	ts := start(t, path, server.Options{FinishedTables: keep})
	ctx := ctxT(t, 2*time.Minute)
	c := host(t, ts)
	first := joinNewTable(t, ctx, c, shortRules, bots2...)
	w := &player{Client: c, Seat: -1}
	if err := w.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	w.Close()
	db := rawDB(t, path)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	cols := "kind, rules, seats, seed, status, actions, created, updated, winners, scores, record"
	for i := range n - 1 {
		if _, err := tx.Exec(`INSERT INTO tables (id, `+cols+`) SELECT ?, `+cols+` FROM tables WHERE id = ?`, fmt.Sprintf("copy%04d", i), first.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	ids := []string{first.ID}
	for i := range n - 1 {
		ids = append(ids, fmt.Sprintf("copy%04d", i))
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for _, id := range ids {
		if info := getInfo(t, ctx, c, id); info.Status != "over" {
			t.Fatalf("table %s: %+v", id, info)
		}
	}
	t.Logf("heap after reading %d finished tables: %+.1f MB", n, (float64(heap())-float64(before))/1e6)
	open, finished := ts.Srv.TablesInMemory()
	if open+finished > keep {
		t.Fatalf("after reading %d finished tables: %d open and %d finished in memory, want at most %d", n, open, finished, keep)
	}
	if info := getInfo(t, ctx, c, first.ID); info.Status != "over" { // loaded again
		t.Fatalf("table read again: %+v", info)
	}
	if _, err := record.Verify(downloadRecord(t, c, ids[n-1])); err != nil {
		t.Fatal(err)
	}
}

func TestTurnClockCountResetsWhenThePlayerActs(t *testing.T) {
	ts := start(t, "", server.Options{TurnClock: 300 * time.Millisecond, ClockForfeits: 2})
	ctx := ctxT(t, time.Minute)
	p, tb := clockTable(t, ts, ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	q := newPlayer(t, ts, "Quick")
	if _, err := q.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := q.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	go func() { // Slow reads its messages, so it is not dropped as too slow
		for {
			if _, err := p.Next(ctx); err != nil {
				return
			}
		}
	}()
	// Quick plays every decision at once; Slow plays the whole of every
	// second turn of its own and leaves the others to the clock, so it
	// never has two timeouts in a row.
	slow := -1 // Slow's seat, once Quick's welcome says Quick's
	slowTurns, timeouts, playing := 0, 0, false
	lastActor := -1
	for q.Last == nil || q.Last.Phase != "over" {
		m, err := q.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("error: %s", m.Raw)
		}
		if m.Type == "welcome" {
			slow = 1 - q.Seat
		}
		st := q.Last
		if m.State == nil || st.Phase == "over" {
			continue
		}
		if st.Actor != lastActor && st.Actor == slow {
			slowTurns++
			playing = slowTurns%2 == 0
			if !playing {
				timeouts++
			}
		}
		lastActor = st.Actor
		actor := q.Client
		switch {
		case st.Actor == q.Seat:
		case playing:
			actor = p.Client
		default:
			continue
		}
		typ, d := choose(st)
		if err := actor.Act(ctx, st.Version, typ, d); err != nil {
			t.Fatal(err)
		}
	}
	rec := downloadRecord(t, q.Client, tb.ID)
	if _, err := record.Verify(rec); err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Actions {
		if e.Action.Kind == engine.Resign {
			t.Fatalf("a seat resigned after %d timeouts that were never two in a row: %v", timeouts, rec.Actions)
		}
	}
	if timeouts < 2 {
		t.Fatalf("only %d timeouts: the test proves nothing", timeouts)
	}
}

func TestDragonTurnClockPlaysTheSeat(t *testing.T) {
	ts := start(t, "", server.Options{TurnClock: 200 * time.Millisecond, ClockForfeits: 1})
	ctx := ctxT(t, time.Minute)
	p, tb := clockTable(t, ts, ctx, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "smart"})
	type dragonMsg struct {
		You struct {
			Seat int `json:"seat"`
		} `json:"you"`
		Dragon *struct {
			Turn int `json:"turn"`
		} `json:"dragon"`
	}
	var w dragonMsg
	welcome := waitFor(t, ctx, p.Client, "welcome", func(m wsclient.Msg) bool { return m.Type == "welcome" })
	if err := json.Unmarshal(welcome.Raw, &w); err != nil || w.Dragon == nil {
		t.Fatalf("welcome: %s", welcome.Raw)
	}
	seat, turn := w.You.Seat, w.Dragon.Turn
	// The player never acts: every update that follows a state where the
	// seat was to act is the server playing for it. With ClockForfeits 1
	// an ordinary seat would resign at once; a dragon seat never does.
	played := 0
	for played < 3 {
		m := waitFor(t, ctx, p.Client, "an update", func(m wsclient.Msg) bool { return m.Type == "update" || m.Type == "error" })
		if m.Type == "error" {
			t.Fatalf("error: %s", m.Raw)
		}
		var u dragonMsg
		if err := json.Unmarshal(m.Raw, &u); err != nil || u.Dragon == nil {
			t.Fatalf("update: %s", m.Raw)
		}
		if turn == seat {
			played++
		}
		turn = u.Dragon.Turn
		if m.Table.Status == "over" {
			break
		}
	}
	if info := getInfo(t, ctx, p.Client, tb.ID); info.Status == "failed" {
		t.Fatalf("table failed: %s", info.Reason)
	}
}

// TestTurnClockResumesAfterARestart: a restart gives the seat to act a
// fresh full clock, and the server acts for it when that runs out.
func TestTurnClockResumesAfterARestart(t *testing.T) {
	path := t.TempDir() + "/farkle.db"
	ts := start(t, path, server.Options{})
	ctx := ctxT(t, time.Minute)
	p := newPlayer(t, ts, "Gone")
	var tb wsclient.Table
	if err := p.Do(ctx, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": meBot, "clock": 1}, &tb); err != nil {
		t.Fatal(err)
	}
	if info := getInfo(t, ctx, p.Client, tb.ID); info.Clock == nil || info.Clock.Seconds != 1 {
		t.Fatalf("clock of the new table: %+v", info.Clock)
	}
	ts.Stop()
	ts2 := start(t, path, server.Options{})
	c := client2(p, ts2.URL)
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	welcome := waitFor(t, ctx, c, "welcome", func(m wsclient.Msg) bool { return m.Type == "welcome" })
	seat := welcome.You.Seat
	var wv struct {
		Table tableInfo `json:"table"`
	}
	if err := json.Unmarshal(welcome.Raw, &wv); err != nil || wv.Table.Clock == nil || wv.Table.Clock.Seconds != 1 {
		t.Fatalf("clock after the restart: %s", welcome.Raw)
	}
	waitFor(t, ctx, c, "the server acting for the seat", func(m wsclient.Msg) bool {
		var u struct {
			Action *engine.Action `json:"action"`
		}
		_ = json.Unmarshal(m.Raw, &u)
		return m.Type == "update" && u.Action != nil && u.Action.Player == seat
	})
	if _, err := game.ParseRecord(recordData(t, c, tb.ID)); err != nil {
		t.Fatal(err)
	}
}
