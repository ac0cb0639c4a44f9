package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// longSolo is a one-player game that does not end during a benchmark.
var longSolo = map[string]any{"base": "classic", "game": map[string]any{"target": 1000000}}

// benchTables opens tables solo tables, each with its player connected and
// watchers-1 more clients watching, so that tables*watchers clients are
// connected. Watchers read everything in the background.
// benchOptions serve the round-trip benchmarks: their 1,000 clients all
// come from 127.0.0.1, so the cap on WebSockets per address is off.
var benchOptions = server.Options{WSPerAddress: -1}

func benchTables(b *testing.B, ts *testServer, tables, watchers int) []*player {
	ctx := context.Background()
	players := make([]*player, tables)
	for i := range tables {
		p := newPlayer(b, ts, fmt.Sprintf("P%d", i))
		tb, err := p.CreateTable(ctx, longSolo, map[string]string{"type": "me"})
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Connect(ctx, tb.ID); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Read(ctx); err != nil {
			b.Fatal(err)
		}
		players[i] = p
		for range watchers - 1 {
			w := wsclient.New(ts.URL)
			if err := w.Connect(ctx, tb.ID); err != nil {
				b.Fatal(err)
			}
			go func() {
				for { // like a browser in another process: read, do not decode here
					if _, _, err := w.Conn.Read(ctx); err != nil {
						return
					}
				}
			}()
			b.Cleanup(w.Close)
		}
		b.Cleanup(p.Close)
	}
	return players
}

// serverLatency returns the mean time the server spent on a player's
// action (receipt to broadcast, with the commit), from its /metrics.
func serverLatency(b *testing.B, ts *testServer) float64 {
	resp, err := http.Get(ts.Metrics + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var sum, count float64
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "farkle_action_latency_seconds_sum "); ok {
			sum, _ = strconv.ParseFloat(v, 64)
		}
		if v, ok := strings.CutPrefix(line, "farkle_action_latency_seconds_count "); ok {
			count, _ = strconv.ParseFloat(v, 64)
		}
	}
	if count == 0 {
		return 0
	}
	return 1000 * sum / count
}

func report(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(.5), "p50-ms")
	b.ReportMetric(q(.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
}

// BenchmarkActionRoundTrip1000Clients: 1,000 WebSocket clients on
// loopback (100 solo tables, each with its player and 9 watchers); one
// player at a time acts and waits for its update, which the server has
// committed to SQLite and broadcast to the table's 10 clients.
func BenchmarkActionRoundTrip1000Clients(b *testing.B) {
	ts := start(b, "", benchOptions)
	players := benchTables(b, ts, 100, 10)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		d, err := step(players[i%len(players)], ctx)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, d)
	}
	b.StopTimer()
	report(b, lat)
	b.ReportMetric(serverLatency(b, ts), "server-mean-ms")
}

// BenchmarkActionRoundTrip1000ClientsPaced is the same with all 100
// players acting at once, each every 250 ms (400 actions a second in all,
// far more than people clicking).
func BenchmarkActionRoundTrip1000ClientsPaced(b *testing.B) {
	ts := start(b, "", benchOptions)
	watchers := benchWatchers()
	tables := 100
	if n, err := strconv.Atoi(os.Getenv("FARKLE_BENCH_TABLES")); err == nil && n > 0 {
		tables = n // to compare
	}
	// b.N=2000x: 20 actions a player, 5 s
	benchRoundTrips(b, ts, benchTables(b, ts, tables, watchers), pacePeriod)
}

// BenchmarkActionRoundTrip1000ClientsSaturated is the same with all 100
// players acting at once, each as fast as its updates come back: a
// throughput test, where the round trip is mostly queueing.
func BenchmarkActionRoundTrip1000ClientsSaturated(b *testing.B) {
	ts := start(b, "", benchOptions)
	benchRoundTrips(b, ts, benchTables(b, ts, 100, benchWatchers()), 0)
}

// benchWatchers is the clients of each table of the round-trip benchmarks:
// 10, or FARKLE_BENCH_WATCHERS to compare (1: the player alone).
func benchWatchers() int {
	if n, err := strconv.Atoi(os.Getenv("FARKLE_BENCH_WATCHERS")); err == nil && n > 0 {
		return n
	}
	return 10
}

// benchRoundTrips has every player act b.N/len(players)+1 times at once,
// each every pace (0: as fast as its updates come back), and reports the
// round-trip latencies and the server's mean.
func benchRoundTrips(b *testing.B, ts *testServer, players []*player, pace time.Duration) {
	lat, _ := roundTrips(b, players, pace)
	report(b, lat)
	b.ReportMetric(serverLatency(b, ts), "server-mean-ms")
}

// roundTrips has every player act b.N/len(players)+1 times at once, each
// every pace (0: as fast as its updates come back), and returns the round
// trips and the time they all took.
func roundTrips(b *testing.B, players []*player, pace time.Duration) ([]time.Duration, time.Duration) {
	ctx := context.Background()
	var mu sync.Mutex
	lat := make([]time.Duration, 0, b.N)
	per := b.N/len(players) + 1
	b.ResetTimer()
	t0 := time.Now()
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, per)
			var tick <-chan time.Time
			if pace > 0 {
				t := time.NewTicker(pace)
				defer t.Stop()
				tick = t.C
			}
			for range per {
				if tick != nil {
					<-tick
				}
				d, err := step(p, ctx)
				if err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, d)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	el := time.Since(t0)
	b.StopTimer()
	return lat, el
}

// BenchmarkTablesPlayed plays b.N classic games to 10,000 between two
// steady bots at once, with no pause, and reports tables per second.
func BenchmarkTablesPlayed(b *testing.B) {
	ts := start(b, "", server.Options{MaxOpenTables: -1, MaxBotTables: -1})
	bot := map[string]string{"type": "bot", "level": "steady"}
	benchTablesPlayed(b, ts, "classic", bot, bot)
}

// benchTablesPlayed creates b.N tables of the rules with the seats (all
// bots) at once, waits until every one is over, and reports tables and
// actions per second.
func benchTablesPlayed(b *testing.B, ts *testServer, rules any, seats ...map[string]string) {
	ctx := context.Background()
	c := host(b, ts)
	b.ResetTimer()
	t0 := time.Now()
	for range b.N {
		if _, err := c.CreateTable(ctx, rules, seats...); err != nil {
			b.Fatal(err)
		}
	}
	actions := 0
	for {
		over, err := ts.DB.Tables(ctx, store.TableFilter{Status: []store.Status{store.Over}, Limit: b.N})
		if err != nil {
			b.Fatal(err)
		}
		if len(over) == b.N {
			for _, t := range over {
				actions += t.Actions
			}
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	el := time.Since(t0).Seconds()
	b.ReportMetric(float64(b.N)/el, "tables/s")
	b.ReportMetric(float64(actions)/el, "actions/s")
}

// pacePeriod is how often each player of the paced benchmark acts.
var pacePeriod = 250 * time.Millisecond

func init() {
	if d, err := time.ParseDuration(os.Getenv("FARKLE_BENCH_PACE")); err == nil {
		pacePeriod = d
	}
}
