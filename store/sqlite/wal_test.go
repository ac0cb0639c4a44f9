package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// TestWALBounded writes 20,032 actions from 64 tables while readers query
// along, and checks the -wal file after every append: it stays
// under a bound (a little over 4 × WALLimit, where commits wait for a
// checkpoint) although far more than that is written through it.
func TestWALBounded(t *testing.T) {
	const (
		limit   = 1 << 20
		bound   = 6 * limit
		tables  = 64
		actions = 313 // per table: 20,032 in all
		readers = 4
	)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wal.db")
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{Synchronous: "NORMAL", WALLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: game.Farkle, Rules: rulesJSON("classic"), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom(id)}); err != nil {
			t.Fatal(err)
		}
	}
	var maxWAL atomic.Int64
	// Readers read as writes come (each append offers a read), so they
	// hold snapshots of the WAL all along without spinning on the CPU.
	poke := make(chan string, 64)
	var rd sync.WaitGroup
	var reads atomic.Int64
	for range readers {
		rd.Add(1)
		go func() {
			defer rd.Done()
			for id := range poke {
				if _, err := db.Table(ctx, id); err != nil {
					t.Error(err)
					return
				}
				if _, err := db.CountTables(ctx, store.TableFilter{Status: []store.Status{store.Playing}}); err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
			}
		}()
	}
	var wr sync.WaitGroup
	for i := range tables {
		wr.Add(1)
		go func() {
			defer wr.Done()
			id := fmt.Sprint("t", i)
			for n := 1; n <= actions; n++ {
				if err := db.AppendAction(ctx, id, n, engineEntry(), nil); err != nil {
					t.Error(err)
					return
				}
				select {
				case poke <- id:
				default:
				}
				if fi, err := os.Stat(path + "-wal"); err == nil {
					for {
						m := maxWAL.Load()
						if fi.Size() <= m || maxWAL.CompareAndSwap(m, fi.Size()) {
							break
						}
					}
				}
			}
		}()
	}
	wr.Wait()
	close(poke)
	rd.Wait()
	n, err := db.CountTables(ctx, store.TableFilter{Status: []store.Status{store.Playing}})
	if err != nil || n != tables {
		t.Fatalf("%d tables playing (%v), want %d", n, err, tables)
	}
	for i := range tables {
		if tb, err := db.Table(ctx, fmt.Sprint("t", i)); err != nil || tb.Actions != actions {
			t.Fatalf("table t%d: %d actions (%v), want %d", i, tb.Actions, err, actions)
		}
	}
	trunc := db.TruncateCheckpoints()
	t.Logf("largest WAL %d bytes (bound %d), %d TRUNCATE checkpoints, %d reads", maxWAL.Load(), bound, trunc, reads.Load())
	if maxWAL.Load() >= bound {
		t.Fatalf("the WAL reached %d bytes, over the bound of %d", maxWAL.Load(), bound)
	}
	if trunc == 0 {
		t.Fatal("no TRUNCATE checkpoint ran: the test wrote too little to exercise the bound")
	}
}
