package sqlstore

import (
	"context"
	"database/sql"

	"github.com/farkle/farkle/store"
)

// What the turn clock and absence write of a table: a seat lost on time,
// a game against bots adjourned and resumed.

// LoseOnTime implements store.Store.
func (db *DB) LoseOnTime(ctx context.Context, tableID string, seat int) error {
	return db.InTx(ctx, "lose on time", func(tx *sql.Tx) error {
		st, seats, n, err := db.lockTable(ctx, tx, tableID)
		if err != nil {
			return err
		}
		nj, err := store.LoseOnTime(tableID, seats, seat)
		if err != nil {
			return err
		}
		if _, err := db.exec(ctx, tx, `UPDATE tables SET seats = ? WHERE id = ?`, nj, tableID); err != nil {
			return err
		}
		return db.changed(ctx, tx, tableID, n, st)
	})
}

// Adjourn implements store.Store.
func (db *DB) Adjourn(ctx context.Context, id string, actions int) error {
	return db.InTx(ctx, "adjourn", func(tx *sql.Tx) error {
		st, _, n, err := db.lockTable(ctx, tx, id)
		if err != nil {
			return err
		}
		if st != store.Playing || n != actions {
			return store.Errorf(store.ECONFLICT, "table %s is %s with %d actions: it cannot be adjourned", id, st.Phrase(), n)
		}
		if _, err := db.exec(ctx, tx, `UPDATE tables SET status = ?, updated = ? WHERE id = ?`, string(store.Adjourned), db.Now().UnixNano(), id); err != nil {
			return err
		}
		return db.changed(ctx, tx, id, n, store.Adjourned)
	})
}

// Resume implements store.Store.
func (db *DB) Resume(ctx context.Context, id string) error {
	return db.InTx(ctx, "resume", func(tx *sql.Tx) error {
		st, _, n, err := db.lockTable(ctx, tx, id)
		if err != nil {
			return err
		}
		if st != store.Adjourned {
			return store.Errorf(store.ECONFLICT, "table %s is %s, not adjourned: there is nothing to resume", id, st.Phrase())
		}
		if _, err := db.exec(ctx, tx, `UPDATE tables SET status = ?, updated = ? WHERE id = ?`, string(store.Playing), db.Now().UnixNano(), id); err != nil {
			return err
		}
		return db.changed(ctx, tx, id, n, store.Playing)
	})
}
