package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
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

// DB is a store.Store (and a store.Cluster) in a PostgreSQL database.
type DB struct {
	pool    *pgxpool.Pool
	cfg     *pgxpool.Config
	opt     Options
	node    string
	now     func() time.Time
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
	cfg, err := pgxpool.ParseConfig(dsn)
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
	cfg.ConnConfig.RuntimeParams["application_name"] = "farkle " + opt.Node
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db := &DB{pool: pool, cfg: cfg, opt: opt, node: opt.Node, now: time.Now}
	var schema string
	if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db.channel = channelOf(schema)
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := db.fillSkeletons(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// Node returns the name of this node in the leases.
func (db *DB) Node() string { return db.node }

// Close closes the connections.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

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
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
			return fmt.Errorf("postgres: migration %s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`); err != nil {
			return fmt.Errorf("postgres: migrations table: %w", err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, v).Scan(&n); err != nil {
			return fmt.Errorf("postgres: migration %s: %w", name, err)
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, body); err != nil {
			return fmt.Errorf("postgres: migration %s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)`, v, name, db.now().UnixNano()); err != nil {
			return fmt.Errorf("postgres: migration %s: %w", name, err)
		}
		return nil
	})
}

// isUnique reports whether err is a uniqueness violation.
func isUnique(err error) bool { return pgCode(err) == "23505" }

// isForeignKey reports whether err is a foreign key violation.
func isForeignKey(err error) bool { return pgCode(err) == "23503" }

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// CreatePlayer implements store.Store.
func (db *DB) CreatePlayer(ctx context.Context, p store.Player) error {
	if p.ID == "" || p.TokenHash == "" {
		return store.Errorf(store.EINVALID, "a player needs an ID and a token hash")
	}
	return db.insertPlayer(ctx, p)
}

// insertPlayer stores p and, unless its token has ended (""), the
// session of its token, in one transaction.
func (db *DB) insertPlayer(ctx context.Context, p store.Player) error {
	if p.Created.IsZero() {
		p.Created = db.now()
	}
	th := p.TokenHash
	if th == "" {
		th = store.EndedToken(p.ID)
	}
	return db.inTx(ctx, "create player", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO players (id, name, token_hash, created) VALUES ($1, $2, $3, $4)`,
			p.ID, p.Name, th, p.Created.UnixNano())
		if isUnique(err) {
			return store.Errorf(store.ECONFLICT, "player %s already exists", p.ID)
		}
		if err != nil || p.TokenHash == "" {
			return err
		}
		s, err := store.Session{TokenHash: p.TokenHash, PlayerID: p.ID, Created: p.Created}.Prepare(p.Created)
		if err != nil {
			return err
		}
		return insertSession(ctx, tx, s)
	})
}

func (db *DB) player(ctx context.Context, col, arg string) (store.Player, error) {
	var p store.Player
	var created int64
	err := db.pool.QueryRow(ctx, `SELECT id, name, token_hash, created FROM players WHERE `+col+` = $1`, arg).
		Scan(&p.ID, &p.Name, &p.TokenHash, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err != nil {
		return p, fmt.Errorf("postgres: player: %w", err)
	}
	p.Created = time.Unix(0, created)
	if p.TokenHash == store.EndedToken(p.ID) {
		p.TokenHash = ""
	}
	return p, nil
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

// CreateTable implements store.Store.
func (db *DB) CreateTable(ctx context.Context, t store.Table) error {
	r, err := store.NewTableRow(t, db.now())
	if err != nil {
		return err
	}
	_, err = db.pool.Exec(ctx, `INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, reason, creator, rated, pace, local) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $10, $11, $12, $13)`,
		r.ID, r.Kind, r.Rules, r.Seats, r.Seed, r.Status, r.Created, r.Updated, r.Reason, r.Creator, r.Rated, r.Pace, r.Local)
	if isUnique(err) {
		return store.Errorf(store.ECONFLICT, "table %s already exists", t.ID)
	}
	if err != nil {
		return fmt.Errorf("postgres: create table: %w", err)
	}
	return nil
}

const tableCols = `id, kind, rules, seats::text, seed, status, actions, created, updated, coalesce(winners, ''), coalesce(scores, ''), reason, creator, rated, pace, local`

func scanTable(row pgx.Row) (store.Table, error) {
	var r store.TableRow
	if err := row.Scan(r.Fields()...); err != nil {
		return store.Table{}, err
	}
	t, err := r.Table()
	if err != nil {
		return t, fmt.Errorf("postgres: %w", err)
	}
	return t, nil
}

// Table implements store.Store.
func (db *DB) Table(ctx context.Context, id string) (store.Table, error) {
	t, err := scanTable(db.pool.QueryRow(ctx, `SELECT `+tableCols+` FROM tables WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return t, store.Errorf(store.ENOTFOUND, "no table %q", id)
	}
	if err != nil {
		return t, fmt.Errorf("postgres: table: %w", err)
	}
	return t, nil
}

// where returns the WHERE clause selecting f and its arguments.
func where(f store.TableFilter) (string, []any) {
	q := ` WHERE true`
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if len(f.Status) > 0 {
		st := make([]string, len(f.Status))
		for i, s := range f.Status {
			st[i] = string(s)
		}
		q += ` AND status = ANY(` + arg(st) + `)`
	}
	switch {
	case f.PlayerID != "" && store.OpenOnly(f.Status):
		// The index of open seats (invite.go) holds exactly these.
		q += ` AND id IN (SELECT table_id FROM open_seats WHERE player_id = ` + arg(f.PlayerID) + ` AND NOT invited)`
	case f.PlayerID != "":
		pj, _ := json.Marshal([]map[string]string{{"player_id": f.PlayerID}})
		q += ` AND seats @> ` + arg(string(pj)) + `::jsonb`
	}
	if f.Creator != "" {
		q += ` AND creator = ` + arg(f.Creator)
	}
	if f.Local {
		q += ` AND local`
	}
	return q, args
}

// CountTables implements store.Store.
func (db *DB) CountTables(ctx context.Context, f store.TableFilter) (int, error) {
	w, args := where(f)
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM tables`+w, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count tables: %w", err)
	}
	return n, nil
}

// Tables implements store.Store.
func (db *DB) Tables(ctx context.Context, f store.TableFilter) ([]store.Table, error) {
	w, args := where(f)
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	args = append(args, limit)
	rows, err := db.pool.Query(ctx, `SELECT `+tableCols+` FROM tables`+w+` ORDER BY updated DESC, id LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: tables: %w", err)
	}
	defer rows.Close()
	var out []store.Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: tables: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: tables: %w", err)
	}
	return out, nil
}

// inTx runs fn in a transaction; a *store.Error from fn is returned as it
// is, any other error wrapped with what.
func (db *DB) inTx(ctx context.Context, what string, fn func(tx pgx.Tx) error) error {
	err := pgx.BeginFunc(ctx, db.pool, fn)
	if err != nil && store.Code(err) == "" {
		return fmt.Errorf("postgres: %s: %w", what, err)
	}
	return err
}

// lockTable reads the status, seats (JSON) and number of actions of a
// table, locking its row until the transaction ends.
func lockTable(ctx context.Context, tx pgx.Tx, id string) (store.Status, string, int, error) {
	var st, sj string
	var n int
	err := tx.QueryRow(ctx, `SELECT status, seats::text, actions FROM tables WHERE id = $1 FOR UPDATE`, id).Scan(&st, &sj, &n)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", 0, store.Errorf(store.ENOTFOUND, "no table %q", id)
	}
	return store.Status(st), sj, n, err
}

// notify sends the change hint of a table with n actions in status st,
// delivered to the listening nodes when the transaction commits:
// "N STATUS ID".
func (db *DB) notify(ctx context.Context, tx pgx.Tx, id string, n int, st store.Status) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, db.channel, payload(id, n, st))
	return err
}

// payload is the change hint of table id with n actions in status st.
func payload(id string, n int, st store.Status) string {
	return strconv.Itoa(n) + " " + string(st) + " " + id
}

// ClaimSeat implements store.Store.
func (db *DB) ClaimSeat(ctx context.Context, tableID string, seat int, playerID, name string, status store.Status) error {
	return db.inTx(ctx, "claim seat", func(tx pgx.Tx) error {
		st, seats, n, err := lockTable(ctx, tx, tableID)
		if err != nil {
			return err
		}
		nj, err := store.Claim(tableID, st, seats, seat, playerID, name)
		if err != nil {
			return err
		}
		if status == "" {
			status = st
		}
		if _, err := tx.Exec(ctx, `UPDATE tables SET seats = $1, status = $2, updated = $3 WHERE id = $4`, nj, string(status), db.now().UnixNano(), tableID); err != nil {
			return err
		}
		return db.notify(ctx, tx, tableID, n, status)
	})
}

// FailTable implements store.Store.
func (db *DB) FailTable(ctx context.Context, id, reason string) error {
	return db.inTx(ctx, "fail table", func(tx pgx.Tx) error {
		st, _, n, err := lockTable(ctx, tx, id)
		if err != nil {
			return err
		}
		if st.Ended() {
			return store.Errorf(store.ECONFLICT, "table %s is %s: it cannot fail", id, st.Phrase())
		}
		if _, err := tx.Exec(ctx, `UPDATE tables SET status = $1, reason = $2, updated = $3 WHERE id = $4`,
			string(store.Failed), reason, db.now().UnixNano(), id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM leases WHERE table_id = $1`, id); err != nil {
			return err
		}
		return db.notify(ctx, tx, id, n, store.Failed)
	})
}

// ExpireWaiting implements store.Store. It is one conditional write: when
// several nodes run it at once, each table expires once, and the nodes hear
// of it through the change hints.
func (db *DB) ExpireWaiting(ctx context.Context, before time.Time, reason string) ([]string, error) {
	var ids []string
	err := db.inTx(ctx, "expire tables", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE tables SET status = $1, reason = $2, updated = $3 WHERE status = $4 AND updated < $5 RETURNING id, actions`,
			string(store.Expired), reason, db.now().UnixNano(), string(store.Waiting), before.UnixNano())
		if err != nil {
			return err
		}
		var ns []int
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return err
			}
			ids, ns = append(ids, id), append(ns, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM leases WHERE table_id = ANY($1)`, ids); err != nil {
			return err
		}
		for i, id := range ids {
			if err := db.notify(ctx, tx, id, ns[i], store.Expired); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(ids)
	return ids, nil
}

// AppendAction implements store.Store. The table's row is locked for the
// transaction, and the primary key (table_id, n) refuses a second action n
// whatever happens: of two nodes appending action n, one gets ECONFLICT.
// The change hint goes out with the commit.
func (db *DB) AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	if !json.Valid(entry) {
		return store.Errorf(store.EINVALID, "the action is not JSON")
	}
	if fin == nil {
		return db.appendOne(ctx, tableID, n, entry)
	}
	fj, err := fin.JSON()
	if err != nil {
		return err
	}
	return db.inTx(ctx, "append action", func(tx pgx.Tx) error {
		st, _, have, err := lockTable(ctx, tx, tableID)
		if err != nil {
			return err
		}
		if err := store.CheckAppend(tableID, st, have, n); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO actions (table_id, n, entry) VALUES ($1, $2, $3)`, tableID, n, string(entry)); err != nil {
			if isUnique(err) {
				return store.Errorf(store.ECONFLICT, "table %s already has action %d", tableID, n)
			}
			return err
		}
		now := db.now().UnixNano()
		if _, err = tx.Exec(ctx, `UPDATE tables SET actions = $1, status = $2, updated = $3, winners = $4, scores = $5, record = $6 WHERE id = $7`,
			n, string(store.Over), now, string(fj.Winners), string(fj.Scores), string(fj.Record), tableID); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, r := range fin.Results {
			b.Queue(`INSERT INTO results (table_id, seat, player_key, name, score, won, turns, farkles, banked, best_turn, penalties, finished) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
				tableID, r.Seat, r.PlayerKey, r.Name, r.Score, r.Won, r.Turns, r.Farkles, r.Banked, r.BestTurn, r.Penalties, now)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM leases WHERE table_id = $1`, tableID); err != nil {
			return err
		}
		return db.notify(ctx, tx, tableID, n, store.Over)
	})
}

// appendOne is AppendAction of an action that does not end the game, the
// most common write, in one statement (one round trip): the table's row
// is locked, the action inserted and the table updated only if the action
// follows, and the change hint sent with the commit. When nothing was
// written the row read says why.
func (db *DB) appendOne(ctx context.Context, tableID string, n int, entry json.RawMessage) error {
	var st string
	var have, written int
	err := db.pool.QueryRow(ctx, `WITH t AS (SELECT status, actions FROM tables WHERE id = $1 FOR UPDATE),
		ins AS (INSERT INTO actions (table_id, n, entry) SELECT $1, $2, $3 FROM t WHERE t.actions = $2 - 1 AND t.status IN ('waiting', 'playing') RETURNING n),
		up AS (UPDATE tables SET actions = $2, status = 'playing', updated = $4 WHERE id = $1 AND EXISTS (SELECT 1 FROM ins) RETURNING id),
		hint AS (SELECT pg_notify($6, $5) FROM up)
		SELECT t.status, t.actions, (SELECT count(*) FROM hint) FROM t`,
		tableID, n, string(entry), db.now().UnixNano(), payload(tableID, n, store.Playing), db.channel).Scan(&st, &have, &written)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
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

// Actions implements store.Store.
func (db *DB) Actions(ctx context.Context, tableID string) ([]json.RawMessage, error) {
	rows, err := db.pool.Query(ctx, `SELECT n, entry FROM actions WHERE table_id = $1 ORDER BY n`, tableID)
	if err != nil {
		return nil, fmt.Errorf("postgres: actions: %w", err)
	}
	defer rows.Close()
	var out []json.RawMessage
	for rows.Next() {
		var n int
		var e string
		if err := rows.Scan(&n, &e); err != nil {
			return nil, fmt.Errorf("postgres: actions: %w", err)
		}
		if n != len(out)+1 {
			return nil, fmt.Errorf("postgres: actions of %s: action %d is missing", tableID, len(out)+1)
		}
		out = append(out, json.RawMessage(e))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: actions: %w", err)
	}
	return out, nil
}

// FinalRecord implements store.Store.
func (db *DB) FinalRecord(ctx context.Context, tableID string) (*game.Record, error) {
	var rj *string
	err := db.pool.QueryRow(ctx, `SELECT record FROM tables WHERE id = $1`, tableID).Scan(&rj)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && rj == nil) {
		return nil, store.Errorf(store.ENOTFOUND, "no finished game at table %q", tableID)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: final record: %w", err)
	}
	rec, err := game.ParseRecord([]byte(*rj))
	if err != nil {
		return nil, fmt.Errorf("postgres: final record of %s: %w", tableID, err)
	}
	return rec, nil
}

const statsCols = `player_key, (SELECT name FROM results r2 WHERE r2.player_key = results.player_key ORDER BY finished DESC, table_id DESC LIMIT 1),
	count(*), count(*) FILTER (WHERE won), sum(turns), sum(farkles), sum(banked), max(best_turn)`

func scanStats(row pgx.Row) (store.Stats, error) {
	var st store.Stats
	var games, wins, turns, farkles, banked, best int64
	err := row.Scan(&st.PlayerKey, &st.Name, &games, &wins, &turns, &farkles, &banked, &best)
	st.Games, st.Wins, st.Turns, st.Farkles, st.Banked, st.BestTurn = int(games), int(wins), int(turns), int(farkles), int(banked), int(best)
	return st, err
}

// Stats implements store.Store.
func (db *DB) Stats(ctx context.Context, playerKey string) (store.Stats, error) {
	st, err := scanStats(db.pool.QueryRow(ctx, `SELECT `+statsCols+` FROM results WHERE player_key = $1 GROUP BY player_key`, playerKey))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Stats{PlayerKey: playerKey}, nil
	}
	if err != nil {
		return st, fmt.Errorf("postgres: stats: %w", err)
	}
	return st, nil
}

// Leaderboard implements store.Store.
func (db *DB) Leaderboard(ctx context.Context, minGames, limit int) ([]store.Stats, error) {
	if limit <= 0 {
		limit = 20
	}
	rows, err := db.pool.Query(ctx, `SELECT `+statsCols+` FROM results GROUP BY player_key HAVING count(*) >= $1
		ORDER BY count(*) FILTER (WHERE won) DESC, (count(*) FILTER (WHERE won))::float8 / count(*) DESC, count(*) DESC, player_key LIMIT $2`, max(minGames, 1), limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: leaderboard: %w", err)
	}
	defer rows.Close()
	var out []store.Stats
	for rows.Next() {
		st, err := scanStats(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: leaderboard: %w", err)
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: leaderboard: %w", err)
	}
	return out, nil
}

// Health implements store.Store: it rewrites the one row of the health
// table and reads it back.
func (db *DB) Health(ctx context.Context) error {
	var n int64
	err := db.pool.QueryRow(ctx, `INSERT INTO health (id, n, at) VALUES (1, 1, $1)
		ON CONFLICT (id) DO UPDATE SET n = health.n + 1, at = excluded.at RETURNING n`, db.now().UnixNano()).Scan(&n)
	if err != nil {
		return fmt.Errorf("postgres: health: write: %w", err)
	}
	var got int64
	if err := db.pool.QueryRow(ctx, `SELECT n FROM health WHERE id = 1`).Scan(&got); err != nil {
		return fmt.Errorf("postgres: health: read: %w", err)
	}
	if got < n {
		return fmt.Errorf("postgres: health: read %d back after writing %d", got, n)
	}
	return nil
}
