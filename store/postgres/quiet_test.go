package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"
)

// TestQuietHints: an action appended quietly sends no change hint, a
// request for a table's hints is heard by the other nodes as a Change with
// Follow set and not by its own, and Hint sends the hint it is given. What
// was not heard is shown by the order of notifications: a node hears them
// in the order of their commits, so a hint that would have come before the
// next one heard was never sent.
func TestQuietHints(t *testing.T) {
	nodes := twoNodes(t)
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	heardA, heardB := a.Changes(ctx), b.Changes(ctx)
	for _, h := range []<-chan store.Change{heardA, heardB} {
		if c := <-h; c.Table != "" {
			t.Fatalf("first change %+v, want the one saying to read everything", c)
		}
	}
	tb := store.Table{ID: "q1", Kind: game.Farkle, Rules: json.RawMessage(`{}`), Seats: []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}, Seed: dice.SeedFrom("q1"), Status: store.Playing}
	if err := a.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	next := func(h <-chan store.Change) store.Change {
		t.Helper()
		for {
			select {
			case c := <-h:
				if c.Table == "q1" && c.Status == store.Waiting {
					continue // the creation's
				}
				return c
			case <-ctx.Done():
				t.Fatal("no change heard")
			}
		}
	}
	if err := a.AppendAction(ctx, "q1", 1, json.RawMessage(`{"x":1}`), nil); err != nil {
		t.Fatal(err)
	}
	want1 := store.Change{Table: "q1", Actions: 1, Status: store.Playing}
	if c := next(heardB); c != want1 {
		t.Fatalf("b heard %+v, want %+v", c, want1)
	}
	if err := a.AppendQuiet(ctx, "q1", 2, json.RawMessage(`{"x":2}`)); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendAction(ctx, "q1", 3, json.RawMessage(`{"x":3}`), nil); err != nil {
		t.Fatal(err)
	}
	want3 := store.Change{Table: "q1", Actions: 3, Status: store.Playing}
	if c := next(heardB); c != want3 {
		t.Fatalf("b heard %+v after a quiet action and a hinted one, want only the hinted one %+v", c, want3)
	}
	got, err := a.Table(ctx, "q1")
	if err != nil || got.Actions != 3 {
		t.Fatalf("the table after a quiet action: %d actions, %v; want 3", got.Actions, err)
	}

	if err := b.WantHints(ctx, []string{"q1", "q2"}); err != nil {
		t.Fatal(err)
	}
	// a hears its own hints of actions 1 and 3 first (nothing of the
	// quiet one), then b's requests.
	for _, want := range []store.Change{want1, want3, {Table: "q1", Follow: true}, {Table: "q2", Follow: true}} {
		if c := next(heardA); c != want {
			t.Fatalf("a heard %+v, want %+v", c, want)
		}
	}
	// b does not hear its own request: what it hears next is a's hint.
	hint := store.Change{Table: "q1", Actions: 3, Status: store.Playing}
	if err := a.Hint(ctx, hint); err != nil {
		t.Fatal(err)
	}
	if c := next(heardB); c != hint {
		t.Fatalf("b heard %+v after its own request and a's hint, want the hint %+v", c, hint)
	}
}

// TestQuietInBatch: in a batch of the group commit (one pipeline, or each
// action alone when a statement fails) a quiet action is written as the
// others and sends no hint; the others send theirs.
func TestQuietInBatch(t *testing.T) {
	ctx := context.Background()
	db := oneNode(t, "n0")
	heard := listening(t, db)
	for _, id := range []string{"r1", "r2", "r3"} {
		newTableOn(t, db, id)
	}
	appendOf := func(id string, n int, quiet bool) *sqlstore.Append {
		a, err := sqlstore.NewAppend(id, n, json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)), nil)
		if err != nil {
			t.Fatal(err)
		}
		a.Quiet = quiet
		return &a
	}
	// One pipeline.
	if errs := db.CommitBatch([]*sqlstore.Append{appendOf("r1", 1, false), appendOf("r2", 1, true)}); errs[0] != nil || errs[1] != nil {
		t.Fatalf("a batch with a quiet action: %v", errs)
	}
	// A statement failing (r3's action 1 stored behind the table's back):
	// each action alone.
	if _, err := db.W.ExecContext(ctx, `INSERT INTO actions (table_id, n, entry) VALUES ('r3', 1, '{}')`); err != nil {
		t.Fatal(err)
	}
	errs := db.CommitBatch([]*sqlstore.Append{appendOf("r3", 1, false), appendOf("r2", 2, true), appendOf("r1", 2, false)})
	if store.Code(errs[0]) != store.ECONFLICT || errs[1] != nil || errs[2] != nil {
		t.Fatalf("a batch with a quiet action and one failing: %v", errs)
	}
	for id, want := range map[string]int{"r1": 2, "r2": 2} {
		if got, err := db.Actions(ctx, id); err != nil || len(got) != want {
			t.Fatalf("%s: %d actions (%v), want %d", id, len(got), err, want)
		}
	}
	// A last hinted action: every hint before it has been heard then.
	if errs := db.CommitBatch([]*sqlstore.Append{appendOf("r1", 3, false)}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	count := hintsUpTo(t, heard, "r1 3")
	if count["r1 1"] != 1 || count["r1 2"] != 1 || count["r2 1"]+count["r2 2"] != 0 {
		t.Fatalf("hints heard %v: want r1's once each, none of r2's quiet actions", count)
	}
}
