package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// CreateTable implements store.Store.
func (db *DB) CreateTable(ctx context.Context, t store.Table) error {
	r, err := store.NewTableRow(t, db.Now())
	if err != nil {
		return err
	}
	_, err = db.exec(ctx, db.W, `INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, reason, creator, rated, pace, local, tournament) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.Kind, r.Rules, r.Seats, r.Seed, r.Status, r.Created, r.Updated, r.Reason, r.Creator, r.Rated, r.Pace, r.Local, r.Tournament)
	if db.D.IsUnique(err) {
		return store.Errorf(store.ECONFLICT, "table %s already exists", t.ID)
	}
	if err != nil {
		return db.Errorf("create table", err)
	}
	return nil
}

// TableCols are the columns ScanTable reads.
const TableCols = `id, kind, rules, CAST(seats AS TEXT), seed, status, actions, created, updated, acted, coalesce(winners, ''), coalesce(scores, ''), reason, creator, rated, pace, local, tournament`

// ScanTable scans the columns TableCols, and more after them into more.
func ScanTable(s Scanner, more ...any) (store.Table, error) {
	var r store.TableRow
	if err := s.Scan(append(r.Fields(), more...)...); err != nil {
		return store.Table{}, err
	}
	return r.Table()
}

func scanTable(s Scanner) (store.Table, error) { return ScanTable(s) }

// Table implements store.Store.
func (db *DB) Table(ctx context.Context, id string) (store.Table, error) {
	t, err := ScanTable(db.row(ctx, db.R, `SELECT `+TableCols+` FROM tables WHERE id = ?`, id))
	if err = notFound(err, "no table %q", id); err != nil {
		return t, db.fail("table", err)
	}
	return t, nil
}

// Where returns the WHERE clause selecting f and its arguments. A
// player's open tables are read from the index of open seats (invite.go),
// which holds exactly those: the player's rows lead, and the status is
// checked on each of their tables, not searched.
func Where(f store.TableFilter) (string, []any) {
	q := ` WHERE 1=1`
	var args []any
	byIndex := f.PlayerID != "" && store.OpenOnly(f.Status)
	if byIndex {
		q += ` AND id IN (SELECT table_id FROM open_seats WHERE player_id = ? AND invited = {false})`
		args = append(args, f.PlayerID)
	}
	if len(f.Status) > 0 {
		col := `status`
		if byIndex {
			col = `{unindexed status}`
		}
		st := make([]string, len(f.Status))
		for i, s := range f.Status {
			st[i] = string(s)
		}
		in, sa := In(st)
		q += ` AND ` + col + ` IN ` + in
		args = append(args, sa...)
	}
	if f.PlayerID != "" && !byIndex {
		q += ` AND {seat holder}`
		args = append(args, seatHolder{f.PlayerID})
	}
	if f.Creator != "" {
		q += ` AND creator = ?`
		args = append(args, f.Creator)
	}
	if f.Local {
		q += ` AND local = {true}`
	}
	if f.ResultOf != "" {
		q += ` AND id IN (SELECT table_id FROM results WHERE player_key = ?)`
		args = append(args, f.ResultOf)
	}
	return q, args
}

// seatHolder is the argument of {seat holder}, which the Dialect's
// SeatArg writes.
type seatHolder struct{ player string }

// args returns args with each seatHolder written for the database.
func (db *DB) args(args []any) []any {
	for i, a := range args {
		if h, ok := a.(seatHolder); ok {
			args[i] = db.D.SeatArg(h.player)
		}
	}
	return args
}

// CountTables implements store.Store.
func (db *DB) CountTables(ctx context.Context, f store.TableFilter) (int, error) {
	w, args := Where(f)
	n, err := db.count(ctx, db.R, `SELECT count(*) FROM tables`+w, db.args(args)...)
	if err != nil {
		return 0, db.Errorf("count tables", err)
	}
	return n, nil
}

// Tables implements store.Store. The tables come newest first by the
// index (status, updated): a table in play by when it began or its seats
// last changed, not by its last action (acted, in no index).
func (db *DB) Tables(ctx context.Context, f store.TableFilter) ([]store.Table, error) {
	w, args := Where(f)
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	return readAll(ctx, db, "tables", scanTable, `SELECT `+TableCols+` FROM tables`+w+` ORDER BY updated DESC, id LIMIT ?`, append(db.args(args), limit)...)
}

// lockTable reads the status, seats (JSON) and number of actions of a
// table, locking its row until the transaction ends.
func (db *DB) lockTable(ctx context.Context, tx *sql.Tx, id string) (store.Status, string, int, error) {
	var st, sj string
	var n int
	err := db.row(ctx, tx, `SELECT status, CAST(seats AS TEXT), actions FROM tables WHERE id = ?{for update}`, id).Scan(&st, &sj, &n)
	return store.Status(st), sj, n, notFound(err, "no table %q", id)
}

// ClaimSeat implements store.Store.
func (db *DB) ClaimSeat(ctx context.Context, tableID string, seat int, playerID, name string, status store.Status) error {
	return db.InTx(ctx, "claim seat", func(tx *sql.Tx) error {
		st, seats, n, err := db.lockTable(ctx, tx, tableID)
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
		if _, err := db.exec(ctx, tx, `UPDATE tables SET seats = ?, status = ?, updated = ? WHERE id = ?`, nj, string(status), db.Now().UnixNano(), tableID); err != nil {
			return err
		}
		return db.changed(ctx, tx, tableID, n, status)
	})
}

// FailTable implements store.Store.
func (db *DB) FailTable(ctx context.Context, id, reason string) error {
	return db.InTx(ctx, "fail table", func(tx *sql.Tx) error {
		st, _, n, err := db.lockTable(ctx, tx, id)
		if err != nil {
			return err
		}
		if st.Ended() {
			return store.Errorf(store.ECONFLICT, "table %s is %s: it cannot fail", id, st.Phrase())
		}
		if _, err := db.exec(ctx, tx, `UPDATE tables SET status = ?, reason = ?, updated = ? WHERE id = ?`,
			string(store.Failed), reason, db.Now().UnixNano(), id); err != nil {
			return err
		}
		return db.changed(ctx, tx, id, n, store.Failed)
	})
}

// ExpireWaiting implements store.Store. It is one conditional write: when
// several nodes run it at once, each table expires once.
func (db *DB) ExpireWaiting(ctx context.Context, before time.Time, reason string) ([]string, error) {
	type expired struct {
		id string
		n  int
	}
	var ids []string
	err := db.InTx(ctx, "expire tables", func(tx *sql.Tx) error {
		ts, err := all(ctx, db, tx, func(s Scanner) (expired, error) {
			var e expired
			return e, s.Scan(&e.id, &e.n)
		}, `UPDATE tables SET status = ?, reason = ?, updated = ? WHERE status = ? AND updated < ? RETURNING id, actions`,
			string(store.Expired), reason, db.Now().UnixNano(), string(store.Waiting), before.UnixNano())
		if err != nil {
			return err
		}
		for _, t := range ts {
			ids = append(ids, t.id)
			if err := db.changed(ctx, tx, t.id, t.n, store.Expired); err != nil {
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

// ExpireIdle implements store.Store. It is one conditional write.
func (db *DB) ExpireIdle(ctx context.Context, id string, before time.Time, reason string) error {
	return db.InTx(ctx, "expire table", func(tx *sql.Tx) error {
		var n int
		err := db.row(ctx, tx, `UPDATE tables SET status = ?, reason = ?, updated = ? WHERE id = ? AND status IN (?, ?) AND updated < ? AND acted < ? RETURNING actions`,
			string(store.Expired), reason, db.Now().UnixNano(), id, string(store.Waiting), string(store.Playing), before.UnixNano(), before.UnixNano()).Scan(&n)
		if err == sql.ErrNoRows {
			st, _, _, err := db.lockTable(ctx, tx, id)
			if err != nil {
				return err
			}
			return store.Errorf(store.ECONFLICT, "table %s is %s or changed since %s: it is not idle", id, st.Phrase(), before.UTC().Format(time.RFC3339))
		}
		if err != nil {
			return err
		}
		return db.changed(ctx, tx, id, n, store.Expired)
	})
}

// Append is one AppendAction's write.
type Append struct {
	Table   string
	N       int
	Entry   json.RawMessage
	Fin     *store.FinishJSON // nil unless the action ends the game
	Results []store.Result
	// Quiet says that no other node needs to hear of the action: its
	// change hint is not sent (store.Quieter).
	Quiet bool
}

// NewAppend checks an AppendAction's arguments: EINVALID if the entry is
// not JSON or the record cannot be written.
func NewAppend(tableID string, n int, entry json.RawMessage, fin *store.Finish) (Append, error) {
	if !json.Valid(entry) {
		return Append{}, store.Errorf(store.EINVALID, "the action is not JSON")
	}
	a := Append{Table: tableID, N: n, Entry: entry}
	if fin != nil {
		fj, err := fin.JSON()
		if err != nil {
			return Append{}, err
		}
		a.Fin, a.Results = &fj, fin.Results
	}
	return a, nil
}

// AppendAction implements store.Store: the append in a transaction of its
// own.
func (db *DB) AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *store.Finish) error {
	a, err := NewAppend(tableID, n, entry, fin)
	if err != nil {
		return err
	}
	return db.InTx(ctx, "append action", func(tx *sql.Tx) error { return db.AppendIn(ctx, tx, &a, db.Now().UnixNano()) })
}

// ActionUpdate is the write of an action to its table's row when it
// changes neither the status nor the seats: the count and the time, in
// acted, which no index holds (store.TableRow.Acted), so that the most
// common write moves no index entry. Its arguments: the count, the time,
// the table's ID.
const ActionUpdate = `UPDATE tables SET actions = ?, acted = ? WHERE id = ?`

// ActionUpdateIf is ActionUpdate only if the table has the count and the
// status of its last two arguments.
const ActionUpdateIf = ActionUpdate + ` AND actions = ? AND status = ?`

// AppendIn writes the append a in the transaction tx at the time now. The
// table's row is locked for the transaction, and the primary key
// (table_id, n) refuses a second action n whatever happens: of two
// appending action n, one gets ECONFLICT. An error that is not a
// *store.Error is the database's.
func (db *DB) AppendIn(ctx context.Context, tx *sql.Tx, a *Append, now int64) error {
	// The statements are called on tx itself, not through exec and row:
	// arguments passed on through an interface escape, an allocation a
	// statement on the most common write.
	var st string
	var have int
	err := tx.QueryRowContext(ctx, db.D.SQL(`SELECT status, actions FROM tables WHERE id = ?{for update}`), a.Table).Scan(&st, &have)
	if err != nil { // (notFound called only now: its arguments cost an allocation)
		return notFound(err, "no table %q", a.Table)
	}
	if err := store.CheckAppend(a.Table, store.Status(st), have, a.N); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, db.D.SQL(`INSERT INTO actions (table_id, n, entry) VALUES (?, ?, ?)`), a.Table, a.N, string(a.Entry)); err != nil {
		if db.D.IsUnique(err) {
			return store.Errorf(store.ECONFLICT, "table %s already has action %d", a.Table, a.N)
		}
		return err
	}
	after := store.Playing
	switch {
	case a.Fin == nil && store.Status(st) == store.Playing:
		// The status is left out unless it changes: writing it would run
		// the check of the open seats' trigger (migration 0014) on the
		// most common write.
		// Nor is updated: the time goes to acted (ActionUpdate).
		_, err = tx.ExecContext(ctx, db.D.SQL(ActionUpdate), a.N, now, a.Table)
	case a.Fin == nil:
		_, err = db.exec(ctx, tx, `UPDATE tables SET actions = ?, status = ?, updated = ? WHERE id = ?`, a.N, string(store.Playing), now, a.Table)
	default:
		after = store.Over
		_, err = db.exec(ctx, tx, `UPDATE tables SET actions = ?, status = ?, updated = ?, winners = ?, scores = ?, record = ? WHERE id = ?`,
			a.N, string(store.Over), now, string(a.Fin.Winners), string(a.Fin.Scores), string(a.Fin.Record), a.Table)
		for _, r := range a.Results {
			if err != nil {
				break
			}
			err = db.insertResult(ctx, tx, a.Table, r, now)
		}
	}
	if err != nil {
		return err
	}
	return db.changed(ctx, tx, a.Table, a.N, after)
}

// AppendStmts are the two statements of the most common append, prepared
// once on the writing pool: an action that does not end the game, at a
// table in play. A store whose writes go through one connection (SQLite)
// then never prepares them again.
type AppendStmts struct{ update, insert *sql.Stmt }

// PrepareAppend prepares the statements of the most common append.
func (db *DB) PrepareAppend(ctx context.Context) (*AppendStmts, error) {
	update, err := db.W.PrepareContext(ctx, db.D.SQL(ActionUpdateIf))
	if err != nil {
		return nil, err
	}
	insert, err := db.W.PrepareContext(ctx, db.D.SQL(`INSERT INTO actions (table_id, n, entry) VALUES (?, ?, ?)`))
	if err != nil {
		update.Close()
		return nil, err
	}
	return &AppendStmts{update, insert}, nil
}

// Close closes the statements.
func (s *AppendStmts) Close() error { return errors.Join(s.update.Close(), s.insert.Close()) }

// In returns the statements for tx, which the transaction's connection
// has prepared already (database/sql prepares them again only on another
// connection).
func (s *AppendStmts) In(ctx context.Context, tx *sql.Tx) *AppendStmts {
	return &AppendStmts{tx.StmtContext(ctx, s.update), tx.StmtContext(ctx, s.insert)}
}

// AppendPlaying writes append a in tx, with s from In, if it is the most
// common one: an action that does not end the game, following the n-1 of
// a table in play. The table's count and time are updated only if it has
// n-1 actions and is in play, which are AppendIn's checks made by the
// write itself; then the action is inserted: two statements, no read.
// ok is false, with nothing written, if a is not that append: AppendIn
// writes it or says why it is refused. An error is the database's (an
// action n already there although the table counts n-1 is one: the
// database is inconsistent).
func (db *DB) AppendPlaying(ctx context.Context, tx *sql.Tx, s *AppendStmts, a *Append, now int64) (ok bool, err error) {
	if a.Fin != nil {
		return false, nil
	}
	res, err := s.update.ExecContext(ctx, a.N, now, a.Table, a.N-1, string(store.Playing))
	if err != nil {
		return false, err
	}
	if k, err := res.RowsAffected(); err != nil || k != 1 {
		return false, err
	}
	if _, err := s.insert.ExecContext(ctx, a.Table, a.N, string(a.Entry)); err != nil {
		return false, fmt.Errorf("action %d of table %s: %w", a.N, a.Table, err)
	}
	return true, db.changed(ctx, tx, a.Table, a.N, store.Playing)
}

// insertResult stores one seat's result of a finished game.
func (db *DB) insertResult(ctx context.Context, tx *sql.Tx, tableID string, r store.Result, finished int64) error {
	_, err := db.exec(ctx, tx, `INSERT INTO results (table_id, seat, player_key, name, score, won, turns, farkles, banked, best_turn, penalties, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		tableID, r.Seat, r.PlayerKey, r.Name, r.Score, r.Won, r.Turns, r.Farkles, r.Banked, r.BestTurn, r.Penalties, finished)
	return err
}

// Actions implements store.Store.
func (db *DB) Actions(ctx context.Context, tableID string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := db.EachAction(ctx, tableID, func(n int, entry string) error {
		out = append(out, json.RawMessage(entry))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ActionsFrom implements store.Store.
func (db *DB) ActionsFrom(ctx context.Context, tableID string, from int) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := db.eachAction(ctx, tableID, max(1, from), func(n int, entry string) error {
		out = append(out, json.RawMessage(entry))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachAction calls fn with the number and JSON entry of each action of
// tableID in order, stopping at fn's first error. A gap in the numbering
// (an action missing) is an error.
func (db *DB) EachAction(ctx context.Context, tableID string, fn func(n int, entry string) error) error {
	return db.eachAction(ctx, tableID, 1, fn)
}

// eachAction is EachAction from action from on.
func (db *DB) eachAction(ctx context.Context, tableID string, from int, fn func(n int, entry string) error) error {
	rows, err := db.query(ctx, db.R, `SELECT n, entry FROM actions WHERE table_id = ? AND n >= ? ORDER BY n`, tableID, from)
	if err != nil {
		return db.Errorf("actions", err)
	}
	defer rows.Close()
	for want := from; rows.Next(); want++ {
		var n int
		var ej string
		if err := rows.Scan(&n, &ej); err != nil {
			return db.Errorf("actions", err)
		}
		if n != want {
			return db.Errorf("actions of "+tableID, fmtErr("action %d is missing", want))
		}
		if err := fn(n, ej); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return db.Errorf("actions", err)
	}
	return nil
}

// FinalRecord implements store.Store.
func (db *DB) FinalRecord(ctx context.Context, tableID string) (*game.Record, error) {
	var rj sql.NullString
	err := db.row(ctx, db.R, `SELECT record FROM tables WHERE id = ?`, tableID).Scan(&rj)
	if err == nil && !rj.Valid {
		err = sql.ErrNoRows
	}
	if err = notFound(err, "no finished game at table %q", tableID); err != nil {
		return nil, db.fail("final record", err)
	}
	rec, err := game.ParseRecord([]byte(rj.String))
	if err != nil {
		return nil, db.Errorf("final record of "+tableID, err)
	}
	return rec, nil
}

const statsCols = `player_key, (SELECT name FROM results r2 WHERE r2.player_key = results.player_key ORDER BY finished DESC, table_id DESC LIMIT 1),
	count(*), count(*) FILTER (WHERE won), sum(turns), sum(farkles), sum(banked), max(best_turn),
	EXISTS (SELECT 1 FROM accounts AS a WHERE a.player_id = results.player_key), sum(score), max(score)`

func scanStats(s Scanner) (store.Stats, error) {
	var st store.Stats
	err := s.Scan(&st.PlayerKey, &st.Name, &st.Games, &st.Wins, &st.Turns, &st.Farkles, &st.Banked, &st.BestTurn, &st.Account, &st.Score, &st.BestScore)
	return st, err
}

// Stats implements store.Store.
func (db *DB) Stats(ctx context.Context, playerKey string) (store.Stats, error) {
	st, err := scanStats(db.row(ctx, db.R, `SELECT `+statsCols+` FROM results WHERE player_key = ? GROUP BY player_key`, playerKey))
	if err == sql.ErrNoRows {
		return store.Stats{PlayerKey: playerKey}, nil
	}
	if err != nil {
		return st, db.Errorf("stats", err)
	}
	return st, nil
}

// Leaderboard implements store.Store. The games of one kind are those of
// its tables (by their primary key), joined to the results.
func (db *DB) Leaderboard(ctx context.Context, kind game.Kind, minGames, limit int) ([]store.Stats, error) {
	if limit <= 0 {
		limit = 20
	}
	from, args := `results`, []any{}
	if kind != "" {
		from, args = `results JOIN tables ON tables.id = results.table_id AND tables.kind = ?`, []any{string(kind)}
	}
	return readAll(ctx, db, "leaderboard", scanStats, `SELECT `+statsCols+` FROM `+from+` GROUP BY player_key HAVING count(*) >= ?
		ORDER BY count(*) FILTER (WHERE won) DESC, CAST(count(*) FILTER (WHERE won) AS DOUBLE PRECISION) / count(*) DESC, count(*) DESC, player_key LIMIT ?`, append(args, max(minGames, 1), limit)...)
}
