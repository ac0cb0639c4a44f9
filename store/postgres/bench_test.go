package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// BenchmarkAppendAction measures the cost of one action's commit on
// PostgreSQL, as store/sqlite's benchmark of the same name does: one table
// appending serially (each action its own commit) and 64 tables appending
// in parallel.
//
//	FARKLE_TEST_POSTGRES=... go test ./store/postgres/ -run '^$' -bench AppendAction -benchmem
func BenchmarkAppendAction(b *testing.B) {
	b.Run("serial", func(b *testing.B) { benchAppend(b, 1) })
	b.Run("parallel64", func(b *testing.B) { benchAppend(b, 64) })
}

func benchAppend(b *testing.B, tables int) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	v, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		b.Fatal(err)
	}
	entry := json.RawMessage(v.Entry(0, engine.ThrowBy(0), nil))
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: game.Farkle, Rules: v.Rules(), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom(id)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	if tables == 1 {
		b.ResetTimer()
		for i := range b.N {
			if err := db.AppendAction(ctx, "t0", i+1, entry, nil); err != nil {
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
			if err := db.AppendAction(ctx, id, n, entry, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
