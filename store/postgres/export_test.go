package postgres

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/farkle/farkle/store/sqlstore"
)

// Channel returns the LISTEN/NOTIFY channel of db's schema, for tests that
// listen to the hints themselves.
func (db *DB) Channel() string { return db.channel }

// Batched returns how many actions were committed in batches of more than
// one (the group commit at work).
func (db *DB) Batched() int64 { return db.batched.Load() }

// JoinHints is joinHints, for its test.
var JoinHints = joinHints

// AppendOneIn is appendOne (without its hint) in tx, for the test of the
// action's heap-only update.
func (db *DB) AppendOneIn(ctx context.Context, tx *sql.Tx, table string, n int, entry json.RawMessage) error {
	a, err := sqlstore.NewAppend(table, n, entry, nil)
	if err != nil {
		return err
	}
	_, err = db.appendOne(ctx, tx, &a, false)
	return err
}

// CommitBatch is commitBatch, for the tests of a batch's pipeline.
func (db *DB) CommitBatch(batch []*sqlstore.Append) []error { return db.commitBatch(batch) }

// HintSQL is the statement that sends a batch's hints.
const HintSQL = hintSQL

// Together returns how many actions were written by a batch's one
// statement for many.
func (db *DB) Together() int64 { return db.together.Load() }

// AppendManyIn runs the statement for many later actions in tx, for the
// test of its heap-only updates; it returns how many it wrote.
func (db *DB) AppendManyIn(ctx context.Context, tx *sql.Tx, table []string, n []int, entry []json.RawMessage) (int, error) {
	batch := make([]*sqlstore.Append, len(table))
	many := make([]int, len(table))
	for i := range table {
		a, err := sqlstore.NewAppend(table[i], n[i], entry[i], nil)
		if err != nil {
			return 0, err
		}
		batch[i], many[i] = &a, i
	}
	rows, err := tx.QueryContext(ctx, appendManySQL, db.appendManyArgs(batch, many)...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	wrote := 0
	for rows.Next() {
		var k int64
		var st string
		var have, w int
		if err := rows.Scan(&k, &st, &have, &w); err != nil {
			return 0, err
		}
		wrote += w
	}
	return wrote, rows.Err()
}

// WriteAlone makes db write each action of a batch by its own statement,
// never by the statement for many.
func (db *DB) WriteAlone() { db.alone = true }
