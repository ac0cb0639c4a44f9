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
