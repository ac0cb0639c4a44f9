package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// A node following a table that another node plays (catchUp, as on a
// change heard from the database) plays the actions stored since its own
// on its game in memory: each update reaches its clients, the game is the
// one the other node played; an action stored that the seed does not give
// is refused and leaves the game as it was.
func TestFollowPlaysTheStoredActions(t *testing.T) {
	ctx := context.Background()
	f := newFollowing(t, "follow")
	tt, other, db, tb := f.tt, f.other, f.db, f.tt.meta
	playOther, updates := f.playOther, f.updates
	for _, batch := range []int{1, 4, 7} {
		playOther(t, batch)
		tt.mu.Lock()
		err := tt.catchUp(ctx)
		got, want := tt.play.Game().Version(), other.Game().Version()
		tt.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("following: version %d, the other node's %d", got, want)
		}
		if n := updates(); n != batch {
			t.Fatalf("%d actions followed sent %d updates", batch, n)
		}
	}
	tt.mu.Lock()
	same, _ := json.Marshal(tt.play.Game())
	tt.mu.Unlock()
	if want, _ := json.Marshal(other.Game()); string(same) != string(want) {
		t.Fatalf("the followed game differs:\n%s\n%s", same, want)
	}
	// An action the seed does not give: the other node's next action (a
	// throw, as the game is at a turn's start) with its dice changed.
	g := other.Game()
	seat := g.ToAct()
	if _, err := other.Do(seat, g.Legal(seat)[0]); err != nil {
		t.Fatal(err)
	}
	acts := other.Record().Actions
	var entry map[string]any
	if err := json.Unmarshal(acts[len(acts)-1], &entry); err != nil {
		t.Fatal(err)
	}
	threw, ok := entry["threw"].([]any)
	if !ok || len(threw) == 0 {
		t.Fatalf("the next action throws no dice: %s", acts[len(acts)-1])
	}
	for i, f := range threw { // every face another
		threw[i] = int(f.(float64))%6 + 1
	}
	forged, _ := json.Marshal(entry)
	if err := db.AppendAction(ctx, tb.ID, len(acts), forged, nil); err != nil {
		t.Fatal(err)
	}
	tt.mu.Lock()
	before := tt.play.Game().Version()
	err := tt.catchUp(ctx)
	after := tt.play.Game().Version()
	tt.mu.Unlock()
	if err == nil || !strings.Contains(err.Error(), "the seed gives") {
		t.Fatalf("a forged stored action: %v", err)
	}
	if after != before {
		t.Fatalf("a forged stored action moved the game from version %d to %d", before, after)
	}
	if n := updates(); n != 0 {
		t.Fatalf("a forged stored action sent %d updates", n)
	}
}

// following is a table in memory on this node and the same game played by
// "another node" (playOther: its first legal action each time, each entry
// stored as that node stores it), with a client watching the table here
// (updates: how many updates it got since the last call).
type following struct {
	s       *Server
	db      *sqlite.DB
	tt      *table
	other   *game.Play
	watcher *client
}

func newFollowing(t *testing.T, seed string) *following {
	r := rules.MustPreset("classic")
	s, db, tt, _ := twoPlayerTable(t, r, seed)
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	watcher := &client{srv: s, t: tt, out: make(chan *message, 256), done: make(chan struct{})}
	tt.mu.Lock()
	tt.clients[watcher] = struct{}{}
	tt.mu.Unlock()
	other, _, err := game.Start(v, tt.names(), tt.meta.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return &following{s: s, db: db, tt: tt, other: other, watcher: watcher}
}

func (f *following) playOther(t *testing.T, n int) {
	t.Helper()
	for range n {
		g := f.other.Game()
		seat := g.ToAct()
		if _, err := f.other.Do(seat, g.Legal(seat)[0]); err != nil {
			t.Fatal(err)
		}
		acts := f.other.Record().Actions
		if err := f.db.AppendAction(context.Background(), f.tt.meta.ID, len(acts), acts[len(acts)-1], nil); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *following) updates() (n int) {
	for len(f.watcher.out) > 0 {
		if strings.HasPrefix(string((<-f.watcher.out).payload()), `{"type":"update"`) {
			n++
		}
	}
	return n
}

// A change hint may name an action that was not written (a batch's hints
// are sent with its commit, before its answers are read: another node's
// action n came first, or the table ended): the node reads the table
// instead, plays what is stored and sees the table's end.
func TestFollowHintAheadOfTheStore(t *testing.T) {
	ctx := context.Background()
	f := newFollowing(t, "ahead")
	f.playOther(t, 3)
	f.s.heard(ctx, store.Change{Table: f.tt.meta.ID, Actions: 4, Status: store.Playing})
	f.tt.mu.Lock()
	got, want := f.tt.play.Game().Version(), f.other.Game().Version()
	f.tt.mu.Unlock()
	if got != want {
		t.Fatalf("after a hint ahead of the store: version %d, the store's game %d", got, want)
	}
	if n := f.updates(); n != 3 {
		t.Fatalf("3 actions stored, a hint of 4: %d updates", n)
	}
	if err := f.db.FailTable(ctx, f.tt.meta.ID, "another node's failure"); err != nil {
		t.Fatal(err)
	}
	f.s.heard(ctx, store.Change{Table: f.tt.meta.ID, Actions: 4, Status: store.Playing})
	f.tt.mu.Lock()
	st := f.tt.meta.Status
	f.tt.mu.Unlock()
	if st != store.Failed {
		t.Fatalf("a table that ended in the store, after a hint ahead of it: %s here", st)
	}
}
