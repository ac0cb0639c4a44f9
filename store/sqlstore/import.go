package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/farkle/farkle/store"
)

var _ store.Importer = (*DB)(nil)

// Empty implements store.Importer.
func (db *DB) Empty(ctx context.Context) (bool, error) {
	var any bool
	err := db.row(ctx, db.R, `SELECT EXISTS (SELECT 1 FROM players) OR EXISTS (SELECT 1 FROM tables)`).Scan(&any)
	if err != nil {
		return false, db.Errorf("empty", err)
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

// ImportTable implements store.Importer: the table, its actions, record
// and results in one transaction (the web page's local games are stored
// so, over at once).
func (db *DB) ImportTable(ctx context.Context, d store.TableData) error {
	t := d.Table
	if t.ID == "" || len(t.Seats) == 0 || t.Kind == "" || !json.Valid(t.Rules) {
		return store.Errorf(store.EINVALID, "table %q cannot be stored: it needs an ID, a kind, seats and JSON rules", t.ID)
	}
	if t.Actions != len(d.Actions) {
		return store.Errorf(store.EINVALID, "table %s counts %d actions but has %d", t.ID, t.Actions, len(d.Actions))
	}
	for i, e := range d.Actions {
		if !json.Valid(e) {
			return store.Errorf(store.EINVALID, "action %d of table %s is not JSON", i+1, t.ID)
		}
	}
	sj, _ := json.Marshal(t.Seats)
	var winners, scores, rec sql.NullString
	if t.Winners != nil {
		w, _ := json.Marshal(t.Winners)
		winners = sql.NullString{String: string(w), Valid: true}
	}
	if t.Scores != nil {
		s, _ := json.Marshal(t.Scores)
		scores = sql.NullString{String: string(s), Valid: true}
	}
	if d.Record != nil {
		rec = sql.NullString{String: string(d.Record), Valid: true}
	}
	return db.InTx(ctx, "import table", func(tx *sql.Tx) error {
		_, err := db.exec(ctx, tx, `INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, winners, scores, record, reason, creator, rated, pace, local, tournament)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, string(t.Kind), string(t.Rules), string(sj), t.Seed.Hex(), string(t.Status), t.Actions, t.Created.UnixNano(), t.Updated.UnixNano(),
			winners, scores, rec, t.Reason, t.Creator, t.Rated, t.Pace, t.Local, t.Tournament)
		if db.D.IsUnique(err) {
			return store.Errorf(store.ECONFLICT, "table %s already exists", t.ID)
		}
		if err != nil {
			return err
		}
		if err := db.insertActions(ctx, tx, t.ID, d.Actions); err != nil {
			return err
		}
		for _, r := range d.Results {
			if err := db.insertResult(ctx, tx, t.ID, r, d.Finished.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
}

// actionRows is the most actions insertActions writes in one statement
// (three arguments each, well under either database's bound).
const actionRows = 500

// insertActions stores a table's actions numbered from 1, many to a
// statement, so that a long game is a few round trips.
func (db *DB) insertActions(ctx context.Context, tx *sql.Tx, tableID string, actions []json.RawMessage) error {
	for start := 0; start < len(actions); start += actionRows {
		chunk := actions[start:min(start+actionRows, len(actions))]
		q := `INSERT INTO actions (table_id, n, entry) VALUES (?, ?, ?)` + strings.Repeat(`, (?, ?, ?)`, len(chunk)-1)
		args := make([]any, 0, 3*len(chunk))
		for i, e := range chunk {
			args = append(args, tableID, start+i+1, string(e))
		}
		if _, err := db.exec(ctx, tx, q, args...); err != nil {
			return err
		}
	}
	return nil
}
