package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
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
	group   *sqlstore.Group
	batched atomic.Int64 // actions committed in batches of more than one
	// together counts the actions written by a batch's one statement for
	// many (appendManySQL).
	together atomic.Int64
	// alone writes every action of a batch by its own statement (set by
	// a benchmark, to compare).
	alone bool
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
	db.group = sqlstore.NewGroupOf(committers, db.commitBatch)
	return db, nil
}

// committers is how many batches of the group commit a node has under way
// at once. One: the actions that come while a batch commits all wait for
// the next, so a batch is as large as the load makes it. Two (one sent
// while the other waits for its flush) paid when an action cost
// PostgreSQL more; with one and a batch's one round trip, measured
// against two and two round trips, alternately in one run (load average
// 8, as fast as answered): one node 6,169/6,095/5,238 -> 6,507/6,489/
// 4,833 actions a second, three nodes 4,041/4,073/2,998 -> 4,337/4,517/
// 3,873, PostgreSQL's transactions an action 0.25 -> 0.19 and 0.51 -> 0.35.
const committers = 1

// poolSize is the most connections a node opens (the listener's aside):
// pgxpool's default on this kind of machine.
var poolSize = max(4, runtime.NumCPU())

// Node returns the name of this node in the leases.
func (db *DB) Node() string { return db.node }

// Close commits the actions queued and closes the connections.
func (db *DB) Close() error {
	db.group.Close()
	return db.W.Close()
}

// migrateLock is the advisory lock key under which migrations run, so that
// nodes starting together migrate once.
const migrateLock = 0x6661726b6c65 // "farkle"

// migrate runs every embedded migration not yet recorded, each in its own
// transaction with its schema_migrations row, under an advisory lock.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := sqlstore.Migrations(migrations)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	for _, m := range ms {
		body, err := migrations.ReadFile(m.Path)
		if err != nil {
			return err
		}
		if err := db.migrateOne(ctx, m.Version, m.Name, string(body)); err != nil {
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
// ended or is adjourned (no node runs it then).
func (db *DB) changed(ctx context.Context, tx *sql.Tx, id string, n int, st store.Status) error {
	if st.Ended() || st == store.Adjourned {
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

// GroupCommits implements store.GroupCommitter.
func (db *DB) GroupCommits() (batches, actions int64) { return db.group.Stats() }

// AppendAction implements store.Store. The action that ends a game is
// written alone (sqlstore.DB.AppendIn: the table's row locked, its results,
// the end of its lease, its change hint with its commit); every other, the
// most common write, goes to the group commit (commitBatch), so that the
// actions of many tables share one transaction, one flush of the log and
// one change hint.
func (db *DB) AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	if fin != nil {
		return db.DB.AppendAction(ctx, tableID, n, entry, fin)
	}
	return db.group.Append(ctx, tableID, n, entry, nil) // it refuses an entry that is not JSON
}

// commitBatch commits a batch of the group commit in one transaction and
// one round trip (a pipeline): the transaction's start, one statement for
// the tables' later actions (appendManySQL, their rows locked in the order
// of their IDs, so that two nodes' batches lock rows in one order), one
// statement each for the others (a table's first action, a table twice),
// the commit and, in a transaction of their own, one
// notification holding the batch's hints (more when they are too long for
// one), sent together. PostgreSQL takes a lock on the whole database to
// queue notifications at commit and holds it through the flush of the
// log: the actions' commit does not take it, and the hints' commit waits
// for no flush, so the commits of every node do not wait in line for one
// another; and a batch waits for one round trip, not one an action. When
// a statement fails (two nodes appending the same action, a deadlock, the
// database), the transaction is given up and each action is written
// alone, so each gets its own answer.
func (db *DB) commitBatch(batch []*sqlstore.Append) []error {
	ctx := context.Background()
	errs := make([]error, len(batch))
	if len(batch) == 1 {
		// A lone action (a quiet node): one statement with its hint, one
		// round trip and one commit instead of two transactions. Its
		// commit holds the notifications' lock through the flush; when
		// that slows the node's commits, the next batches gather more
		// than one action and take the path below.
		_, errs[0] = db.appendOne(ctx, db.W, batch[0], !batch[0].Quiet)
		return errs
	}
	order := make([]int, len(batch))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := batch[order[i]], batch[order[j]]
		return a.Table < b.Table || a.Table == b.Table && a.N < b.N
	})
	conn, err := db.W.Conn(ctx)
	if err == nil {
		var committed bool
		err = conn.Raw(func(dc any) error {
			committed, err = db.pipeline(ctx, dc.(*stdlib.Conn).Conn(), batch, order, errs)
			return err
		})
		conn.Close()
		if committed {
			return errs
		}
		if errors.Is(err, errCommit) {
			for i := range errs {
				errs[i] = fmt.Errorf("postgres: append action: %w", err)
			}
			return errs
		}
	}
	for i, a := range batch { // alone
		_, errs[i] = db.appendOne(ctx, db.W, a, !a.Quiet)
	}
	return errs
}

// errCommit marks a failed commit: whether it took effect is not known, so
// the batch's actions are not written again.
var errCommit = errors.New("commit")

// pipeline writes the batch in order in one transaction on c, each
// append's answer in errs, and commits it with one notification of the
// batch's actions: one round trip (a pipeline: the transaction's start,
// the actions' statements (splitLater), the commit, and the hints in a
// transaction of their own, which runs once the commit has succeeded and
// is committed at the pipeline's end). committed is false, the
// transaction rolled back, when a statement failed in the database (the
// rest of the pipeline is skipped, hints included; the caller writes each
// action alone); err wraps errCommit when the commit's outcome is not
// known; driver.ErrBadConn when c could not be rolled back.
//
// The hints are sent before their answers are read, so an action that
// wrote nothing (another node's action n came first, or the table ended)
// has its hint sent too: it names an action number the table has (the
// other node's) or one it will not have, which a follower reads again and
// finds settled, as any hint is only a hint (cluster.go).
func (db *DB) pipeline(ctx context.Context, c *pgx.Conn, batch []*sqlstore.Append, order []int, errs []error) (committed bool, err error) {
	rollback := func(cause error) (bool, error) {
		if _, err := c.Exec(ctx, `ROLLBACK`); err != nil {
			return false, driver.ErrBadConn
		}
		return false, cause
	}
	hints := make([]string, 0, len(batch))
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	many, alone := splitLater(batch, order)
	if db.alone {
		many, alone = nil, order
	}
	if len(many) > 0 {
		b.Queue(appendManySQL, db.appendManyArgs(batch, many)...)
	}
	for _, i := range alone {
		q, args := db.appendSQL(batch[i], false)
		b.Queue(q, args...)
	}
	for _, i := range order {
		if !batch[i].Quiet {
			hints = append(hints, payload(batch[i].Table, batch[i].N, store.Playing))
		}
	}
	// The commit, then the hints in a transaction of their own: the
	// actions' commit takes no lock for notifications, so the commits of
	// every node share the flushes of the log; the hints' commit takes
	// that lock but waits for no flush (synchronous_commit off for it
	// alone: a hint lost in a crash is only a hint, the followers read
	// the tables again within catchUpEvery).
	b.Queue(`COMMIT`)
	for _, msg := range joinHints(hints, maxPayload) {
		b.Queue(hintSQL, db.channel, msg)
	}
	br := c.SendBatch(ctx, b)
	_, err = br.Exec()
	failed := err != nil
	together := 0 // actions written by the statement for many
	if !failed && len(many) > 0 {
		failed, err = readMany(br, batch, many, errs)
		for _, i := range many {
			if errs[i] == nil {
				together++
			}
		}
	}
	written := together
	for _, i := range alone {
		if failed {
			break
		}
		var st string
		var have, wrote int
		err = br.QueryRow().Scan(&st, &have, &wrote)
		failed, errs[i] = appendResult(batch[i], st, have, wrote, err)
		if errs[i] == nil {
			written++
		}
	}
	if failed {
		br.Close()
		return rollback(err)
	}
	tag, err := br.Exec()
	if err != nil || tag.String() != "COMMIT" {
		br.Close()
		if err == nil {
			err = fmt.Errorf("the commit answered %q", tag.String())
		}
		if c.PgConn().TxStatus() == 'I' && !c.IsClosed() {
			// The commit failed and rolled the transaction back (the
			// server is out of it): nothing was written.
			return false, err
		}
		return false, fmt.Errorf("%w: %w", errCommit, err)
	}
	if len(batch) > 1 {
		db.batched.Add(int64(written))
	}
	db.together.Add(int64(together))
	if err := br.Close(); err != nil {
		// The actions are committed; only their hints are lost (the
		// followers read the tables again within the server's catch-up
		// period).
		if st := c.PgConn().TxStatus(); st == 'T' || st == 'E' {
			if _, err := c.Exec(ctx, `ROLLBACK`); err != nil {
				return true, driver.ErrBadConn
			}
		}
	}
	return true, nil
}

// hintSQL sends a batch's hints after its commit, in a transaction that
// waits for no flush of the log.
const hintSQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`

// maxPayload is the longest notification sent: PostgreSQL's limit is 8000
// bytes.
const maxPayload = 7900

// joinHints joins change hints into notifications of at most max bytes,
// one hint a line.
func joinHints(hints []string, max int) []string {
	var out []string
	var b strings.Builder
	for _, h := range hints {
		if b.Len() > 0 && b.Len()+1+len(h) > max {
			out = append(out, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(h)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// execQueryer is a pool or a transaction.
type execQueryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// appendOne writes one action that does not end its game in one statement
// (one round trip): the table's row is locked, the action inserted and the
// table updated only if the action follows, and with hint its change hint
// sent at the commit. When nothing was written the row read says why.
// failed says that the statement failed in the database (a second action
// n among them), which aborts a transaction.
func (db *DB) appendOne(ctx context.Context, q execQueryer, a *sqlstore.Append, hint bool) (failed bool, err error) {
	query, args := db.appendSQL(a, hint)
	var st string
	var have, written int
	err = q.QueryRowContext(ctx, query, args...).Scan(&st, &have, &written)
	return appendResult(a, st, have, written, err)
}

// appendSQL is appendOne's statement and its arguments. Its row is the
// table's status and count before, and 1 if the action was written.
func (db *DB) appendSQL(a *sqlstore.Append, hint bool) (string, []any) {
	k := 0 // a table's first action
	if a.N > 1 {
		k = 1 // a later one
	}
	if hint {
		return appendHintSQL[k], []any{a.Table, a.N, string(a.Entry), db.Now().UnixNano(), payload(a.Table, a.N, store.Playing), db.channel}
	}
	return appendNoHintSQL[k], []any{a.Table, a.N, string(a.Entry), db.Now().UnixNano()}
}

// The statements of appendSQL, with and without its change hint, for a
// table's first action and for the others.
var (
	appendHintSQL   = appendStatements(`SELECT pg_notify($6, $5) FROM up`)
	appendNoHintSQL = appendStatements(`SELECT 1 FROM up`)
)

// appendStatements are the append with notify as its hint: for a table's
// first action, which may take the table from waiting to playing, and for
// a later one, which needs it playing (the first action left it so: a
// later one at a table waiting is refused, ECONFLICT, as at a table that
// has ended). A later action sets acted, not the status, and updated only
// when it is staleUpdated old: the row's new version then changes no
// indexed column, a heap-only update that adds no index entry (migration
// 0023), and with no status in the update neither the trigger of the
// open seats nor the status's check (migration 0025) is looked at (their
// conditions are read and compiled at each statement that sets it).
func appendStatements(notify string) [2]string {
	return [2]string{
		appendStatement(`'waiting', 'playing'`, `status = 'playing', updated = $4, acted = $4`, notify),
		appendStatement(`'playing'`, `acted = $4, updated = CASE WHEN updated < $4::bigint - `+strconv.FormatInt(staleUpdated.Nanoseconds(), 10)+` THEN $4::bigint ELSE updated END`, notify),
	}
}

// staleUpdated is how old a table's updated may be before an action
// writes it again, although this release reads acted too: during a rolling
// upgrade the nodes of the release before read only updated (for a turn
// clock's time left when they take a table over, for a tournament game's
// idleness), and see it at most this stale. Once a table's actions come
// further apart than this, each of them moves its index entries again.
const staleUpdated = 2 * time.Second

func appendStatement(from, set, notify string) string {
	return `WITH t AS (SELECT status, actions FROM tables WHERE id = $1 FOR UPDATE),
		ins AS (INSERT INTO actions (table_id, n, entry) SELECT $1, $2, $3 FROM t WHERE t.actions = $2 - 1 AND t.status IN (` + from + `) RETURNING n),
		up AS (UPDATE tables SET actions = $2, ` + set + ` WHERE id = $1 AND EXISTS (SELECT 1 FROM ins) RETURNING id),
		hint AS (` + notify + `)
		SELECT t.status, t.actions, (SELECT count(*) FROM hint) FROM t`
}

// appendResult is the answer of appendSQL's row (or err) for a.
func appendResult(a *sqlstore.Append, st string, have, written int, err error) (failed bool, _ error) {
	switch {
	case errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows):
		return false, store.Errorf(store.ENOTFOUND, "no table %q", a.Table)
	case isUnique(err):
		return true, store.Errorf(store.ECONFLICT, "table %s already has action %d", a.Table, a.N)
	case err != nil:
		return true, fmt.Errorf("postgres: append action: %w", err)
	case written == 1:
		return false, nil
	}
	if err := store.CheckAppend(a.Table, store.Status(st), have, a.N); err != nil {
		return false, err
	}
	return false, store.Errorf(store.ECONFLICT, "table %s did not take action %d", a.Table, a.N)
}

// splitLater splits a batch's appends (order: by table) into those written
// together by one statement (appendManySQL): a table's later actions, where
// there are at least minTogether and no table twice; and those written
// alone, each by its own statement (appendSQL), a table's first action
// among them. One statement for many actions costs PostgreSQL one
// statement's start, memory and end instead of one an action.
func splitLater(batch []*sqlstore.Append, order []int) (many, alone []int) {
	for k, i := range order {
		if batch[i].N > 1 && (k == 0 || batch[order[k-1]].Table != batch[i].Table) && (k+1 == len(order) || batch[order[k+1]].Table != batch[i].Table) {
			many = append(many, i)
		} else {
			alone = append(alone, i)
		}
	}
	if len(many) < minTogether {
		return nil, order
	}
	return many, alone
}

// minTogether is the fewest actions written by one statement: it costs
// PostgreSQL more to start than one action's, and less from four actions
// on (BenchmarkCommitBatch, the backend's CPU an action, one statement
// against one an action: 2 actions 101 against 75 µs, 3 58 against 56, 4
// 44 against 48, 8 24 against 34, 11 22 against 41, 35 16 against 23, 128
// 11 against 19).
const minTogether = 4

// appendManyArgs are appendManySQL's arguments for the appends many.
func (db *DB) appendManyArgs(batch []*sqlstore.Append, many []int) []any {
	ids := make([]string, len(many))
	ns := make([]int32, len(many))
	entries := make([]string, len(many))
	for k, i := range many {
		ids[k], ns[k], entries[k] = batch[i].Table, int32(batch[i].N), string(batch[i].Entry)
	}
	return []any{ids, ns, entries, db.Now().UnixNano()}
}

// appendManySQL writes the later actions of several tables, at most one a
// table, as appendSQL writes one (without its hint): the tables' rows are
// locked in the order of their IDs, each action inserted and its table
// updated only where the action follows at a table playing. Its rows are,
// for each table that exists, the action's place among the arguments (k,
// from 1), the table's status and count before, and 1 where the action
// was written: the insert's own condition (an insert that fails fails the
// statement). It joins nothing but the tables' key: small batches pay for
// no hash table.
var appendManySQL = `WITH t AS (SELECT a.k, a.id, a.n, a.entry, tables.status, tables.actions
			FROM unnest($1::text[], $2::int[], $3::text[]) WITH ORDINALITY AS a(id, n, entry, k) JOIN tables ON tables.id = a.id
			ORDER BY a.id FOR UPDATE OF tables),
		ins AS (INSERT INTO actions (table_id, n, entry) SELECT id, n, entry FROM t WHERE actions = n - 1 AND status = 'playing' RETURNING table_id, n),
		up AS (UPDATE tables SET actions = ins.n, acted = $4, updated = CASE WHEN tables.updated < $4::bigint - ` + strconv.FormatInt(staleUpdated.Nanoseconds(), 10) + ` THEN $4::bigint ELSE tables.updated END FROM ins WHERE tables.id = ins.table_id)
		SELECT k, status, actions, (actions = n - 1 AND status = 'playing')::int FROM t`

// readMany reads appendManySQL's answer for the appends many into errs;
// failed says the statement failed in the database (err its error).
func readMany(br pgx.BatchResults, batch []*sqlstore.Append, many []int, errs []error) (failed bool, err error) {
	rows, err := br.Query()
	if err != nil {
		return true, err
	}
	defer rows.Close()
	got := make([]bool, len(many))
	for rows.Next() {
		var k int64
		var st string
		var have, wrote int
		if err := rows.Scan(&k, &st, &have, &wrote); err != nil {
			return true, err
		}
		if k < 1 || int(k) > len(many) {
			return true, fmt.Errorf("postgres: append actions: row %d of %d", k, len(many))
		}
		if got[k-1] {
			return true, fmt.Errorf("postgres: append actions: row %d twice", k)
		}
		got[k-1] = true
		i := many[k-1]
		_, errs[i] = appendResult(batch[i], st, have, wrote, nil)
	}
	if err := rows.Err(); err != nil {
		return true, err
	}
	for k, ok := range got {
		if !ok { // no row: no such table
			errs[many[k]] = store.Errorf(store.ENOTFOUND, "no table %q", batch[many[k]].Table)
		}
	}
	return false, nil
}
