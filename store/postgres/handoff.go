package postgres

import "context"

// handoffPayload is the notification of a node that handed its leases
// off as it stopped: the listeners hear it as a Change with no table, so
// every node reads its tables again and takes those without a lease at
// once. A node of an older release ignores it (its payload is not "N
// STATUS ID") and takes them on its next look for tables without a node.
const handoffPayload = "handoff"

// Handoff gives up this node's leases of the tables and tells the other
// nodes, in one transaction: they take the tables at once, instead of
// after the leases expire.
func (db *DB) Handoff(ctx context.Context, tables []string) error {
	tx, err := db.W.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE node = $1 AND table_id = ANY($2)`, db.node, tables); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, db.channel, handoffPayload); err != nil {
		return err
	}
	return tx.Commit()
}
