package sqlite

import (
	"context"
	"encoding/binary"
	"os"
	"strconv"
	"time"
)

// The automatic checkpoint is off (it would stall a commit on the database
// file's fsync). Instead a background goroutine copies the WAL into the
// database file with PASSIVE checkpoints, which never block anyone: every
// second, and each time the WAL has grown by an eighth of
// Options.WALLimit. But a PASSIVE checkpoint cannot reset the WAL while
// the writer keeps writing or readers use it, so under a steady load the
// WAL would grow without end. When it holds WALLimit, the group commit,
// between two commits, runs a RESTART checkpoint: most frames are already
// copied, so it only copies the rest, waits (at most checkpointWait) for
// readers of old snapshots to finish, and the next commit writes the WAL
// again from its start; commits pause meanwhile. If readers do not let go
// in time the next commits go on, and past 4 × WALLimit the group commit
// waits for them (at most hardWait): the WAL stays bounded.
//
// The WAL's file is written over, not emptied: a TRUNCATE checkpoint's
// truncation frees its blocks and the next commits allocate them again,
// which costs the file system a journal entry at each of their syncs; on
// ext4 mounted with discard the truncation of a 16 MiB WAL alone took 13
// ms, and the commits' pause 10 to 32 ms against 1 to 7 for a RESTART.
// journal_size_limit keeps the file at WALLimit at most once the WAL
// restarts; Close truncates it. So the WAL's fill is not the file's size
// but the frames it holds, read from SQLite's wal-index (walFill); where
// that cannot be read the file's size stands for it, and the WAL is
// truncated as before (resetMode).

// checkpointEvery is how often the WAL is copied into the database file.
const checkpointEvery = time.Second

// checkpointWait bounds how long a RESTART checkpoint holds commits back
// waiting for readers.
const checkpointWait = 200 * time.Millisecond

// hardWait bounds the wait of the group commit's own checkpoint.
const hardWait = 5 * time.Second

// walFill returns the bytes of the frames the WAL holds: mxFrame and
// szPage of the wal-index header at the start of the -shm file (SQLite's
// documented WAL-index format: two copies of a 48-byte header, which a
// reader uses only when they are the same, as SQLite's own readers do).
// Where the header cannot be read (no -shm file, or its two copies differ
// three times in a row: a writer was changing them) it returns the -wal
// file's size, at least the fill. One read a commit: the checkpointer
// looks after a -shm file held that is no longer the database's
// (refreshShm, and the file's size past 4 × WALLimit).
func (db *DB) walFill() int64 {
	if fill, ok := db.indexFill(); ok {
		return fill
	}
	return db.walSize()
}

// walSize returns the size of the -wal file (0 if it does not exist).
func (db *DB) walSize() int64 {
	fi, err := os.Stat(db.path + "-wal")
	if err != nil {
		return 0
	}
	return fi.Size()
}

// indexFill reads the WAL's fill from the wal-index header (walFill).
func (db *DB) indexFill() (int64, bool) {
	shm := db.shm.Load()
	if shm == nil {
		return 0, false
	}
	var h [96]byte
	for range 3 {
		if _, err := shm.ReadAt(h[:], 0); err == nil && [48]byte(h[:48]) == [48]byte(h[48:]) && h[12] == 1 {
			frames := int64(binary.NativeEndian.Uint32(h[16:]))
			page := int64(binary.NativeEndian.Uint16(h[14:]))
			if page == 1 {
				page = 65536
			}
			return frames * (walFrameHeader + page), true
		}
	}
	return 0, false
}

// refreshShm opens the -shm file again if the one held is no longer it:
// SQLite deletes it when the last connection to the database closes and
// makes a new one with the next (the pools keep connections open, so this
// is for a writer's connection that failed and was replaced).
func (db *DB) refreshShm() {
	if db.shm.Load() == nil || db.holdsShm(db.path+"-shm") {
		return
	}
	if f, err := os.Open(db.path + "-shm"); err == nil {
		if old := db.shm.Swap(f); old != nil {
			old.Close()
		}
	}
}

// holdsShm reports whether the -shm file held is the file at path.
func (db *DB) holdsShm(path string) bool {
	held := db.shm.Load()
	if held == nil {
		return false
	}
	hi, err1 := held.Stat()
	ci, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(hi, ci)
}

// walFrameHeader is the size of a WAL frame's header, before its page.
const walFrameHeader = 24

// checkpointer copies the WAL into the database file in the background
// until quit closes: PASSIVE every checkpointEvery and when nudged, and a
// reset on a tick that finds the WAL past its limit (grown by writes
// other than actions while no action comes, or read from a stale -shm
// file).
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
			// A stale -shm file is replaced, and meanwhile the file's
			// size past 4 × WALLimit resets the WAL whatever it says.
			db.refreshShm()
			if db.walFill() >= db.opt.WALLimit || db.walSize() > 4*db.opt.WALLimit {
				db.checkpoint(db.resetMode(), checkpointWait)
			} else {
				db.checkpoint("PASSIVE", 0)
			}
		}
	}
}

// afterCommit runs in the group commit after each commit (on the goroutine
// that committed the batch, before its appends are answered): each time
// the WAL has grown by an eighth of its limit since the last checkpoint it
// nudges the checkpointer to copy frames; past the limit it restarts the
// WAL before the next commit. (Nudged after every commit that added
// frames, the checkpointer ran up to 80 times a second on a busy server,
// copying the same pages again each time and syncing the database file
// each time.)
func (db *DB) afterCommit() {
	fill := db.walFill()
	last := db.ckFill.Load()
	if fill < last {
		last = 0 // the WAL restarted since
	}
	if fill-last >= db.opt.WALLimit/8 {
		select {
		case db.nudge <- struct{}{}:
		default:
		}
	}
	if fill < db.opt.WALLimit {
		return
	}
	if !db.checkpoint(db.resetMode(), checkpointWait) && db.walFill() >= 4*db.opt.WALLimit {
		db.checkpoint(db.resetMode(), hardWait)
	}
}

// resetMode is the checkpoint that resets the WAL: RESTART, which leaves
// the file to be written over, where walFill reads the frames; TRUNCATE,
// which empties it, where walFill can only read its size.
func (db *DB) resetMode() string {
	if db.shm.Load() == nil {
		return "TRUNCATE"
	}
	return "RESTART"
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
	db.ckFill.Store(db.walFill())
	if ok && mode != "PASSIVE" {
		db.resets.Add(1)
	}
	return ok
}
