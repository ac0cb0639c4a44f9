package sqlite

import (
	"context"
	"os"
	"strconv"
	"time"
)

// The automatic checkpoint is off (it would stall a commit on the database
// file's fsync). Instead a background goroutine copies the WAL into the
// database file every second with a PASSIVE checkpoint, which never blocks
// anyone; but a PASSIVE checkpoint cannot reset the WAL while readers use
// it, so under a steady load of reads the WAL would grow without end. When
// the WAL passes Options.WALLimit the goroutine runs a TRUNCATE checkpoint,
// which waits (at most checkpointWait) for readers of old snapshots to
// finish, holding commits back meanwhile, then empties the file. If the
// WAL still reaches 4 × WALLimit (readers never let go, or the goroutine
// is starved) the group committer itself waits for a checkpoint before the
// next commit: the WAL stays bounded at the cost of a pause.

// checkpointEvery is how often the WAL is copied into the database file.
const checkpointEvery = time.Second

// checkpointWait bounds how long a TRUNCATE checkpoint of the background
// goroutine holds commits back waiting for readers.
const checkpointWait = 200 * time.Millisecond

// hardWait bounds the wait of the group committer's own checkpoint.
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
// until quit closes: PASSIVE every checkpointEvery, TRUNCATE when nudged
// or ticked with the WAL past its limit.
func (db *DB) checkpointer() {
	defer close(db.ckStopped)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-db.quit:
			return
		case <-t.C:
		case <-db.nudge:
		}
		if db.walSize() >= db.opt.WALLimit {
			db.checkpoint("TRUNCATE", checkpointWait)
		} else {
			db.checkpoint("PASSIVE", 0)
		}
	}
}

// afterCommit runs in the group committer after each commit: it nudges the
// checkpointer when the WAL passes its limit, and past 4 × the limit
// checkpoints itself before the next commit.
func (db *DB) afterCommit() {
	size := db.walSize()
	if size < db.opt.WALLimit {
		return
	}
	if size < 4*db.opt.WALLimit {
		select {
		case db.nudge <- struct{}{}:
		default:
		}
		return
	}
	db.checkpoint("TRUNCATE", hardWait)
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
	if ok && mode == "TRUNCATE" {
		db.truncated.Add(1)
	}
	return ok
}
