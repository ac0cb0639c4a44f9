// Package sqlstore is the one implementation of store.Store over
// database/sql: store/sqlite and store/postgres open their database, run
// their migrations and add what truly differs (SQLite's group commit and
// WAL care; PostgreSQL's leases and change hints), and this package does
// the rest, the same statements for both, through a Dialect.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// DB is the store over a database. Its writes go through W, its reads
// through R (the same pool on PostgreSQL; SQLite's one writer connection
// and its readers).
type DB struct {
	W, R *sql.DB
	D    *Dialect
	// Now is the store's clock.
	Now func() time.Time
	// Changed, if set, is called in the transaction of every write that
	// changes a table's status, seats or actions, with its actions and
	// status after the write (PostgreSQL's change hints and leases).
	Changed func(ctx context.Context, tx *sql.Tx, id string, actions int, st store.Status) error
	// Prepared, if set, keeps the statements of exec, row and all
	// prepared (SQLite's; nil on PostgreSQL, whose driver keeps them).
	Prepared *Prepared
}

// New returns the store over w and r in dialect d. It panics if d lacks
// a word or function the store's statements need (a mistake in the
// backend's code, not in its data).
func New(w, r *sql.DB, d *Dialect) *DB {
	if err := d.check(); err != nil {
		panic(err)
	}
	return &DB{W: w, R: r, D: d, Now: time.Now}
}

// Errorf wraps err as the database's failure at what: "sqlite: what: err".
func (db *DB) Errorf(what string, err error) error {
	return fmt.Errorf("%s: %s: %w", db.D.Name, what, err)
}

// fail is err as it is if it is a *store.Error or nil, else Errorf.
func (db *DB) fail(what string, err error) error {
	if err == nil || store.Code(err) != "" {
		return err
	}
	return db.Errorf(what, err)
}

// InTx runs fn in a transaction of the writer and commits it; a
// *store.Error from fn is returned as it is, any other error wrapped with
// what.
func (db *DB) InTx(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	tx, err := db.W.BeginTx(ctx, nil)
	if err != nil {
		return db.Errorf(what, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return db.fail(what, err)
	}
	return db.fail(what, tx.Commit())
}

// querier is what a pool and a transaction both do.
type querier interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// Scanner is a row to scan: *sql.Row or *sql.Rows.
type Scanner interface{ Scan(...any) error }

// exec runs the statement q (as written for the Dialect) on x.
func (db *DB) exec(ctx context.Context, x querier, q string, args ...any) (sql.Result, error) {
	if s := db.stmt(ctx, x, q); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return x.ExecContext(ctx, db.D.SQL(q), args...)
}

// row runs the query q on x and returns its first row.
func (db *DB) row(ctx context.Context, x querier, q string, args ...any) *sql.Row {
	if s := db.stmt(ctx, x, q); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return x.QueryRowContext(ctx, db.D.SQL(q), args...)
}

// query runs the query q on x.
func (db *DB) query(ctx context.Context, x querier, q string, args ...any) (*sql.Rows, error) {
	if s := db.stmt(ctx, x, q); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return x.QueryContext(ctx, db.D.SQL(q), args...)
}

// count runs a query of one number on x.
func (db *DB) count(ctx context.Context, x querier, q string, args ...any) (int, error) {
	var n int
	err := db.row(ctx, x, q, args...).Scan(&n)
	return n, err
}

// all runs the query q on x and scans each row with scan.
func all[T any](ctx context.Context, db *DB, x querier, scan func(Scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.query(ctx, x, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// readAll is all on the readers, its error wrapped with what.
func readAll[T any](ctx context.Context, db *DB, what string, scan func(Scanner) (T, error), q string, args ...any) ([]T, error) {
	out, err := all(ctx, db, db.R, scan, q, args...)
	if err != nil {
		return nil, db.Errorf(what, err)
	}
	return out, nil
}

func scanString(s Scanner) (string, error) {
	var v string
	err := s.Scan(&v)
	return v, err
}

// lock takes the advisory lock (space, key) until tx ends, where the
// database has them.
func (db *DB) lock(ctx context.Context, tx *sql.Tx, space int32, key string) error {
	if db.D.Lock == "" {
		return nil
	}
	_, err := db.exec(ctx, tx, db.D.Lock, space, key)
	return err
}

// The first keys of the advisory locks (lock): of a table's chat and
// rating, of an owner's challenges, of a blocker's blocks, of the names
// of accounts.
const (
	chatLock      = 0x63686174 // "chat"
	rateLock      = 0x72617465 // "rate"
	challengeLock = 0x63657265 // "cere"
	blockLock     = 0x626c6f63 // "bloc"
	followLock    = 0x666f6c6c // "foll"
	nameLock      = 0x6e616d65 // "name"
)

// changed calls db.Changed, if set.
func (db *DB) changed(ctx context.Context, tx *sql.Tx, id string, n int, st store.Status) error {
	if db.Changed == nil {
		return nil
	}
	return db.Changed(ctx, tx, id, n, st)
}

// notFound is err as ENOTFOUND (saying msg) if it is sql.ErrNoRows.
func notFound(err error, format string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.Errorf(store.ENOTFOUND, format, args...)
	}
	return err
}

// unixOrZero is t in Unix nanoseconds, 0 for the zero time.
func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// timeOrZero is the inverse of unixOrZero.
func timeOrZero(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// Health implements store.Store: it rewrites the one row of the health
// table and reads it back.
func (db *DB) Health(ctx context.Context) error {
	var n int64
	err := db.InTx(ctx, "health: write", func(tx *sql.Tx) error {
		var err error
		n, err = db.HealthWrite(ctx, tx)
		return err
	})
	if err != nil {
		return err
	}
	return db.HealthRead(ctx, n)
}

// HealthWrite rewrites the row of the health table in tx and returns its
// count.
func (db *DB) HealthWrite(ctx context.Context, tx *sql.Tx) (int64, error) {
	var n int64
	err := db.row(ctx, tx, `INSERT INTO health (id, n, at) VALUES (1, 1, ?)
		ON CONFLICT (id) DO UPDATE SET n = health.n + 1, at = excluded.at RETURNING n`, db.Now().UnixNano()).Scan(&n)
	return n, err
}

// HealthRead reads the row of the health table back through a reader:
// an error unless its count is at least n.
func (db *DB) HealthRead(ctx context.Context, n int64) error {
	var got int64
	if err := db.row(ctx, db.R, `SELECT n FROM health WHERE id = 1`).Scan(&got); err != nil {
		return db.Errorf("health: read", err)
	}
	if got < n {
		return fmt.Errorf("%s: health: read %d back after writing %d", db.D.Name, got, n)
	}
	return nil
}

// fmtErr is an error of the format.
func fmtErr(format string, args ...any) error { return fmt.Errorf(format, args...) }
