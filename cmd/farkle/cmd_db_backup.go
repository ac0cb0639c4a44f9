package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/farkle/farkle/store/postgres"
)

const dbBackupHelp = `farkle db backup --to FILE copies the SQLite database --from (the one
farkle serve uses: $FARKLE_DB, else farkle.db) to FILE while the game goes
on: SQLite's VACUUM INTO writes a consistent snapshot of the database as it
was when the copy began, in one read transaction that holds up no player.
The copy is written beside FILE under a temporary name, checked as farkle
db check checks (integrity, schema, every finished game's record), made
durable, and only then renamed to FILE; an existing FILE is kept unless
--force. A PostgreSQL database is backed up with pg_dump
(docs/OPERATIONS.md).`

func runDBBackup(ctx context.Context, e *env, args []string) error {
	c := dbCommand("backup")
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.db.backup.details", dbBackupHelp))
	from := fs.String("from", "farkle.db", "the database to back up: the SQLite file farkle serve uses; $"+dbEnv+" when not given")
	to := fs.String("to", "", "the file to write the backup to")
	force := fs.Bool("force", false, "replace FILE if it exists")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (db backup takes only flags)", fs.Arg(0))
	}
	if v := e.getenv(dbEnv); v != "" && !flagGiven(fs, "from") {
		*from = v
	}
	if *to == "" {
		return usagef("db backup needs --to FILE")
	}
	if postgres.IsAddress(*from) {
		return usagef("--from %s: farkle db backup copies a SQLite file; back up PostgreSQL with pg_dump (docs/OPERATIONS.md)", dbName(*from))
	}
	src, err := os.Stat(*from)
	if err != nil || !src.Mode().IsRegular() {
		return usagef("--from %s: no such database file", *from)
	}
	if dst, err := os.Stat(*to); err == nil {
		if os.SameFile(src, dst) {
			return usagef("--to %s is the database itself", *to)
		}
		if !dst.Mode().IsRegular() {
			return usagef("--to %s exists and is not a file", *to)
		}
		if !*force {
			return usagef("--to %s exists: pass --force to replace it", *to)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return usagef("--to %s: %v", *to, err)
	}
	start := time.Now()
	size, res, err := backupSQLite(ctx, *from, *to)
	if err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(e.stdout, "farkle: backed up %s to %s (%d bytes in %v): %s, %d tables, %d finished games, every record verified\n",
		*from, *to, size, took.Round(time.Millisecond), res.schema, res.tables, res.over)
	return nil
}

// backupSQLite writes a consistent snapshot of the SQLite database at
// from to the file to, atomically: a temporary file beside it, checked,
// synced and renamed. It returns the size of the backup and what its check
// found.
func backupSQLite(ctx context.Context, from, to string) (int64, checked, error) {
	var res checked
	dir := filepath.Dir(to)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(to)+".tmp-*")
	if err != nil {
		return 0, res, fmt.Errorf("backup: %w", err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	// VACUUM INTO refuses a file that exists and is not empty; an
	// empty one it fills.
	done := false
	defer func() {
		if !done {
			os.Remove(tmpName)
		}
	}()
	raw, err := openSQLiteConn(from, false)
	if err != nil {
		return 0, res, err
	}
	defer raw.Close()
	if err := sqliteIntegrity(ctx, raw, from); err != nil {
		return 0, res, err
	}
	if _, err := raw.ExecContext(ctx, `VACUUM INTO ?`, tmpName); err != nil {
		return 0, res, fmt.Errorf("backup of %s: %w", from, err)
	}
	// VACUUM INTO writes a file in rollback-journal mode; the database
	// farkle serve keeps is in WAL mode, and so is the backup, ready to
	// take its place.
	if err := setWAL(ctx, tmpName); err != nil {
		return 0, res, err
	}
	if res, err = checkDatabase(ctx, tmpName, nil); err != nil {
		return 0, res, fmt.Errorf("the backup of %s does not check: %w", from, err)
	}
	if err := syncFile(tmpName); err != nil {
		return 0, res, err
	}
	if err := os.Rename(tmpName, to); err != nil {
		return 0, res, fmt.Errorf("backup: %w", err)
	}
	done = true
	if err := syncFile(dir); err != nil {
		return 0, res, err
	}
	st, err := os.Stat(to)
	if err != nil {
		return 0, res, err
	}
	return st.Size(), res, nil
}

// setWAL puts the SQLite file at path in WAL mode.
func setWAL(ctx context.Context, path string) error {
	db, err := openSQLiteConn(path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode); err != nil || mode != "wal" {
		return errors.Join(err, fmt.Errorf("backup: %s: journal mode %q, want wal", path, mode))
	}
	return db.Close()
}

// syncFile flushes a file or directory to disk.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("backup: sync %s: %w", name, err)
	}
	return nil
}
