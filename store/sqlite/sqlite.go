package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is a store.Store in one SQLite file.
type DB struct {
	path string
	opt  Options
	w    *sql.DB // the single writer connection
	r    *sql.DB // readers
	ck   *sql.DB // checkpoints, beside the writer
	now  func() time.Time

	appends chan *appendReq // to the group committer
	quit    chan struct{}
	stopped chan struct{}
	mu      sync.RWMutex // closed; held while queueing an append
	closed  bool

	nudge     chan struct{} // the WAL passed Options.WALLimit: checkpoint now
	ckStopped chan struct{}
	truncated atomic.Int64 // completed TRUNCATE checkpoints, for tests
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
	db := &DB{path: path, opt: opt, w: w, now: time.Now}
	if err := db.check(ctx); err != nil {
		w.Close()
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		w.Close()
		return nil, db.damagedOr(err)
	}
	if !opt.ReadOnly {
		if err := db.fillSkeletons(ctx); err != nil {
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
	db.r = r
	ck, err := sql.Open("sqlite", dsn(""))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	ck.SetMaxOpenConns(1)
	db.ck = ck
	db.appends = make(chan *appendReq, maxBatch)
	db.quit, db.stopped = make(chan struct{}), make(chan struct{})
	db.nudge = make(chan struct{}, 1)
	db.ckStopped = make(chan struct{})
	go db.appender()
	go db.checkpointer()
	return db, nil
}

// Close commits the actions already queued, stops the group committer and
// closes the database; later calls fail with EINVALID. Closing twice is a
// no-op.
func (db *DB) Close() error {
	db.mu.Lock()
	already := db.closed
	db.closed = true
	db.mu.Unlock()
	if already {
		return nil
	}
	close(db.quit)
	<-db.stopped
	<-db.ckStopped
	db.checkpoint("TRUNCATE", hardWait)
	return errors.Join(db.ck.Close(), db.r.Close(), db.w.Close())
}

// migrate runs every embedded migration not yet recorded, each in its own
// transaction together with its schema_migrations row. Foreign keys are off
// while they run (a migration may rebuild a table others refer to, as
// SQLite's documented procedure requires) and checked before each commit.
// When none is due nothing is written, so an up-to-date read-only file
// opens.
func (db *DB) migrate(ctx context.Context) error {
	conn, err := db.w.Conn(ctx)
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
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	fkOff := false
	defer func() {
		if fkOff {
			_, _ = conn.ExecContext(context.Background(), `PRAGMA foreign_keys = ON`)
		}
	}()
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("sqlite: migration %s: name must start with a number", base)
		}
		if done[v] {
			continue
		}
		if db.opt.ReadOnly {
			return fmt.Errorf("sqlite: %s is opened read-only but migration %s is due", db.path, base)
		}
		body, err := migrations.ReadFile(name)
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
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`, v, name, db.now().UnixNano()); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", name, err)
	}
	return tx.Commit()
}

// isConstraint reports whether err is a uniqueness or key violation.
func isConstraint(err error) bool {
	return err != nil && strings.Contains(err.Error(), "constraint failed")
}

// CreatePlayer implements store.Store.
func (db *DB) CreatePlayer(ctx context.Context, p store.Player) error {
	if p.ID == "" || p.TokenHash == "" {
		return store.Errorf(store.EINVALID, "a player needs an ID and a token hash")
	}
	if p.Created.IsZero() {
		p.Created = db.now()
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create player: %w", err)
	}
	defer tx.Rollback()
	if err := insertPlayer(ctx, tx, p); err != nil {
		return err
	}
	return tx.Commit()
}

// insertPlayer stores p and, unless its token has ended (""), the
// session of its token.
func insertPlayer(ctx context.Context, tx *sql.Tx, p store.Player) error {
	th := p.TokenHash
	if th == "" {
		th = store.EndedToken(p.ID)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, token_hash, created) VALUES (?, ?, ?, ?)`,
		p.ID, p.Name, th, p.Created.UnixNano())
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "player %s already exists", p.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create player: %w", err)
	}
	if p.TokenHash == "" {
		return nil
	}
	s, err := store.Session{TokenHash: p.TokenHash, PlayerID: p.ID, Created: p.Created}.Prepare(p.Created)
	if err != nil {
		return err
	}
	return insertSession(ctx, tx, s)
}

func (db *DB) player(ctx context.Context, where string, arg string) (store.Player, error) {
	p, err := scanPlayer(db.r.QueryRowContext(ctx, `SELECT id, name, token_hash, created FROM players WHERE `+where+` = ?`, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return p, store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err != nil {
		return p, fmt.Errorf("sqlite: player: %w", err)
	}
	return p, nil
}

// scanPlayer reads id, name, token_hash and created.
func scanPlayer(s scanner) (store.Player, error) {
	var p store.Player
	var created int64
	err := s.Scan(&p.ID, &p.Name, &p.TokenHash, &created)
	p.Created = time.Unix(0, created)
	if p.TokenHash == store.EndedToken(p.ID) {
		p.TokenHash = ""
	}
	return p, err
}

// PlayerByToken implements store.Store.
func (db *DB) PlayerByToken(ctx context.Context, tokenHash string) (store.Player, error) {
	_, p, err := db.SessionByToken(ctx, tokenHash)
	return p, err
}

// Player implements store.Store.
func (db *DB) Player(ctx context.Context, id string) (store.Player, error) {
	return db.player(ctx, "id", id)
}

// AddKey implements store.Store.
func (db *DB) AddKey(ctx context.Context, fingerprint, playerID string) error {
	if fingerprint == "" {
		return store.Errorf(store.EINVALID, "an SSH key needs a fingerprint")
	}
	if _, err := db.Player(ctx, playerID); err != nil {
		return err
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO ssh_keys (fingerprint, player_id, created) VALUES (?, ?, ?)`,
		fingerprint, playerID, db.now().UnixNano())
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "the SSH key %s is already a player's", fingerprint)
	}
	if err != nil {
		return fmt.Errorf("sqlite: add key: %w", err)
	}
	return nil
}

// PlayerByKey implements store.Store.
func (db *DB) PlayerByKey(ctx context.Context, fingerprint string) (store.Player, error) {
	var id string
	err := db.r.QueryRowContext(ctx, `SELECT player_id FROM ssh_keys WHERE fingerprint = ?`, fingerprint).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Player{}, store.Errorf(store.ENOTFOUND, "no player has this SSH key")
	}
	if err != nil {
		return store.Player{}, fmt.Errorf("sqlite: player by key: %w", err)
	}
	return db.Player(ctx, id)
}

// CreateTable implements store.Store.
func (db *DB) CreateTable(ctx context.Context, t store.Table) error {
	r, err := store.NewTableRow(t, db.now())
	if err != nil {
		return err
	}
	_, err = db.w.ExecContext(ctx, `INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, reason, creator, rated, pace, local) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.Kind, r.Rules, r.Seats, r.Seed, r.Status, r.Created, r.Updated, r.Reason, r.Creator, r.Rated, r.Pace, r.Local)
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "table %s already exists", t.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create table: %w", err)
	}
	return nil
}

const tableCols = `id, kind, rules, seats, seed, status, actions, created, updated, coalesce(winners, ''), coalesce(scores, ''), reason, creator, rated, pace, local`

type scanner interface{ Scan(...any) error }

// scanTable scans the columns tableCols, and more after them into more.
func scanTable(s scanner, more ...any) (store.Table, error) {
	var r store.TableRow
	if err := s.Scan(append(r.Fields(), more...)...); err != nil {
		return store.Table{}, err
	}
	t, err := r.Table()
	if err != nil {
		return t, fmt.Errorf("sqlite: %w", err)
	}
	return t, nil
}

// Table implements store.Store.
func (db *DB) Table(ctx context.Context, id string) (store.Table, error) {
	t, err := scanTable(db.r.QueryRowContext(ctx, `SELECT `+tableCols+` FROM tables WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, store.Errorf(store.ENOTFOUND, "no table %q", id)
	}
	if err != nil {
		return t, fmt.Errorf("sqlite: table: %w", err)
	}
	return t, nil
}

// where returns the WHERE clause selecting f and its arguments. A
// player's open tables are read from the index of open seats (invite.go),
// which holds exactly those: the player's rows lead, and the status is
// checked on each of their tables, not searched ("+status").
func where(f store.TableFilter) (string, []any) {
	q := ` WHERE 1=1`
	var args []any
	byIndex := f.PlayerID != "" && store.OpenOnly(f.Status)
	if byIndex {
		q += ` AND id IN (SELECT table_id FROM open_seats WHERE player_id = ? AND invited = 0)`
		args = append(args, f.PlayerID)
	}
	if len(f.Status) > 0 {
		col := `status`
		if byIndex {
			col = `+status`
		}
		q += ` AND ` + col + ` IN (?` + strings.Repeat(`, ?`, len(f.Status)-1) + `)`
		for _, s := range f.Status {
			args = append(args, string(s))
		}
	}
	if f.PlayerID != "" && !byIndex {
		q += ` AND EXISTS (SELECT 1 FROM json_each(tables.seats) WHERE json_extract(value, '$.player_id') = ?)`
		args = append(args, f.PlayerID)
	}
	if f.Creator != "" {
		q += ` AND creator = ?`
		args = append(args, f.Creator)
	}
	if f.Local {
		q += ` AND local = 1`
	}
	return q, args
}

// CountTables implements store.Store.
func (db *DB) CountTables(ctx context.Context, f store.TableFilter) (int, error) {
	w, args := where(f)
	var n int
	if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM tables`+w, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count tables: %w", err)
	}
	return n, nil
}

// Tables implements store.Store.
func (db *DB) Tables(ctx context.Context, f store.TableFilter) ([]store.Table, error) {
	w, args := where(f)
	q := `SELECT ` + tableCols + ` FROM tables` + w
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q += ` ORDER BY updated DESC, id LIMIT ?`
	args = append(args, limit)
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: tables: %w", err)
	}
	defer rows.Close()
	var out []store.Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: tables: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// ClaimSeat implements store.Store.
func (db *DB) ClaimSeat(ctx context.Context, tableID string, seat int, playerID, name string, status store.Status) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: claim seat: %w", err)
	}
	defer tx.Rollback()
	var sj, st string
	err = tx.QueryRowContext(ctx, `SELECT seats, status FROM tables WHERE id = ?`, tableID).Scan(&sj, &st)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Errorf(store.ENOTFOUND, "no table %q", tableID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: claim seat: %w", err)
	}
	nj, err := store.Claim(tableID, store.Status(st), sj, seat, playerID, name)
	if err != nil {
		if store.Code(err) == "" {
			err = fmt.Errorf("sqlite: claim seat: %w", err)
		}
		return err
	}
	if status == "" {
		status = store.Status(st)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET seats = ?, status = ?, updated = ? WHERE id = ?`, string(nj), string(status), db.now().UnixNano(), tableID); err != nil {
		return fmt.Errorf("sqlite: claim seat: %w", err)
	}
	return tx.Commit()
}

// FailTable implements store.Store.
func (db *DB) FailTable(ctx context.Context, id, reason string) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: fail table: %w", err)
	}
	defer tx.Rollback()
	var st string
	err = tx.QueryRowContext(ctx, `SELECT status FROM tables WHERE id = ?`, id).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Errorf(store.ENOTFOUND, "no table %q", id)
	}
	if err != nil {
		return fmt.Errorf("sqlite: fail table: %w", err)
	}
	if store.Status(st).Ended() {
		return store.Errorf(store.ECONFLICT, "table %s is %s: it cannot fail", id, store.Status(st).Phrase())
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET status = ?, reason = ?, updated = ? WHERE id = ?`,
		string(store.Failed), reason, db.now().UnixNano(), id); err != nil {
		return fmt.Errorf("sqlite: fail table: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: fail table: %w", err)
	}
	return nil
}

// ExpireWaiting implements store.Store.
func (db *DB) ExpireWaiting(ctx context.Context, before time.Time, reason string) ([]string, error) {
	rows, err := db.w.QueryContext(ctx, `UPDATE tables SET status = ?, reason = ?, updated = ? WHERE status = ? AND updated < ? RETURNING id`,
		string(store.Expired), reason, db.now().UnixNano(), string(store.Waiting), before.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("sqlite: expire tables: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: expire tables: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: expire tables: %w", err)
	}
	sort.Strings(ids)
	return ids, nil
}

// appendReq is one AppendAction waiting for the group commit.
type appendReq struct {
	tableID string
	n       int
	entry   []byte
	fin     bool
	results []store.Result
	finJSON store.FinishJSON
	done    chan error
}

// maxBatch is the most actions committed in one transaction.
const maxBatch = 128

// AppendAction implements store.Store. Actions arriving together are
// committed in one transaction (group commit), each under its own
// savepoint, so one append's conflict does not undo another's; a call
// returns once its action is durable.
func (db *DB) AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	if !json.Valid(entry) {
		return store.Errorf(store.EINVALID, "the action is not JSON")
	}
	req := &appendReq{tableID: tableID, n: n, entry: entry, fin: fin != nil, done: make(chan error, 1)}
	if fin != nil {
		fj, err := fin.JSON()
		if err != nil {
			return err
		}
		req.finJSON = fj
		req.results = fin.Results
	}
	return db.queueAppend(ctx, req)
}

// Actions implements store.Store.
func (db *DB) Actions(ctx context.Context, tableID string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := db.eachAction(ctx, tableID, func(n int, entry string) error {
		out = append(out, json.RawMessage(entry))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachAction calls fn with the number and JSON entry of each action of
// tableID in order, stopping at fn's first error. A gap in the numbering
// (an action missing) is an error.
func (db *DB) eachAction(ctx context.Context, tableID string, fn func(n int, entry string) error) error {
	rows, err := db.r.QueryContext(ctx, `SELECT n, entry FROM actions WHERE table_id = ? ORDER BY n`, tableID)
	if err != nil {
		return fmt.Errorf("sqlite: actions: %w", err)
	}
	defer rows.Close()
	for want := 1; rows.Next(); want++ {
		var n int
		var ej string
		if err := rows.Scan(&n, &ej); err != nil {
			return fmt.Errorf("sqlite: actions: %w", err)
		}
		if n != want {
			return fmt.Errorf("sqlite: actions of %s: action %d is missing", tableID, want)
		}
		if err := fn(n, ej); err != nil {
			return err
		}
	}
	return rows.Err()
}

// FinalRecord implements store.Store.
func (db *DB) FinalRecord(ctx context.Context, tableID string) (*game.Record, error) {
	var rj sql.NullString
	err := db.r.QueryRowContext(ctx, `SELECT record FROM tables WHERE id = ?`, tableID).Scan(&rj)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !rj.Valid) {
		return nil, store.Errorf(store.ENOTFOUND, "no finished game at table %q", tableID)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: final record: %w", err)
	}
	rec, err := game.ParseRecord([]byte(rj.String))
	if err != nil {
		return nil, fmt.Errorf("sqlite: final record of %s: %w", tableID, err)
	}
	return rec, nil
}

// queueAppend hands req to the group commit and waits for its answer.
func (db *DB) queueAppend(ctx context.Context, req *appendReq) error {
	db.mu.RLock()
	if db.closed {
		db.mu.RUnlock()
		return store.Errorf(store.EINVALID, "the database is closed")
	}
	select {
	case db.appends <- req:
	case <-ctx.Done():
		db.mu.RUnlock()
		return ctx.Err()
	}
	db.mu.RUnlock()
	return <-req.done // always answered, even after ctx ends: the action may be committed
}

// appender commits queued appends in batches until quit closes.
func (db *DB) appender() {
	defer close(db.stopped)
	for {
		var first *appendReq
		select {
		case first = <-db.appends:
		case <-db.quit:
			// No more come (Close set closed first): commit what is queued.
			for {
				select {
				case r := <-db.appends:
					db.commitBatch([]*appendReq{r})
				default:
					return
				}
			}
		}
		batch := []*appendReq{first}
	fill:
		for len(batch) < maxBatch {
			select {
			case r := <-db.appends:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		db.commitBatch(batch)
	}
}

func (db *DB) commitBatch(batch []*appendReq) {
	errs := make([]error, len(batch))
	fail := func(err error) {
		for _, r := range batch {
			r.done <- fmt.Errorf("sqlite: append action: %w", err)
		}
	}
	ctx := context.Background()
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		fail(err)
		return
	}
	defer tx.Rollback()
	now := db.now().UnixNano()
	for i, r := range batch {
		if _, err := tx.ExecContext(ctx, `SAVEPOINT a`); err != nil {
			fail(err)
			return
		}
		errs[i] = appendIn(ctx, tx, r, now)
		if errs[i] != nil && store.Code(errs[i]) == "" {
			// The database failed (a full disk, an I/O error), not the
			// append: SQLite may have rolled the whole transaction back,
			// so the batch fails with the cause.
			for _, r := range batch {
				r.done <- errs[i]
			}
			return
		}
		if errs[i] != nil {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO a`); err != nil {
				fail(err)
				return
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE a`); err != nil {
			fail(err)
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(err)
		return
	}
	db.afterCommit()
	for i, r := range batch {
		r.done <- errs[i]
	}
}

// appendIn writes one append inside the batch's transaction.
func appendIn(ctx context.Context, tx *sql.Tx, r *appendReq, now int64) error {
	var st string
	var have int
	err := tx.QueryRowContext(ctx, `SELECT status, actions FROM tables WHERE id = ?`, r.tableID).Scan(&st, &have)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Errorf(store.ENOTFOUND, "no table %q", r.tableID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: append action: %w", err)
	}
	if err := store.CheckAppend(r.tableID, store.Status(st), have, r.n); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO actions (table_id, n, entry) VALUES (?, ?, ?)`, r.tableID, r.n, string(r.entry)); err != nil {
		if isConstraint(err) {
			return store.Errorf(store.ECONFLICT, "table %s already has action %d", r.tableID, r.n)
		}
		return fmt.Errorf("sqlite: append action: %w", err)
	}
	switch {
	case !r.fin && store.Status(st) == store.Playing:
		// The status is left out unless it changes: writing it would run
		// the check of the open seats' trigger (migration 0014) on the
		// most common write.
		_, err = tx.ExecContext(ctx, `UPDATE tables SET actions = ?, updated = ? WHERE id = ?`, r.n, now, r.tableID)
	case !r.fin:
		_, err = tx.ExecContext(ctx, `UPDATE tables SET actions = ?, status = ?, updated = ? WHERE id = ?`, r.n, string(store.Playing), now, r.tableID)
	default:
		_, err = tx.ExecContext(ctx, `UPDATE tables SET actions = ?, status = ?, updated = ?, winners = ?, scores = ?, record = ? WHERE id = ?`,
			r.n, string(store.Over), now, string(r.finJSON.Winners), string(r.finJSON.Scores), string(r.finJSON.Record), r.tableID)
		for _, res := range r.results {
			if err != nil {
				break
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO results (table_id, seat, player_key, name, score, won, turns, farkles, banked, best_turn, penalties, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				r.tableID, res.Seat, res.PlayerKey, res.Name, res.Score, res.Won, res.Turns, res.Farkles, res.Banked, res.BestTurn, res.Penalties, now)
		}
	}
	if err != nil {
		return fmt.Errorf("sqlite: append action: %w", err)
	}
	return nil
}

const statsCols = `player_key, (SELECT name FROM results r2 WHERE r2.player_key = results.player_key ORDER BY finished DESC LIMIT 1),
	count(*), sum(won), sum(turns), sum(farkles), sum(banked), max(best_turn)`

func scanStats(s scanner) (store.Stats, error) {
	var st store.Stats
	err := s.Scan(&st.PlayerKey, &st.Name, &st.Games, &st.Wins, &st.Turns, &st.Farkles, &st.Banked, &st.BestTurn)
	return st, err
}

// Stats implements store.Store.
func (db *DB) Stats(ctx context.Context, playerKey string) (store.Stats, error) {
	st, err := scanStats(db.r.QueryRowContext(ctx, `SELECT `+statsCols+` FROM results WHERE player_key = ? GROUP BY player_key`, playerKey))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Stats{PlayerKey: playerKey}, nil
	}
	if err != nil {
		return st, fmt.Errorf("sqlite: stats: %w", err)
	}
	return st, nil
}

// Leaderboard implements store.Store.
func (db *DB) Leaderboard(ctx context.Context, minGames, limit int) ([]store.Stats, error) {
	if limit <= 0 {
		limit = 20
	}
	rows, err := db.r.QueryContext(ctx, `SELECT `+statsCols+` FROM results GROUP BY player_key HAVING count(*) >= ?
		ORDER BY sum(won) DESC, CAST(sum(won) AS REAL) / count(*) DESC, count(*) DESC, player_key LIMIT ?`, max(minGames, 1), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: leaderboard: %w", err)
	}
	defer rows.Close()
	var out []store.Stats
	for rows.Next() {
		st, err := scanStats(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: leaderboard: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
