package server_test

import (
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// The group commit's counters: every action two players take is written
// by it, in batches of at least one, and farkle_commit_batches_total and
// farkle_commit_actions_total say so (their ratio, the actions a commit,
// is what an operator reads).
func TestCommitMetrics(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 30*time.Second)
	batches0, actions0 := metricValue(t, ts, "farkle_commit_batches_total"), metricValue(t, ts, "farkle_commit_actions_total")
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	tb, err := ann.CreateTable(ctx, longRules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	ps := []*player{{Client: ann.Client, Seat: -1}, {Client: bea.Client, Seat: -1}}
	connectAndJoin(t, ctx, tb.ID, ps)
	const n = 12
	playSome(t, ctx, ps, n)
	batches := metricValue(t, ts, "farkle_commit_batches_total") - batches0
	actions := metricValue(t, ts, "farkle_commit_actions_total") - actions0
	// One at a time, each action is a batch of its own.
	if actions != n || batches != n {
		t.Fatalf("%d actions played one after the other: the group commit counted %v batches, %v actions", n, batches, actions)
	}
}
