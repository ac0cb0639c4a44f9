package server_test

import (
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// TestClusterQuietHints: the node holding a table's lease commits its
// actions without change hints while no other node has clients there,
// and a node whose client comes to the table mid-game asks for them: its
// watcher sees each action before the next is taken. The nodes never read
// their tables again on their own (CatchUpEvery of an hour), so without
// the hints the watcher would see nothing until the game's end (its last
// action is always hinted).
func TestClusterQuietHints(t *testing.T) {
	dsn := pgtest.DSN(t)
	opt := server.Options{CatchUpEvery: time.Hour}
	a, b := startNode(t, dsn, "a", opt), startNode(t, dsn, "b", opt)
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, a, "Ann")
	tb, err := ann.CreateTable(ctx, shortRules, meBot...)
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
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
