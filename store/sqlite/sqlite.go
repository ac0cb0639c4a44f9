package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is a store.Store in one SQLite file: the one SQL store
// (store/sqlstore) over a single writer connection (W) and readers (R),
// with what SQLite alone needs: its file's checks, the group commit of
// actions and the care of its WAL.
type DB struct {
	*sqlstore.DB
	path string
	opt  Options
	ck   *sql.DB // checkpoints, beside the writer

	group    *sqlstore.Group       // the group commit of actions
	appendSt *sqlstore.AppendStmts // its most common append, prepared once (nil read-only)
	closing  atomic.Bool           // Close was called
	quitCk   chan struct{}         // closed by Close: the checkpointer stops

	nudge     chan struct{} // the WAL passed Options.WALLimit: checkpoint now
	ckStopped chan struct{}
	resets    atomic.Int64            // completed checkpoints that reset the WAL, for tests
	ckFill    atomic.Int64            // the WAL's fill after the last checkpoint (wal.go)
	shm       atomic.Pointer[os.File] // the -shm file, read for the WAL's fill (nil: not open; wal.go)
}

var _ store.Store = (*DB)(nil)

// Open opens (creating if needed) the database file at path with the
// default Options (synchronous=FULL, a quick check of the file, a bounded
// WAL) and runs the migrations it lacks.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options. It refuses a damaged file (or one that is
// not a database) with a *DamagedError naming the file and what to do.
func OpenWith(ctx context.Context, path string, opt Options) (*DB, error) {
	if path == "" {
		return nil, store.Errorf(store.EINVALID, "empty database path")
	}
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	dsn := func(extra string) string {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous("+opt.Synchronous+")")
		q.Add("_pragma", "wal_autocheckpoint(0)")
		q.Add("_pragma", "foreign_keys(ON)")
		q.Add("_pragma", "journal_size_limit("+strconv.FormatInt(opt.WALLimit, 10)+")")
		if opt.MaxBytes > 0 {
			q.Add("_pragma", "max_page_count("+strconv.FormatInt(max(opt.MaxBytes/4096, 1), 10)+")")
		}
		q.Add("_txlock", "immediate")
		if opt.ReadOnly {
			q.Add("mode", "ro")
		}
		if extra != "" {
			q.Add("_pragma", extra)
		}
		return "file:" + path + "?" + q.Encode()
	}
	w, err := sql.Open("sqlite", dsn(""))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	db := &DB{DB: sqlstore.New(w, nil, dialect), path: path, opt: opt}
	if err := db.check(ctx); err != nil {
		w.Close()
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		w.Close()
		return nil, db.damagedOr(err)
	}
	if !opt.ReadOnly {
		if err := db.FillSkeletons(ctx); err != nil {
			w.Close()
			return nil, err
		}
	}
	r, err := sql.Open("sqlite", dsn("query_only(ON)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	db.R = r
	db.Prepared = sqlstore.NewPrepared()
	ck, err := sql.Open("sqlite", dsn(""))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	ck.SetMaxOpenConns(1)
	db.ck = ck
	if !opt.ReadOnly {
		if db.appendSt, err = db.PrepareAppend(ctx); err != nil {
			w.Close()
			r.Close()
			ck.Close()
			return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
	}
	if shm, err := os.Open(path + "-shm"); err == nil {
		db.shm.Store(shm) // made by the connections above; without it the WAL's file size stands for its fill
	}
	db.group = sqlstore.NewGroup(db.commitBatch)
	db.quitCk = make(chan struct{})
	db.nudge = make(chan struct{}, 1)
	db.ckStopped = make(chan struct{})
	go db.checkpointer()
	return db, nil
}

// Close commits the actions already queued, stops the group commit and
// closes the database; later calls fail with EINVALID. Closing twice is a
// no-op.
func (db *DB) Close() error {
	if !db.closing.CompareAndSwap(false, true) {
		return nil
	}
	db.group.Close()
	close(db.quitCk)
	<-db.ckStopped
	db.checkpoint("TRUNCATE", hardWait)
	if shm := db.shm.Swap(nil); shm != nil {
		shm.Close()
	}
	var errSt error
	if db.appendSt != nil {
		errSt = db.appendSt.Close()
	}
	return errors.Join(errSt, db.Prepared.Close(), db.ck.Close(), db.R.Close(), db.W.Close())
}

// migrate runs every embedded migration not yet recorded, each in its own
// transaction together with its schema_migrations row. Foreign keys are off
// while they run (a migration may rebuild a table others refer to, as
// SQLite's documented procedure requires) and checked before each commit.
// When none is due nothing is written, so an up-to-date read-only file
// opens.
func (db *DB) migrate(ctx context.Context) error {
	conn, err := db.W.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlite: open %s: %w", db.path, err)
	}
	defer conn.Close()
	var have int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&have); err != nil {
		return fmt.Errorf("sqlite: open %s: %w", db.path, err)
	}
	if have == 0 {
		if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`); err != nil {
			return fmt.Errorf("sqlite: migrations table: %w", err)
		}
	}
	done := map[int]bool{}
	rows, err := conn.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return fmt.Errorf("sqlite: migrations: %w", err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: migrations: %w", err)
		}
		done[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlite: migrations: %w", err)
	}
	ms, err := sqlstore.Migrations(migrations)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	fkOff := false
	defer func() {
		if fkOff {
			_, _ = conn.ExecContext(context.Background(), `PRAGMA foreign_keys = ON`)
		}
	}()
	for _, m := range ms {
		v, base := m.Version, m.Name
		if done[v] {
			continue
		}
		if db.opt.ReadOnly {
			return fmt.Errorf("sqlite: %s is opened read-only but migration %s is due", db.path, base)
		}
		body, err := migrations.ReadFile(m.Path)
		if err != nil {
			return err
		}
		if !fkOff {
			if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
				return fmt.Errorf("sqlite: migration %s: %w", base, err)
			}
			fkOff = true
		}
		if err := db.migrateOne(ctx, conn, v, base, string(body)); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) migrateOne(ctx context.Context, conn *sql.Conn, v int, name, body string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", name, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, v).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", name, err)
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", name, err)
	}
	fk, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", name, err)
	}
	bad := fk.Next()
	fk.Close()
	if bad {
		return fmt.Errorf("sqlite: migration %s: it would break a foreign key; nothing was changed", name)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`, v, name, db.Now().UnixNano()); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", name, err)
	}
	return tx.Commit()
}

// GroupCommits implements store.GroupCommitter.
func (db *DB) GroupCommits() (batches, actions int64) { return db.group.Stats() }

// AppendAction implements store.Store. Actions arriving together are
// committed in one transaction (group commit, sqlstore.Group), each under
// its own savepoint, so one append's conflict does not undo another's; a
// call returns once its action is durable.
func (db *DB) AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	return db.group.Append(ctx, tableID, n, entry, fin)
}

// commitBatch commits a batch of appends in one transaction and returns
// each one's error. The most common append (an action that does not end
// the game, at a table in play) is two statements prepared once, checked
// by the update itself, which writes nothing when they fail; any other
// append is written under a savepoint of its own, so that one append's
// refusal does not undo another's.
func (db *DB) commitBatch(batch []*sqlstore.Append) []error {
	errs := make([]error, len(batch))
	fail := func(err error) []error {
		for i := range errs {
			errs[i] = fmt.Errorf("sqlite: append action: %w", err)
		}
		return errs
	}
	ctx := context.Background()
	tx, err := db.W.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	now := db.Now().UnixNano()
	var st *sqlstore.AppendStmts
	if db.appendSt != nil {
		st = db.appendSt.In(ctx, tx)
	}
	for i, a := range batch {
		if st != nil {
			ok, err := db.AppendPlaying(ctx, tx, st, a, now)
			if err != nil {
				return fail(err)
			}
			if ok {
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT a`); err != nil {
			return fail(err)
		}
		errs[i] = db.AppendIn(ctx, tx, a, now)
		if errs[i] != nil && store.Code(errs[i]) == "" {
			// The database failed (a full disk, an I/O error), not the
			// append: SQLite may have rolled the whole transaction back,
			// so the batch fails with the cause.
			return fail(errs[i])
		}
		if errs[i] != nil {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO a`); err != nil {
				return fail(err)
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE a`); err != nil {
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	db.afterCommit()
	return errs
}
