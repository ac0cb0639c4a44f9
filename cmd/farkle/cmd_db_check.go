package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/schollz/progressbar/v3"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/sqlite"
)

const dbCheckHelp = `farkle db check DB checks the web game's database DB (a SQLite file, a
backup made by farkle db backup, or a PostgreSQL URL postgres://…) without
changing it:

  - a SQLite file's integrity (PRAGMA integrity_check); in PostgreSQL,
    that every action belongs to a table;
  - its schema: every migration of this farkle applied and none unknown, and
    (SQLite) every table, column and index that of a new database;
  - every finished game: its record verifies (the seed against its
    commitment, every throw replayed), and the stored outcome and number of
    actions are the replay's.

It may run while farkle serve uses the database. Exit status 0: all is well;
1: the first problem found is printed.`

func runDBCheck(ctx context.Context, e *env, args []string) error {
	c := dbCommand("check")
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.db.check.details", dbCheckHelp))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("db check takes one database: a SQLite file or a postgres:// URL")
	}
	addr := fs.Arg(0)
	var bar io.Writer
	if e.terminal {
		bar = e.stderr
	}
	res, err := checkDatabase(ctx, addr, bar)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "farkle: %s is sound: %s, %d tables, %d finished games, every record verified\n",
		dbName(addr), res.schema, res.tables, res.over)
	return nil
}

// checked is what a check of a database found.
type checked struct {
	schema string // "schema at migration 18 of 18", etc.
	tables int    // tables of every status
	over   int    // finished games, each verified
}

// checkDatabase checks the database at addr (see dbCheckHelp); progress,
// if not nil, shows a bar of the records verified.
func checkDatabase(ctx context.Context, addr string, progress io.Writer) (checked, error) {
	if postgres.IsAddress(addr) {
		return checkPostgres(ctx, addr, progress)
	}
	return checkSQLite(ctx, addr, progress)
}

// openSQLiteRaw opens the SQLite file at path for reading, without
// migrating or checkpointing anything.
func openSQLiteRaw(path string) (*sql.DB, error) { return openSQLiteConn(path, true) }

// openSQLiteConn opens the SQLite file at path as it is; queryOnly refuses
// every write. (VACUUM INTO, which writes only its target, needs a
// connection that may write.)
func openSQLiteConn(path string, queryOnly bool) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	if queryOnly {
		q.Add("_pragma", "query_only(ON)")
	}
	return sql.Open("sqlite", "file:"+path+"?"+q.Encode())
}

func checkSQLite(ctx context.Context, path string, progress io.Writer) (checked, error) {
	var res checked
	// Opening a path that does not exist would create a database.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return res, usagef("%s: no such database file", path)
	}
	raw, err := openSQLiteRaw(path)
	if err != nil {
		return res, err
	}
	defer raw.Close()
	if err := sqliteIntegrity(ctx, raw, path); err != nil {
		return res, err
	}
	applied, err := appliedVersions(ctx, raw.QueryContext, path)
	if err != nil {
		return res, err
	}
	if res.schema, err = compareVersions(path, applied, sqlite.Versions()); err != nil {
		return res, err
	}
	have, err := sqliteSchema(ctx, raw)
	if err != nil {
		return res, fmt.Errorf("%s: read the schema: %w", path, err)
	}
	want, err := freshSQLiteSchema(ctx)
	if err != nil {
		return res, err
	}
	if err := compareSchemas(have, want); err != nil {
		return res, fmt.Errorf("%s: the schema is not this farkle's: %w", path, err)
	}
	// The store reads the records; it opens only a file in WAL mode
	// read-only, and every file farkle serve or db backup writes is.
	var mode string
	if err := raw.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		return res, fmt.Errorf("%s is in journal mode %s, not WAL as farkle serve keeps its database (sqlite3 %s 'PRAGMA journal_mode=WAL' converts it)", path, mode, path)
	}
	ids, err := overTables(ctx, raw.QueryContext)
	if err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	if err := raw.QueryRowContext(ctx, `SELECT count(*) FROM tables`).Scan(&res.tables); err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{ReadOnly: true, Check: "off"})
	if err != nil {
		return res, err
	}
	defer db.Close()
	res.over, err = verifyRecords(ctx, db, ids, progress)
	return res, err
}

func checkPostgres(ctx context.Context, addr string, progress io.Writer) (checked, error) {
	var res checked
	conn, err := pgx.Connect(ctx, addr)
	if err != nil {
		return res, fmt.Errorf("%s: %w", dbName(addr), err)
	}
	defer conn.Close(context.Background())
	query := func(ctx context.Context, q string, args ...any) (rowsScanner, error) {
		rows, err := conn.Query(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		return pgRows{rows}, nil
	}
	applied, err := appliedVersions(ctx, query, dbName(addr))
	if err != nil {
		return res, err
	}
	// Opening the store migrates: nothing may be due.
	if res.schema, err = compareVersions(dbName(addr), applied, postgres.Versions()); err != nil {
		return res, err
	}
	// The actions' foreign key is gone (migration 0024): the writes keep
	// it, and this checks that they did.
	var lost int
	var first string
	err = conn.QueryRow(ctx, `SELECT count(*) OVER (), a.table_id FROM actions a WHERE NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = a.table_id) LIMIT 1`).Scan(&lost, &first)
	switch {
	case err == nil:
		return res, fmt.Errorf("%s: actions of no table: %d (the first of table %q)", dbName(addr), lost, first)
	case !errors.Is(err, pgx.ErrNoRows):
		return res, fmt.Errorf("%s: %w", dbName(addr), err)
	}
	ids, err := overTables(ctx, query)
	if err != nil {
		return res, fmt.Errorf("%s: %w", dbName(addr), err)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM tables`).Scan(&res.tables); err != nil {
		return res, fmt.Errorf("%s: %w", dbName(addr), err)
	}
	db, err := postgres.OpenWith(ctx, addr, postgres.Options{Node: "db-check"})
	if err != nil {
		return res, err
	}
	defer db.Close()
	res.over, err = verifyRecords(ctx, db, ids, progress)
	return res, err
}

// rowsScanner is what the checks read of a query's rows, from
// database/sql or pgx.
type rowsScanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

type pgRows struct{ pgx.Rows }

func (r pgRows) Close() error { r.Rows.Close(); return nil }

// queryFunc runs a query.
type queryFunc[R rowsScanner] func(ctx context.Context, q string, args ...any) (R, error)

// sqliteIntegrity runs SQLite's integrity check, quoting its first
// findings.
func sqliteIntegrity(ctx context.Context, raw *sql.DB, path string) error {
	rows, err := raw.QueryContext(ctx, `PRAGMA integrity_check(3)`)
	if err != nil {
		return fmt.Errorf("%s is damaged or not a database: %w", path, err)
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%s: integrity check: %w", path, err)
		}
		if line != "ok" {
			found = append(found, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s is damaged or not a database: %w", path, err)
	}
	if len(found) > 0 {
		return fmt.Errorf("%s is damaged: %s", path, strings.Join(found, "; "))
	}
	return nil
}

// appliedVersions reads the migrations recorded in the database.
func appliedVersions[R rowsScanner](ctx context.Context, query queryFunc[R], name string) ([]int, error) {
	rows, err := query(ctx, `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("%s holds no farkle schema (no migrations recorded): %w", name, err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// compareVersions says which migrations the database lacks or has that
// this farkle does not know.
func compareVersions(name string, applied, known []int) (string, error) {
	var missing, unknown []int
	for _, v := range known {
		if !slices.Contains(applied, v) {
			missing = append(missing, v)
		}
	}
	for _, v := range applied {
		if !slices.Contains(known, v) {
			unknown = append(unknown, v)
		}
	}
	switch {
	case len(unknown) > 0:
		return "", fmt.Errorf("%s has migrations %v that this farkle does not know: a newer farkle wrote it; check it with that one", name, unknown)
	case len(missing) > 0:
		return "", fmt.Errorf("%s lacks migrations %v: an older farkle wrote it (farkle serve brings it up to date when it opens it)", name, missing)
	}
	return fmt.Sprintf("schema at migration %d (%d migrations)", known[len(known)-1], len(known)), nil
}

// overTables returns the IDs of the finished games.
func overTables[R rowsScanner](ctx context.Context, query queryFunc[R]) ([]string, error) {
	rows, err := query(ctx, `SELECT id FROM tables WHERE status = 'over' ORDER BY created, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// verifyRecords verifies the final record of every table of ids and that
// the table's stored outcome is the replay's; it returns how many.
func verifyRecords(ctx context.Context, db store.Store, ids []string, progress io.Writer) (int, error) {
	var bar *progressbar.ProgressBar
	if progress != nil && len(ids) > 0 {
		bar = progressbar.NewOptions(len(ids), progressbar.OptionSetWriter(progress),
			progressbar.OptionSetDescription("records"), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		defer bar.Finish()
	}
	for _, id := range ids {
		if err := verifyTable(ctx, db, id); err != nil {
			return 0, err
		}
		if bar != nil {
			bar.Add(1)
		}
	}
	return len(ids), nil
}

func verifyTable(ctx context.Context, db store.Store, id string) error {
	t, err := db.Table(ctx, id)
	if err != nil {
		return err
	}
	rec, err := db.FinalRecord(ctx, id)
	if err != nil {
		return fmt.Errorf("table %s: %w", id, err)
	}
	g, _, err := game.Verify(rec)
	if err != nil {
		return fmt.Errorf("the record of table %s does not verify: %w", id, err)
	}
	if len(rec.Actions) != t.Actions {
		return fmt.Errorf("table %s: its record has %d actions, the table %d", id, len(rec.Actions), t.Actions)
	}
	if !g.Over() || !slices.Equal(g.Winners(), t.Winners) || !slices.Equal(g.Scores(), t.Scores) {
		return fmt.Errorf("table %s: stored winners %v and scores %v, the replay's %v and %v", id, t.Winners, t.Scores, g.Winners(), g.Scores())
	}
	return nil
}

// sqlObject is a table or index of a SQLite schema as the check compares
// them: a table's columns (name, type, not null, default, key position),
// an index's table, uniqueness and columns.
type sqlObject struct {
	Kind string
	Def  []string
}

// sqliteSchema reads the tables and indexes of a SQLite database.
func sqliteSchema(ctx context.Context, raw *sql.DB) (map[string]sqlObject, error) {
	rows, err := raw.QueryContext(ctx, `SELECT type, name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index', 'view', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	type entry struct{ kind, name, table string }
	var entries []entry
	for rows.Next() {
		var en entry
		if err := rows.Scan(&en.kind, &en.name, &en.table); err != nil {
			rows.Close()
			return nil, err
		}
		entries = append(entries, en)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := map[string]sqlObject{}
	for _, en := range entries {
		o := sqlObject{Kind: en.kind}
		var q string
		switch en.kind {
		case "table":
			q = `SELECT name || ' ' || type || ' notnull=' || "notnull" || ' default=' || ifnull(dflt_value, '') || ' pk=' || pk FROM pragma_table_info(?) ORDER BY name`
		case "index":
			o.Def = append(o.Def, "on "+en.table)
			q = `SELECT ifnull(name, '(expression)') || ' desc=' || "desc" FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno`
		}
		if q != "" {
			r, err := raw.QueryContext(ctx, q, en.name)
			if err != nil {
				return nil, err
			}
			for r.Next() {
				var s string
				if err := r.Scan(&s); err != nil {
					r.Close()
					return nil, err
				}
				o.Def = append(o.Def, s)
			}
			r.Close()
			if err := r.Err(); err != nil {
				return nil, err
			}
		}
		out[en.name] = o
	}
	return out, nil
}

// freshSQLiteSchema is the schema of a new database of this farkle.
func freshSQLiteSchema(ctx context.Context) (map[string]sqlObject, error) {
	dir, err := os.MkdirTemp("", "farkle-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "fresh.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	raw, err := openSQLiteRaw(path)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	return sqliteSchema(ctx, raw)
}

// compareSchemas says the first differences between a database's schema
// and a new one's.
func compareSchemas(have, want map[string]sqlObject) error {
	var diffs []string
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h, ok := have[n]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s %s is missing", want[n].Kind, n))
		case !reflect.DeepEqual(h, want[n]):
			diffs = append(diffs, fmt.Sprintf("%s %s is %v, want %v", want[n].Kind, n, h.Def, want[n].Def))
		}
	}
	extra := []string{}
	for n := range have {
		if _, ok := want[n]; !ok {
			extra = append(extra, have[n].Kind+" "+n)
		}
	}
	sort.Strings(extra)
	for _, x := range extra {
		diffs = append(diffs, x+" is not this farkle's")
	}
	if len(diffs) == 0 {
		return nil
	}
	if len(diffs) > 3 {
		diffs = append(diffs[:3], fmt.Sprintf("and %d more", len(diffs)-3))
	}
	return errors.New(strings.Join(diffs, "; "))
}
