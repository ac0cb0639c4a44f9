package postgres

import (
	"context"

	"github.com/farkle/farkle/store"
)

var _ store.Yielder = (*DB)(nil)

// A yielded lease is a row with no node (no node is named "": Options.Node
// gives one a random name), kept until it expires as any lease is: until
// then no node sees the table as an orphan, and any node may Claim it.

// Yield implements store.Yielder.
func (db *DB) Yield(ctx context.Context, table string) error {
	_, err := db.W.ExecContext(ctx, `UPDATE leases SET node = '', expires = clock_timestamp() + make_interval(secs => $3)
		WHERE table_id = $1 AND node = $2`, table, db.node, db.ttl())
	return err
}

// ClaimEach implements store.Yielder.
func (db *DB) ClaimEach(ctx context.Context, tables []string) ([]string, error) {
	if len(tables) == 0 {
		return nil, nil
	}
	ids, err := db.tables(ctx, `INSERT INTO leases (table_id, node, expires)
		SELECT t.id, $2, clock_timestamp() + make_interval(secs => $3) FROM tables t WHERE t.id = ANY($1)
		ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, expires = excluded.expires
		WHERE leases.node = excluded.node OR leases.expires < clock_timestamp() OR leases.node = ''
		RETURNING table_id`, tables, db.node, db.ttl())
	return ids, err
}
