package sqlite

import (
	"context"
	"os"
	"strconv"
	"time"
)

// The automatic checkpoint is off (it would stall a commit on the database
// file's fsync). Instead a background goroutine copies the WAL into the
// database file with PASSIVE checkpoints, which never block anyone: every
// second, and as soon as the WAL passes half of Options.WALLimit. But a
// PASSIVE checkpoint cannot reset the WAL while the writer keeps writing or
// readers use it, so under a steady load the WAL would grow without end.
// When it passes WALLimit, the group commit, between two commits, runs a
// TRUNCATE checkpoint: most frames are already copied, so it only copies
// the rest, waits (at most checkpointWait) for readers of old snapshots to
// finish, and empties the file; commits pause meanwhile. If readers do not
// let go in time the next commits go on, and past 4 × WALLimit the
// group commit waits for them (at most hardWait): the WAL stays bounded.

// checkpointEvery is how often the WAL is copied into the database file.
const checkpointEvery = time.Second

// checkpointWait bounds how long a TRUNCATE checkpoint of the background
// goroutine holds commits back waiting for readers.
const checkpointWait = 200 * time.Millisecond

// hardWait bounds the wait of the group commit's own checkpoint.
const hardWait = 5 * time.Second

// walSize returns the size of the -wal file (0 if it does not exist).
func (db *DB) walSize() int64 {
	fi, err := os.Stat(db.path + "-wal")
	if err != nil {
		return 0
	}
	return fi.Size()
}

// checkpointer copies the WAL into the database file in the background
// until quit closes: PASSIVE every checkpointEvery and when nudged, and a
// TRUNCATE on a tick that finds the WAL past its limit (grown by writes
// other than actions while no action comes).
func (db *DB) checkpointer() {
	defer close(db.ckStopped)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-db.quitCk:
			return
		case <-db.nudge:
			db.checkpoint("PASSIVE", 0)
		case <-t.C:
			if db.walSize() >= db.opt.WALLimit {
				db.checkpoint("TRUNCATE", checkpointWait)
			} else {
				db.checkpoint("PASSIVE", 0)
			}
		}
	}
}

// afterCommit runs in the group commit after each commit (on the goroutine
// that committed the batch, before its appends are answered): when the WAL
// grew past half its limit it nudges the checkpointer to copy frames; past
// the limit it truncates the WAL before the next commit.
//
// The file only grows: once a checkpoint has copied every frame, the next
// commit writes the WAL again from its start, and the file keeps its size.
// So a file past half the limit says nothing of the frames in it; a file
// larger than after the last checkpoint (ckSize) does: they passed that
// size. (Nudged on its size alone, the checkpointer ran after every
// commit of a busy server, copying the same pages again each time and
// syncing the database file each time.)
func (db *DB) afterCommit() {
	size := db.walSize()
	if size < db.opt.WALLimit/2 {
		return
	}
	if size > db.ckSize.Load() {
		select {
		case db.nudge <- struct{}{}:
		default:
		}
	}
	if size < db.opt.WALLimit {
		return
	}
	if !db.checkpoint("TRUNCATE", checkpointWait) && db.walSize() >= 4*db.opt.WALLimit {
		db.checkpoint("TRUNCATE", hardWait)
	}
}

// checkpoint runs one checkpoint of the mode on the checkpoint connection,
// waiting at most wait for a busy database, and reports whether it
// completed.
func (db *DB) checkpoint(mode string, wait time.Duration) bool {
	ctx := context.Background()
	conn, err := db.ck.Conn(ctx)
	if err != nil {
		return false
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = `+strconv.FormatInt(wait.Milliseconds(), 10)); err != nil {
		return false
	}
	var busy, log, done int
	err = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &log, &done)
	ok := err == nil && busy == 0
	db.ckSize.Store(db.walSize())
	if ok && mode == "TRUNCATE" {
		db.truncated.Add(1)
	}
	return ok
}
