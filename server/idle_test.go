package server_test

import (
	"context"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// twoPeople creates a table of two people with no clock for host and
// guest; both connect and read their welcome.
func twoPeople(t *testing.T, ctx context.Context, host, guest *player) string {
	t.Helper()
	var tb wsclient.Table
	body := map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}
	if err := host.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if _, err := guest.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*player{host, guest} {
		connectAndWelcome(t, ctx, p, tb.ID)
	}
	return tb.ID
}

// connectAndWelcome connects p to table id and reads its welcome's state.
func connectAndWelcome(t *testing.T, ctx context.Context, p *player, id string) {
	t.Helper()
	p.Last, p.Seen = nil, nil
	if err := p.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	for p.Last == nil {
		if _, err := p.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// playUntil plays the table of ps, whoever is to act choosing, until the
// game is at version v or over; every player reads each state.
func playUntil(t *testing.T, ctx context.Context, ps []*player, v int) {
	t.Helper()
	for ps[0].Last.Version < v && ps[0].Last.Phase != "over" {
		at := ps[0].Last.Version
		for _, p := range ps {
			if p.Seat == p.Last.Actor {
				typ, d := choose(p.Last)
				if err := p.Act(ctx, at, typ, d); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, p := range ps {
			for p.Last.Version == at {
				m, err := p.Read(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if m.Type == "error" {
					t.Fatalf("%s: %s", m.Code, m.Message)
				}
			}
		}
	}
}

// untilClients waits until the server counts n WebSocket clients.
func untilClients(t *testing.T, ctx context.Context, ts *testServer, n float64) {
	t.Helper()
	untilMetric(t, ctx, ts, "farkle_connected_clients", n)
}

// untilMetric waits until the server's metric name (without labels) is v.
func untilMetric(t *testing.T, ctx context.Context, ts *testServer, name string, v float64) {
	t.Helper()
	for metricValue(t, ts, name) != v {
		select {
		case <-ctx.Done():
			t.Fatalf("the server's %s never was %v", name, v)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestIdleTablesLeaveMemory: a table of two people nobody watches leaves
// memory after --table-idle unused (not before, nor while one of them
// watches), still counted as open; the next connection loads it again as
// it stood, and the game plays on to a record that verifies.
func TestIdleTablesLeaveMemory(t *testing.T) {
	var skew atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	ts := start(t, filepath.Join(t.TempDir(), "farkle.db"), server.Options{Now: now, TurnClock: -1, TableIdle: 10 * time.Minute})
	ctx := ctxT(t, 2*time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	id := twoPeople(t, ctx, ann, bea)
	playUntil(t, ctx, []*player{ann, bea}, 8)
	before := *ann.Last
	beforeBea := *bea.Last

	ann.Close()
	untilClients(t, ctx, ts, 1)
	skew.Store(int64(11 * time.Minute))
	if n := ts.Srv.SleepIdle(); n != 0 {
		t.Fatalf("a table Bea watches fell asleep (%d asleep)", n)
	}
	bea.Close()
	untilClients(t, ctx, ts, 0)
	skew.Store(int64(20 * time.Minute)) // Bea's leaving was a use: 9 minutes idle since
	if n := ts.Srv.SleepIdle(); n != 0 {
		t.Fatalf("a table idle 9 minutes fell asleep (%d asleep)", n)
	}
	open, _ := ts.Srv.TablesInMemory()
	skew.Store(int64(32 * time.Minute))
	if n := ts.Srv.SleepIdle(); n != 1 {
		t.Fatalf("%d tables asleep after 21 idle minutes, want 1", n)
	}
	if after, _ := ts.Srv.TablesInMemory(); after != open-1 {
		t.Fatalf("open tables in memory: %d before, %d asleep, want one fewer", open, after)
	}
	if v := metricValue(t, ts, "farkle_open_tables"); v != 1 {
		t.Fatalf("farkle_open_tables %v: a table asleep is still open", v)
	}
	if v := metricValue(t, ts, "farkle_tables_asleep"); v != 1 {
		t.Fatalf("farkle_tables_asleep %v, want 1", v)
	}

	ann2 := &player{Client: clientWithToken(t, ts.URL, ann.Token), Seat: -1}
	bea2 := &player{Client: clientWithToken(t, ts.URL, bea.Token), Seat: -1}
	defer ann2.Close()
	defer bea2.Close()
	connectAndWelcome(t, ctx, ann2, id)
	connectAndWelcome(t, ctx, bea2, id)
	if !reflect.DeepEqual(*ann2.Last, before) || !reflect.DeepEqual(*bea2.Last, beforeBea) {
		t.Fatalf("loaded again, the game is\n%+v\n%+v\nwant as it stood\n%+v\n%+v", *ann2.Last, *bea2.Last, before, beforeBea)
	}
	if v := metricValue(t, ts, "farkle_tables_asleep"); v != 0 {
		t.Fatalf("farkle_tables_asleep %v after the table was loaded again", v)
	}
	playUntil(t, ctx, []*player{ann2, bea2}, 1<<30)
	if _, err := record.Verify(downloadRecord(t, ann2.Client, id)); err != nil {
		t.Fatal(err)
	}
}

// TestIdleOwnPaceTableWakesForItsClock: a game at your own pace that both
// players left sleeps between their clocks' deadlines and wakes at each to
// play the turn; the timeouts in a row survive its sleeps, so the game
// ends with a loss on time as it would in memory.
func TestIdleOwnPaceTableWakesForItsClock(t *testing.T) {
	ts := start(t, "", server.Options{PaceHour: 10 * time.Millisecond, TableIdle: time.Millisecond, ClockForfeits: 3})
	ctx := ctxT(t, time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	id := paceTable(t, ctx, ann, bea, "1d") // a day of 240 ms
	ann.Close()
	bea.Close()
	// The loss on time is stored just after the game's end (ontime.go):
	// wait for both.
	var tb store.Table
	lost := 0
	for tb.Status != store.Over || lost == 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("the game never ended with a loss on time: %+v", tb)
		case <-time.After(20 * time.Millisecond):
		}
		var err error
		if tb, err = ts.Store.Table(ctx, id); err != nil {
			t.Fatal(err)
		}
		lost = 0
		for _, s := range tb.Seats {
			if s.LostOnTime {
				lost++
			}
		}
	}
	if lost != 1 {
		t.Fatalf("seats lost on time: %d, want 1 (%+v) status %v reason %q winners %v", lost, tb.Seats, tb.Status, tb.Reason, tb.Winners)
	}
	if n := metricValue(t, ts, "farkle_tables_slept_total"); n < 2 {
		t.Fatalf("the table slept %v times, want at least 2 (between its clocks)", n)
	}
	c := host(t, ts)
	if _, err := record.Verify(downloadRecord(t, c, id)); err != nil {
		t.Fatal(err)
	}
}

// TestClusterIdleTableKeepsItsLease: node a runs a game against a bot
// whose player plays on node b. Idle on a (nobody connected there), the
// table leaves a's memory but a keeps its lease: b does not take it over
// as an orphan. The player's move on b wakes it on a, whose bot answers;
// a, with nobody connected, then lets the table go to b, the node of its
// player (affinity.go), whose bot plays on to the game's end.
func TestClusterIdleTableKeepsItsLease(t *testing.T) {
	dsn := pgtest.DSN(t)
	var skew atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	a := startNode(t, dsn, "a", server.Options{Now: now})
	b := startNode(t, dsn, "b", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, a, "Ann")
	tb, err := ann.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	onB := &player{Client: at(ann.Client, b), Seat: -1}
	defer onB.Close()
	connectAndWelcome(t, ctx, onB, tb.ID)
	for onB.Last.Actor != onB.Seat { // the bot may begin, on a
		if _, err := onB.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	skew.Store(int64(11 * time.Minute))
	if n := a.Srv.SleepIdle(); n != 1 {
		t.Fatalf("node a: %d tables asleep, want the one nobody there watches", n)
	}
	time.Sleep(2 * clusterTTL) // a lease given up would be an orphan by now, taken by b or loaded again by a
	if n := metricValue(t, a, "farkle_tables_asleep"); n != 1 {
		t.Fatalf("node a: %v tables asleep after %v, want the one still", n, 2*clusterTTL)
	}
	botsA := metricValue(t, a, `farkle_actions_total{result="accepted",source="bot"}`)
	if err := onB.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	if n := metricValue(t, a, `farkle_actions_total{result="accepted",source="bot"}`); n <= botsA {
		t.Fatalf("node a made no bot move after the table slept (%v before, %v after)", botsA, n)
	}
	if n := metricValue(t, a, "farkle_tables_let_go_total"); n != 1 {
		t.Fatalf("node a let %v tables go, want the one its player plays on b", n)
	}
	if n := metricValue(t, b, `farkle_actions_total{result="accepted",source="bot"}`); n == 0 {
		t.Fatal("node b made no bot move: the table did not come to its player's node")
	}
	verified(t, b, tb.ID)
}
