package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// BenchAppend measures the cost of one action's commit in s: with one
// table, each action appended after the last (its own commit); with more,
// as many appending at once, each at a table of its own, as a busy server
// does.
func BenchAppend(b *testing.B, s store.Store, tables int) {
	ctx := context.Background()
	v, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		b.Fatal(err)
	}
	entry := json.RawMessage(v.Entry(0, engine.ThrowBy(0), nil))
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := s.CreateTable(ctx, store.Table{ID: id, Kind: game.Farkle, Rules: v.Rules(), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom(id)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	defer ReportCPU(b)()
	if tables == 1 {
		b.ResetTimer()
		for i := range b.N {
			if err := s.AppendAction(ctx, "t0", i+1, entry, nil); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	var next atomic.Int64
	b.SetParallelism(max(1, tables/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint("t", (next.Add(1)-1)%int64(tables))
		for n := 1; pb.Next(); n++ {
			if err := s.AppendAction(ctx, id, n, entry, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// ReportCPU reports the process's CPU time (user and system, every
// goroutine's: the committer's too) per operation from now until the
// function it returns is called, as cpu-us/op: less moved than the wall
// time by other work on a shared machine.
func ReportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/float64(b.N), "cpu-us/op")
		}
	}
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
