package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/farkle/farkle/store"
)

// DamagedError is Open's refusal of a file that is damaged or is not a
// SQLite database at all.
type DamagedError struct {
	Path   string
	Detail string // what SQLite found, e.g. "database disk image is malformed"
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("sqlite: %s is damaged (%s): restore it from a backup, or move it aside to start empty; `sqlite3 %s .recover` may save its data",
		e.Path, e.Detail, e.Path)
}

// The primary result codes of SQLite that mean a damaged file.
const (
	sqliteCorrupt = 11 // SQLITE_CORRUPT: database disk image is malformed
	sqliteNotADB  = 26 // SQLITE_NOTADB: file is not a database
)

// isDamage reports whether err is SQLite's report of a damaged file.
func isDamage(err error) bool {
	var c interface{ Code() int }
	if !errors.As(err, &c) {
		return false
	}
	code := c.Code() & 0xff
	return code == sqliteCorrupt || code == sqliteNotADB
}

// damagedOr returns a *DamagedError for SQLite's report of a damaged file,
// else err.
func (db *DB) damagedOr(err error) error {
	if !isDamage(err) {
		return err
	}
	detail := err.Error()
	var c interface{ Code() int }
	if errors.As(err, &c) {
		// modernc's text is "MESSAGE (CODE)"; the message alone reads better.
		if m, ok := strings.CutSuffix(detail, fmt.Sprintf(" (%d)", c.Code())); ok {
			detail = m
		}
		if i := strings.LastIndex(detail, ": "); i >= 0 {
			detail = detail[i+2:]
		}
	}
	return &DamagedError{Path: db.path, Detail: detail}
}

// maxCheckLines is how many of the check's findings the error quotes.
const maxCheckLines = 3

// check runs Options.Check on the writer connection (opening the file) and
// refuses a damaged file.
func (db *DB) check(ctx context.Context) error {
	if err := db.W.PingContext(ctx); err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: open %s: %w", db.path, err))
	}
	pragma := ""
	switch db.opt.Check {
	case "off":
		return nil
	case "full":
		pragma = `PRAGMA integrity_check(` + fmt.Sprint(maxCheckLines) + `)`
	default:
		pragma = `PRAGMA quick_check(` + fmt.Sprint(maxCheckLines) + `)`
	}
	rows, err := db.W.QueryContext(ctx, pragma)
	if err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: check %s: %w", db.path, err))
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return db.damagedOr(fmt.Errorf("sqlite: check %s: %w", db.path, err))
		}
		if line != "ok" {
			found = append(found, line)
		}
	}
	if err := rows.Err(); err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: check %s: %w", db.path, err))
	}
	if len(found) > 0 {
		return &DamagedError{Path: db.path, Detail: "database disk image is malformed: " + strings.Join(found, "; ")}
	}
	return nil
}

// healthRoom is the fewest free pages (below Options.MaxBytes) of a
// healthy database: with less, the next writes fail as on a full disk.
const healthRoom = 8

// Health implements store.Store: it rewrites the one row of the health
// table in a transaction through the writer connection (so it waits its
// turn behind the group commit, and fails when writes fail: a full disk, a
// read-only or damaged file), checks that the database has room below
// Options.MaxBytes, then reads the row back through a reader.
func (db *DB) Health(ctx context.Context) error {
	closed := db.closing.Load()
	if closed {
		return store.Errorf(store.EINVALID, "the database is closed")
	}
	tx, err := db.W.BeginTx(ctx, nil)
	if err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: health: write: %w", err))
	}
	defer tx.Rollback()
	n, err := db.HealthWrite(ctx, tx)
	if err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: health: write: %w", err))
	}
	var pages, maxPages, free int64
	if err := tx.QueryRowContext(ctx, `SELECT * FROM pragma_page_count, pragma_max_page_count, pragma_freelist_count`).Scan(&pages, &maxPages, &free); err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: health: size: %w", err))
	}
	if room := maxPages - pages + free; room < healthRoom {
		return fmt.Errorf("sqlite: health: the database is full (%d of at most %d pages used)", pages-free, maxPages)
	}
	if err := tx.Commit(); err != nil {
		return db.damagedOr(fmt.Errorf("sqlite: health: commit: %w", err))
	}
	if err := db.HealthRead(ctx, n); err != nil {
		return db.damagedOr(err)
	}
	return nil
}
