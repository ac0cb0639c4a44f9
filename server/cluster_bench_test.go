package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// BenchmarkNodes puts the same load on one node on SQLite, one node on
// PostgreSQL and three nodes on PostgreSQL: 30 solo tables, each player
// acting as fast as its updates come back, with two watchers a table. On
// three nodes a table is created on one node, played from the next and
// watched from the other two, so every action crosses nodes. It reports
// actions a second and the player's round trip (action sent to its update
// back).
func BenchmarkNodes(b *testing.B) {
	opt := server.Options{WSPerAddress: -1, MaxOpenTables: -1}
	b.Run("sqlite-1", func(b *testing.B) {
		benchNodes(b, []*testServer{start(b, "", opt)})
	})
	b.Run("postgres-1", func(b *testing.B) {
		dsn := pgtest.DSN(b)
		benchNodes(b, []*testServer{startNodeTTL(b, dsn, "a", postgres.DefaultLeaseTTL, opt)})
	})
	b.Run("postgres-3", func(b *testing.B) {
		dsn := pgtest.DSN(b)
		var nodes []*testServer
		for _, n := range []string{"a", "b", "c"} {
			nodes = append(nodes, startNodeTTL(b, dsn, n, postgres.DefaultLeaseTTL, opt))
		}
		benchNodes(b, nodes)
	})
}

// benchNodes runs the load of BenchmarkNodes on the nodes.
func benchNodes(b *testing.B, nodes []*testServer) {
	ctx := context.Background()
	const tables, watchers = 30, 2
	n := len(nodes)
	players := make([]*player, tables)
	for i := range tables {
		p := newPlayer(b, nodes[i%n], fmt.Sprintf("P%d", i))
		tb, err := p.CreateTable(ctx, longSolo, map[string]string{"type": "me"})
		if err != nil {
			b.Fatal(err)
		}
		p.Client = at(p.Client, nodes[(i+1)%n])
		if err := p.Connect(ctx, tb.ID); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Read(ctx); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(p.Close)
		players[i] = p
		for k := range watchers {
			w := wsclient.New(nodes[(i+2+k)%n].URL)
			if err := w.Connect(ctx, tb.ID); err != nil {
				b.Fatal(err)
			}
			go func() {
				for {
					if _, _, err := w.Conn.Read(ctx); err != nil {
						return
					}
				}
			}()
			b.Cleanup(w.Close)
		}
	}
	lat, el := roundTrips(b, players, 0)
	b.ReportMetric(float64(len(lat))/el.Seconds(), "actions/s")
	report(b, lat)
}

// BenchmarkTakeover: a node running a bots-only table dies (its leases
// are not given up); the time until the other node's next action there,
// as its watcher sees it, with the default lease time and renewal.
func BenchmarkTakeover(b *testing.B) {
	dsn := pgtest.DSN(b)
	var total time.Duration
	for range b.N {
		b.StopTimer()
		opt := server.Options{BotDelay: 10 * time.Millisecond}
		a := startNodeTTL(b, dsn, "a", postgres.DefaultLeaseTTL, opt)
		other := startNodeTTL(b, dsn, "b", postgres.DefaultLeaseTTL, opt)
		ctx := ctxT(b, time.Minute)
		host := newPlayer(b, a, "Host")
		tb, err := host.CreateTable(ctx, longSolo, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "steady"})
		if err != nil {
			b.Fatal(err)
		}
		w := &player{Client: wsclient.New(other.URL), Seat: -1}
		if err := w.Connect(ctx, tb.ID); err != nil {
			b.Fatal(err)
		}
		for w.Last == nil || w.Last.Version < 3 {
			if _, err := w.Read(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		a.Store.Close() // a dies: its leases stay until they expire
		a.Srv.Close()
		died := time.Now()
		// Actions a had already sent out may still arrive; the first
		// update later than a lease renewal is the other node's.
		v := w.Last.Version
		for w.Last.Version == v || time.Since(died) < 100*time.Millisecond {
			v = w.Last.Version
			if _, err := w.Read(ctx); err != nil {
				b.Fatal(err)
			}
		}
		total += time.Since(died)
		b.StopTimer()
		w.Close()
		other.Stop()
		a.Stop()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/takeover")
}
