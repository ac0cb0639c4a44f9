package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// twoPlayerTable starts a server on a SQLite file (synchronous NORMAL, so
// that the time is the CPU's and not the disk's) with a table of r between
// two players, Ann and Bo, in play from seed's dice, and returns the
// server, its store, the table in memory and the players. All are closed
// when tb ends.
func twoPlayerTable(tb testing.TB, r rules.Rules, seed string) (*Server, *sqlite.DB, *table, []store.Player) {
	tb.Helper()
	ctx := context.Background()
	db, err := sqlite.OpenWith(ctx, filepath.Join(tb.TempDir(), "act.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	s, err := New(ctx, db, Options{BotDelay: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	v, err := game.NewFarkle(r)
	if err != nil {
		tb.Fatal(err)
	}
	t := store.Table{ID: seed, Kind: v.Kind(), Rules: v.Rules(), Seed: dice.SeedFrom(seed), Status: store.Playing, Created: time.Now(), Creator: "p0"}
	players := []store.Player{{ID: "p0", Name: "Ann", TokenHash: "h0"}, {ID: "p1", Name: "Bo", TokenHash: "h1"}}
	for _, p := range players {
		if err := db.CreatePlayer(ctx, p); err != nil {
			tb.Fatal(err)
		}
		t.Seats = append(t.Seats, store.Seat{Name: p.Name, PlayerID: p.ID})
	}
	if err := db.CreateTable(ctx, t); err != nil {
		tb.Fatal(err)
	}
	tt, err := s.getTable(ctx, t.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return s, db, tt, players
}

// BenchmarkAction is the server's own work for one action of an ordinary
// two-player game, without the network: the message read, the checks,
// the commit to a SQLite file (synchronous NORMAL, so that the time is the
// CPU's and not the disk's), and the update encoded and queued for the two
// players and a watcher. The clients' choice of their next action is not
// timed. allocs/op are exact; ns/op is near enough the CPU of an action.
//
//	go test ./server -run '^$' -bench 'BenchmarkAction$' -benchmem -benchtime 3000x
func BenchmarkAction(b *testing.B) {
	r := rules.MustPreset("classic")
	r.Game.Target = rules.MaxTarget // no game ends within the benchmark
	s, _, tt, players := twoPlayerTable(b, r, "bench")
	clients := make([]*client, 3) // the two players and a watcher
	for i := range clients {
		c := &client{srv: s, t: tt, out: make(chan *message, 16), done: make(chan struct{})}
		if i < 2 {
			c.player = &players[i]
		}
		clients[i] = c
		tt.mu.Lock()
		tt.clients[c] = struct{}{}
		c.sendWelcome()
		tt.mu.Unlock()
	}
	last := make([]map[string]any, 2)
	read := func() {
		for i, c := range clients {
			select {
			case m := <-c.out:
				if i < 2 {
					last[i] = nil
					if err := json.Unmarshal(m.payload(), &last[i]); err != nil {
						b.Fatal(err)
					}
				}
			default:
				b.Fatalf("client %d got no message", i)
			}
		}
	}
	read()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		msg, seat := "", -1
		for i := range 2 {
			if m, ok := ordinaryWireChoice(last[i], i); ok {
				msg, seat = m, i
				break
			}
		}
		if seat < 0 {
			b.Fatal("no seat can act")
		}
		b.StartTimer()
		clients[seat].handle([]byte(msg))
		b.StopTimer()
		read()
		if last[seat]["type"] != "update" {
			b.Fatalf("seat %d got %v, not an update", seat, last[seat])
		}
		b.StartTimer()
	}
}
