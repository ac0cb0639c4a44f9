package sqlite

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// TestRefreshShm: when the -shm file the store reads the WAL's fill from
// is no longer the database's (SQLite made a new one), the checkpointer's
// refresh opens the database's again, and the fill read is the WAL's
// frames once more, not the stale file's.
func TestRefreshShm(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shm.db")
	db, err := OpenWith(ctx, path, Options{Synchronous: "NORMAL", WALLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateTable(ctx, store.Table{ID: "r", Kind: game.Farkle, Rules: json.RawMessage(`{"base":"classic"}`), Seats: []store.Seat{{Name: "A"}}, Seed: dice.SeedFrom("r")}); err != nil {
		t.Fatal(err)
	}
	// A stale wal-index: a copy of the header as it is now, in another file.
	data, err := os.ReadFile(path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(t.TempDir(), "stale-shm")
	if err := os.WriteFile(stale, data[:96], 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(stale)
	if err != nil {
		t.Fatal(err)
	}
	db.shm.Swap(f).Close()
	staleFill := db.walFill()
	for n := 1; n <= 50; n++ {
		if err := db.AppendAction(ctx, "r", n, json.RawMessage(`{"n":1}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := db.walFill(); got != staleFill {
		t.Fatalf("the stale index read %d, then %d: it is not the stale file", staleFill, got)
	}
	db.refreshShm()
	held, err := db.shm.Load().Stat()
	if err != nil {
		t.Fatal(err)
	}
	cur, err := os.Stat(path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(held, cur) {
		t.Fatal("after the refresh the store still reads another -shm file than the database's")
	}
	if got := db.walFill(); got <= staleFill {
		t.Fatalf("after 50 actions the fill read is %d, the stale %d", got, staleFill)
	}
}
