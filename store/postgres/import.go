package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

var _ store.Importer = (*DB)(nil)

// Empty implements store.Importer.
func (db *DB) Empty(ctx context.Context) (bool, error) {
	var any bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM players) OR EXISTS (SELECT 1 FROM tables)`).Scan(&any)
	if err != nil {
		return false, fmt.Errorf("postgres: %w", err)
	}
	return !any, nil
}

// ImportPlayer implements store.Importer.
func (db *DB) ImportPlayer(ctx context.Context, p store.Player) error {
	if p.Created.IsZero() {
		return store.Errorf(store.EINVALID, "player %s has no creation time", p.ID)
	}
	return db.insertPlayer(ctx, p) // a TokenHash of "": its token had ended, and stays so
}

// ImportTable implements store.Importer.
func (db *DB) ImportTable(ctx context.Context, d store.TableData) error {
	t := d.Table
	if t.ID == "" || len(t.Seats) == 0 || t.Kind == "" || !json.Valid(t.Rules) {
		return store.Errorf(store.EINVALID, "table %q cannot be stored: it needs an ID, a kind, seats and JSON rules", t.ID)
	}
	if t.Actions != len(d.Actions) {
		return store.Errorf(store.EINVALID, "table %s counts %d actions but has %d", t.ID, t.Actions, len(d.Actions))
	}
	sj, _ := json.Marshal(t.Seats)
	var winners, scores, rec *string
	if t.Winners != nil {
		w, _ := json.Marshal(t.Winners)
		winners = ptr(string(w))
	}
	if t.Scores != nil {
		s, _ := json.Marshal(t.Scores)
		scores = ptr(string(s))
	}
	if d.Record != nil {
		rec = ptr(string(d.Record))
	}
	return db.inTx(ctx, "import table", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, winners, scores, record, reason, creator, rated, pace, local)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
			t.ID, string(t.Kind), string(t.Rules), string(sj), t.Seed.Hex(), string(t.Status), t.Actions, t.Created.UnixNano(), t.Updated.UnixNano(),
			winners, scores, rec, t.Reason, t.Creator, t.Rated, t.Pace, t.Local)
		if isUnique(err) {
			return store.Errorf(store.ECONFLICT, "table %s already exists", t.ID)
		}
		if err != nil {
			return err
		}
		rows := make([][]any, len(d.Actions))
		for i, e := range d.Actions {
			rows[i] = []any{t.ID, i + 1, string(e)}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"actions"}, []string{"table_id", "n", "entry"}, pgx.CopyFromRows(rows)); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, r := range d.Results {
			b.Queue(`INSERT INTO results (table_id, seat, player_key, name, score, won, turns, farkles, banked, best_turn, penalties, finished) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
				t.ID, r.Seat, r.PlayerKey, r.Name, r.Score, r.Won, r.Turns, r.Farkles, r.Banked, r.BestTurn, r.Penalties, d.Finished.UnixNano())
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

func ptr[T any](v T) *T { return &v }
