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
// checkpoint) although far more than that is written through it, and
// once it has reached the limit it is written over, never emptied (a
// truncated file's blocks are allocated again by the next commits, whose
// syncs then cost the file system more).
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
	var maxWAL, emptied atomic.Int64
	var filled atomic.Bool
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
					if fi.Size() >= limit {
						filled.Store(true)
					} else if fi.Size() == 0 && filled.Load() {
						emptied.Add(1)
					}
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
	restarts, restart := db.ResetCheckpoints()
	t.Logf("largest WAL %d bytes (bound %d), %d RESTART checkpoints, %d reads", maxWAL.Load(), bound, restarts, reads.Load())
	if !restart {
		t.Fatal("the WAL is reset by TRUNCATE checkpoints: its wal-index could not be read")
	}
	if maxWAL.Load() >= bound {
		t.Fatalf("the WAL reached %d bytes, over the bound of %d", maxWAL.Load(), bound)
	}
	if restarts == 0 {
		t.Fatal("no RESTART checkpoint ran: the test wrote too little to exercise the bound")
	}
	if !filled.Load() {
		t.Fatal("the WAL's file never reached the limit")
	}
	if n := emptied.Load(); n > 0 {
		t.Fatalf("the WAL's file was seen empty %d times after it reached the limit: truncated, not written over", n)
	}
}

// TestWALFill: the WAL's fill read from the wal-index is its frames (as a
// checkpoint counts them) times a frame's size, and falls back to a few
// frames when the WAL restarts, although its file keeps its size.
func TestWALFill(t *testing.T) {
	ctx := context.Background()
	db, path := walDB(t)
	frames := func() int64 {
		var busy, log, done int64
		if err := db.W.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &log, &done); err != nil {
			t.Fatal(err)
		}
		return log
	}
	for n := 1; n <= 200; n++ {
		if err := db.AppendAction(ctx, "f", n, engineEntry(), nil); err != nil {
			t.Fatal(err)
		}
	}
	fill := db.WALFill()
	f := frames()
	if f == 0 || fill != f*(4096+24) {
		t.Fatalf("fill %d bytes for %d frames of 4,096-byte pages: want %d", fill, f, f*(4096+24))
	}
	var busy, log, done int64
	if err := db.W.QueryRow(`PRAGMA wal_checkpoint(RESTART)`).Scan(&busy, &log, &done); err != nil || busy != 0 {
		t.Fatalf("RESTART: busy %d, %v", busy, err)
	}
	if err := db.AppendAction(ctx, "f", 201, engineEntry(), nil); err != nil {
		t.Fatal(err)
	}
	after := db.WALFill()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if f2 := frames(); after != f2*(4096+24) || f2 >= f {
		t.Fatalf("after a restart and one action: fill %d for %d frames", after, f2)
	}
	if fi.Size() < fill {
		t.Fatalf("the WAL's file is %d bytes after its restart, less than the %d written before: it was truncated", fi.Size(), fill)
	}
}

// walDB opens a database whose WAL the test watches (a limit no test
// reaches) with a table "f" waiting for its actions; it is closed when the
// test ends.
func walDB(t *testing.T) (*sqlite.DB, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wal.db")
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{Synchronous: "NORMAL", WALLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.CreateTable(ctx, store.Table{ID: "f", Kind: game.Farkle, Rules: rulesJSON("classic"), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom("f")}); err != nil {
		t.Fatal(err)
	}
	return db, path
}

// TestRefreshShm: when the -shm file the store reads the WAL's fill from
// is no longer the database's (SQLite made a new one), the checkpointer's
// refresh opens the database's again, and the fill read is the WAL's
// frames once more, not the stale file's.
func TestRefreshShm(t *testing.T) {
	ctx := context.Background()
	db, path := walDB(t)
	// A stale wal-index: a copy of the header as it is now, in another file.
	data, err := os.ReadFile(path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(t.TempDir(), "stale-shm")
	if err := os.WriteFile(stale, data[:96], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := db.HoldShm(stale); err != nil {
		t.Fatal(err)
	}
	staleFill := db.WALFill()
	for n := 1; n <= 50; n++ {
		if err := db.AppendAction(ctx, "f", n, engineEntry(), nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := db.WALFill(); got != staleFill {
		t.Fatalf("the stale index read %d, then %d: it is not the stale file", staleFill, got)
	}
	db.RefreshShm()
	if !db.HoldsShm(path + "-shm") {
		t.Fatal("after the refresh the store still reads another -shm file than the database's")
	}
	if got := db.WALFill(); got <= staleFill {
		t.Fatalf("after 50 actions the fill read is %d, the stale %d", got, staleFill)
	}
}
