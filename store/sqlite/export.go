package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"
)

var _ store.Exporter = (*DB)(nil)

// EachPlayer implements store.Exporter.
func (db *DB) EachPlayer(ctx context.Context, fn func(store.Player) error) error {
	rows, err := db.R.QueryContext(ctx, `SELECT id, name, token_hash, created FROM players ORDER BY created, id`)
	if err != nil {
		return fmt.Errorf("sqlite: players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		p, err := sqlstore.ScanPlayer(rows)
		if err != nil {
			return fmt.Errorf("sqlite: players: %w", err)
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return rows.Err()
}

// EachTable implements store.Exporter. The tables' IDs are read first, then
// each table with its data.
func (db *DB) EachTable(ctx context.Context, fn func(store.TableData) error) error {
	var ids []string
	rows, err := db.R.QueryContext(ctx, `SELECT id FROM tables ORDER BY created, id`)
	if err != nil {
		return fmt.Errorf("sqlite: tables: %w", err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: tables: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlite: tables: %w", err)
	}
	for _, id := range ids {
		d, err := db.tableData(ctx, id)
		if err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

// tableData reads one table with its actions, record and results.
func (db *DB) tableData(ctx context.Context, id string) (store.TableData, error) {
	var d store.TableData
	var rec sql.NullString
	t, err := sqlstore.ScanTable(db.R.QueryRowContext(ctx, `SELECT `+sqlstore.TableCols+`, record FROM tables WHERE id = ?`, id), &rec)
	if err != nil {
		return d, fmt.Errorf("sqlite: table %s: %w", id, err)
	}
	d.Table = t
	if rec.Valid {
		d.Record = json.RawMessage(rec.String)
	}
	if d.Actions, err = db.Actions(ctx, id); err != nil {
		return d, err
	}
	rows, err := db.R.QueryContext(ctx, `SELECT seat, player_key, name, score, won, turns, farkles, banked, best_turn, penalties, finished FROM results WHERE table_id = ? ORDER BY seat`, id)
	if err != nil {
		return d, fmt.Errorf("sqlite: results of %s: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var r store.Result
		var finished int64
		if err := rows.Scan(&r.Seat, &r.PlayerKey, &r.Name, &r.Score, &r.Won, &r.Turns, &r.Farkles, &r.Banked, &r.BestTurn, &r.Penalties, &finished); err != nil {
			return d, fmt.Errorf("sqlite: results of %s: %w", id, err)
		}
		d.Results = append(d.Results, r)
		d.Finished = time.Unix(0, finished)
	}
	return d, rows.Err()
}

// uncopied are the tables of what EachPlayer and EachTable do not read
// out, by the name Uncopied gives them. The session of the token a player
// was made with goes with the player; its other sessions do not.
var uncopied = []struct{ name, table string }{
	{"accounts", "accounts"}, {"passkeys", "passkeys"},
	{"sessions", "sessions s WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.token_hash = s.token_hash)"}, {"SSH keys", "ssh_keys"},
	{"ratings", "ratings"}, {"rating changes", "rating_changes"}, {"chat lines", "chat"}, {"tournaments", "tournaments"},
	{"blocks", "blocks"},
	{"moderators", "moderators"}, {"sanctions", "sanctions"}, {"reports", "reports"}, {"moderation log entries", "moderation_log"}, {"notices", "notices"},
}

// Uncopied implements store.Exporter.
func (db *DB) Uncopied(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	for _, u := range uncopied {
		var n int
		if err := db.R.QueryRowContext(ctx, `SELECT count(*) FROM `+u.table).Scan(&n); err != nil {
			return nil, fmt.Errorf("sqlite: %s: %w", u.name, err)
		}
		if n > 0 {
			out[u.name] = n
		}
	}
	return out, nil
}
