package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// quietNodes starts two nodes that never read their tables again on their
// own (CatchUpEvery of an hour: only the change hints bring news), and
// seats Ann on a at a new table against a bot, connected: a holds its
// lease.
func quietNodes(t *testing.T, ctx context.Context) (a, b *testServer, ann *player, tb wsclient.Table) {
	t.Helper()
	dsn := pgtest.DSN(t)
	opt := server.Options{CatchUpEvery: time.Hour}
	a, b = startNode(t, dsn, "a", opt), startNode(t, dsn, "b", opt)
	ann = newPlayer(t, a, "Ann")
	created, err := ann.CreateTable(ctx, shortRules, meBot...)
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Connect(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	return a, b, ann, created
}

// TestClusterQuietHints: the node holding a table's lease commits its
// actions without change hints while no other node has clients there,
// and a node whose client comes to the table mid-game asks for them: its
// watcher sees each action before the next is taken. The nodes never read
// their tables again on their own (CatchUpEvery of an hour), so without
// the hints the watcher would see nothing until the game's end (its last
// action is always hinted).
func TestClusterQuietHints(t *testing.T) {
	ctx := ctxT(t, time.Minute)
	a, b, ann, tb := quietNodes(t, ctx)
	// Ann and the bot play on a until a has committed an action quietly.
	for metricValue(t, a, "farkle_quiet_actions_total") == 0 {
		if ann.Last != nil && ann.Last.Phase == "over" {
			t.Fatal("the game ended before node a committed an action without a hint")
		}
		if ann.Last != nil && ann.Last.Actor == ann.Seat {
			if err := playTurn(ann, ctx); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := ann.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	watcher := &player{Client: wsclient.New(b.URL), Seat: -1}
	if err := watcher.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	// Each action, Ann's or the bot's, must reach the watcher before the
	// next: the end's own hint would bring them all at once.
	for ann.Last.Phase != "over" {
		if ann.Last.Actor == ann.Seat {
			if _, err := step(ann, ctx); err != nil {
				t.Fatal(err)
			}
		} else if _, err := ann.Read(ctx); err != nil {
			t.Fatal(err)
		}
		for watcher.Last == nil || watcher.Last.Version < ann.Last.Version {
			if _, err := watcher.Read(ctx); err != nil {
				t.Fatalf("the watcher on b, at version %v, waiting for %d: %v", watcher.Last, ann.Last.Version, err)
			}
		}
	}
	checkConsecutive(t, watcher.Seen)
	rec := verified(t, b, tb.ID)
	if got := watcher.Last.Version; got != len(rec.Actions) {
		t.Fatalf("the watcher on b saw version %d last, the record has %d actions", got, len(rec.Actions))
	}
	if got := metricValue(t, b, "farkle_quiet_actions_total"); got != 0 {
		t.Fatalf("node b, holding no lease, committed %v actions without a hint", got)
	}
	if got := metricValue(t, b, "farkle_followed_actions_total"); got == 0 {
		t.Fatal("node b followed none of a's actions")
	}
	t.Logf("a committed %v of %d actions without a hint", metricValue(t, a, "farkle_quiet_actions_total"), len(rec.Actions))
}

// TestClusterWelcomeAfterQuietActions: a node that keeps a table in memory
// after its last client there left, and so stopped asking for its hints,
// does not hear the actions its holder commits quietly meanwhile; the next
// client to come there is welcomed with the table as it stands, not as the
// node last heard of it.
func TestClusterWelcomeAfterQuietActions(t *testing.T) {
	ctx := ctxT(t, time.Minute)
	a, b, ann, tb := quietNodes(t, ctx)
	untilTurn := func() { // Ann's turn, the bot done (or the game over)
		t.Helper()
		for ann.Last == nil || (ann.Last.Actor != ann.Seat && ann.Last.Phase != "over") {
			if _, err := ann.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	untilTurn()
	// A turn each, the game's first action (always hinted) behind.
	if err := playTurn(ann, ctx); err != nil {
		t.Fatal(err)
	}
	untilTurn()
	// A first watcher on b: b loads the table and asks for its hints.
	first := &player{Client: wsclient.New(b.URL), Seat: -1}
	if err := first.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Read(ctx); err != nil {
		t.Fatal(err)
	}
	untilMetric(t, ctx, a, "farkle_tables_hints_asked", 1)
	first.Close()
	// It leaves; b keeps the table in memory and stops asking, and a's
	// record of the request ends.
	untilMetric(t, ctx, b, "farkle_connected_clients", 0)
	untilMetric(t, ctx, a, "farkle_tables_hints_asked", 0)
	quiet := metricValue(t, a, "farkle_quiet_actions_total")
	if err := playTurn(ann, ctx); err != nil {
		t.Fatal(err)
	}
	untilTurn()
	if ann.Last.Phase == "over" {
		t.Skip("the game ended in the turns played (a turn to 2,000): nothing to welcome")
	}
	if got := metricValue(t, a, "farkle_quiet_actions_total"); got == quiet {
		t.Fatal("node a hinted every action after the watcher on b left")
	}
	second := &player{Client: wsclient.New(b.URL), Seat: -1}
	if err := second.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for second.Last == nil {
		if _, err := second.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if second.Last.Version != ann.Last.Version {
		t.Fatalf("the watcher on b was welcomed at version %d, the table is at %d", second.Last.Version, ann.Last.Version)
	}
}
