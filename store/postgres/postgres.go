package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// channelOf returns the LISTEN/NOTIFY channel of the changes of the tables
// in schema: notifications are heard database-wide, so each schema (each
// site or test sharing a database) has a channel of its own. The name is
// a hash, so any schema name makes a valid identifier.
func channelOf(schema string) string {
	sum := sha256.Sum256([]byte(schema))
	return "farkle_tables_" + hex.EncodeToString(sum[:8])
}

// DB is a store.Store (and a store.Cluster) in a PostgreSQL database: the
// one SQL store (store/sqlstore) over pgx's database/sql driver, with what
// PostgreSQL alone does: the leases of tables and the change hints that
// let several nodes share the database (cluster.go), and the one-statement
// append of an action.
type DB struct {
	*sqlstore.DB
	cfg     *pgx.ConnConfig
	opt     Options
	node    string
	channel string // the LISTEN/NOTIFY channel of this schema's tables (channelOf)
}

var (
	_ store.Store   = (*DB)(nil)
	_ store.Cluster = (*DB)(nil)
)

// Options tune Open; the zero Options are the defaults.
type Options struct {
	// Node names this process among the nodes on the database, in the
	// leases it holds; "": a random name.
	Node string
	// LeaseTTL is how long a lease lasts without being renewed: the time
	// for another node to take a dead node's tables. 0: 5 seconds.
	LeaseTTL time.Duration
}

// DefaultLeaseTTL is the lease time of the zero Options.
const DefaultLeaseTTL = 5 * time.Second

// IsAddress reports whether addr names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a file.
func IsAddress(addr string) bool {
	return strings.HasPrefix(addr, "postgres://") || strings.HasPrefix(addr, "postgresql://")
}

// Open connects to the database at dsn (a postgres:// URL or key=value
// connection string) and runs the migrations it lacks.
func Open(ctx context.Context, dsn string) (*DB, error) { return OpenWith(ctx, dsn, Options{}) }

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dsn string, opt Options) (*DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if opt.LeaseTTL <= 0 {
		opt.LeaseTTL = DefaultLeaseTTL
	}
	if opt.Node == "" {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		opt.Node = hex.EncodeToString(b)
	}
	cfg.RuntimeParams["application_name"] = "farkle " + opt.Node
	pool := stdlib.OpenDB(*cfg)
	pool.SetMaxOpenConns(poolSize)
	pool.SetMaxIdleConns(poolSize)
	db := &DB{DB: sqlstore.New(pool, pool, dialect), cfg: cfg, opt: opt, node: opt.Node}
	db.Changed = db.changed
	var schema string
	if err := pool.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db.channel = channelOf(schema)
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := db.FillSkeletons(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// poolSize is the most connections a node opens (the listener's aside):
// pgxpool's default on this kind of machine.
var poolSize = max(4, runtime.NumCPU())

// Node returns the name of this node in the leases.
func (db *DB) Node() string { return db.node }

// Close closes the connections.
func (db *DB) Close() error { return db.W.Close() }

// migrateLock is the advisory lock key under which migrations run, so that
// nodes starting together migrate once.
const migrateLock = 0x6661726b6c65 // "farkle"

// migrate runs every embedded migration not yet recorded, each in its own
// transaction with its schema_migrations row, under an advisory lock.
func (db *DB) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("postgres: migration %s: name must start with a number", base)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		if err := db.migrateOne(ctx, v, base, string(body)); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) migrateOne(ctx context.Context, v int, name, body string) error {
	tx, err := db.W.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("postgres: migration %s: %w", name, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("postgres: migrations table: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, v).Scan(&n); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", name, err)
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)`, v, name, db.Now().UnixNano()); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", name, err)
	}
	return tx.Commit()
}

// changed is the store's hook (sqlstore.DB.Changed) in the transaction of
// a table's change: the change hint, sent to the listening nodes when the
// transaction commits, and the end of the table's lease once it has
// ended.
func (db *DB) changed(ctx context.Context, tx *sql.Tx, id string, n int, st store.Status) error {
	if st.Ended() {
		if _, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE table_id = $1`, id); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, db.channel, payload(id, n, st))
	return err
}

// payload is the change hint of table id with n actions in status st:
// "N STATUS ID".
func payload(id string, n int, st store.Status) string {
	return strconv.Itoa(n) + " " + string(st) + " " + id
}

// AppendAction implements store.Store. The action that ends a game is the
// one store's (sqlstore.DB.AppendIn: the table's row locked, the change
// hint with the commit); any other, the most common write, is one
// statement (one round trip): the table's row is locked, the action
// inserted and the table updated only if the action follows, and the
// change hint sent with the commit. When nothing was written the row read
// says why.
func (db *DB) AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	if fin != nil || !json.Valid(entry) {
		return db.DB.AppendAction(ctx, tableID, n, entry, fin)
	}
	var st string
	var have, written int
	err := db.W.QueryRowContext(ctx, `WITH t AS (SELECT status, actions FROM tables WHERE id = $1 FOR UPDATE),
		ins AS (INSERT INTO actions (table_id, n, entry) SELECT $1, $2, $3 FROM t WHERE t.actions = $2 - 1 AND t.status IN ('waiting', 'playing') RETURNING n),
		up AS (UPDATE tables SET actions = $2, status = 'playing', updated = $4 WHERE id = $1 AND EXISTS (SELECT 1 FROM ins) RETURNING id),
		hint AS (SELECT pg_notify($6, $5) FROM up)
		SELECT t.status, t.actions, (SELECT count(*) FROM hint) FROM t`,
		tableID, n, string(entry), db.Now().UnixNano(), payload(tableID, n, store.Playing), db.channel).Scan(&st, &have, &written)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Errorf(store.ENOTFOUND, "no table %q", tableID)
	case isUnique(err):
		return store.Errorf(store.ECONFLICT, "table %s already has action %d", tableID, n)
	case err != nil:
		return fmt.Errorf("postgres: append action: %w", err)
	case written == 1:
		return nil
	}
	if err := store.CheckAppend(tableID, store.Status(st), have, n); err != nil {
		return err
	}
	return store.Errorf(store.ECONFLICT, "table %s did not take action %d", tableID, n)
}
