package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// A node following a table that another node plays (catchUp, as on a
// change heard from the database) plays the actions stored since its own
// on its game in memory: each update reaches its clients, the game is the
// one the other node played; an action stored that the seed does not give
// is refused and leaves the game as it was.
func TestFollowPlaysTheStoredActions(t *testing.T) {
	ctx := context.Background()
	r := rules.MustPreset("classic")
	s, db, tt, _ := twoPlayerTable(t, r, "follow")
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	tb := tt.meta
	names := tt.names()
	watcher := &client{srv: s, t: tt, out: make(chan *message, 256), done: make(chan struct{})}
	tt.mu.Lock()
	tt.clients[watcher] = struct{}{}
	tt.mu.Unlock()
	// The other node's game: the same seed, its first legal action each
	// time, every entry stored as that node stores it.
	other, _, err := game.Start(v, names, tb.Seed)
	if err != nil {
		t.Fatal(err)
	}
	playOther := func(n int) {
		for range n {
			g := other.Game()
			seat := g.ToAct()
			if _, err := other.Do(seat, g.Legal(seat)[0]); err != nil {
				t.Fatal(err)
			}
			acts := other.Record().Actions
			if err := db.AppendAction(ctx, tb.ID, len(acts), acts[len(acts)-1], nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	updates := func() (n int) {
		for len(watcher.out) > 0 {
			if strings.HasPrefix(string((<-watcher.out).payload()), `{"type":"update"`) {
				n++
			}
		}
		return n
	}
	for _, batch := range []int{1, 4, 7} {
		playOther(batch)
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
	err = tt.catchUp(ctx)
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
