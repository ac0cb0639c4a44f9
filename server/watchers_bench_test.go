package server_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/storetest"
)

// BenchmarkWatchers: one table (a solo game that does not end) with 2,000
// watchers on loopback (FARKLE_BENCH_WATCHERS to compare), its player
// acting every 50 ms (20 actions a second: far faster than people); each
// watcher notes when each update reaches it. Reports the delivery time
// (the action sent to the update read by a watcher) at p50, p99 and max
// over every update and every watcher, the player's own round trip at p99,
// and the process's CPU time an
// update (cpu-us/op: the server's and the watchers' reads together, steadier
// than the times on a shared machine), and fails unless every watcher got
// every update in order.
func BenchmarkWatchers(b *testing.B) {
	watchers := 2000
	if n, err := strconv.Atoi(os.Getenv("FARKLE_BENCH_WATCHERS")); err == nil && n > 0 {
		watchers = n
	}
	ts := start(b, "", benchOptions)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, tb := soloTable(b, ctx, ts, longSolo)
	// sent[k]: when the player sent the action of the k-th update (ns).
	sent := make([]atomic.Int64, b.N)
	got := make([][]time.Duration, watchers) // each watcher's delivery times, in order
	var ready, done sync.WaitGroup
	update := []byte(`{"type":"update"`)
	for i := range watchers {
		w := wsclient.New(ts.URL)
		if err := w.Connect(ctx, tb.ID); err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			welcomed := false
			mine := make([]time.Duration, 0, b.N)
			head := make([]byte, len(update))
			for len(mine) < b.N {
				// Like a browser in another process: read the type, do not
				// decode here (the watchers share the server's CPU).
				_, r, err := w.Conn.Reader(context.Background()) // never done: the library watches nothing (the close ends it)
				if err == nil {
					head = head[:cap(head)]
					var n int
					n, err = io.ReadFull(r, head)
					head = head[:n]
					if err == io.ErrUnexpectedEOF {
						err = nil
					}
					if err == nil {
						_, err = io.Copy(io.Discard, r)
					}
				}
				if err != nil {
					b.Errorf("watcher %d: %v after %d updates", i, err, len(mine))
					return
				}
				if !welcomed {
					welcomed = true
					ready.Done()
					continue
				}
				if bytes.Equal(head, update) {
					mine = append(mine, time.Duration(time.Now().UnixNano()-sent[len(mine)].Load()))
				}
			}
			got[i] = mine
		}()
	}
	ready.Wait()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	b.ResetTimer()
	cpu := storetest.ReportCPU(b)
	played := make([]time.Duration, 0, b.N) // the player's own round trips
	for k := range b.N {
		<-tick.C
		sent[k].Store(time.Now().UnixNano())
		d, err := step(p, ctx)
		if err != nil {
			b.Fatal(err)
		}
		played = append(played, d)
	}
	done.Wait()
	b.StopTimer()
	cpu()
	var all []time.Duration
	for i, mine := range got {
		if len(mine) != b.N {
			b.Fatalf("watcher %d got %d updates of %d", i, len(mine), b.N)
		}
		all = append(all, mine...)
	}
	slices.Sort(all)
	slices.Sort(played)
	q := func(all []time.Duration, f float64) float64 {
		return float64(all[int(f*float64(len(all)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(all, .5), "p50-ms")
	b.ReportMetric(q(all, .99), "p99-ms")
	b.ReportMetric(q(all, 1), "max-ms")
	b.ReportMetric(q(played, .99), "player-p99-ms")
}
